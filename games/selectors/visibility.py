"""What a viewer may see of a table, read: the selectors that find the state a viewer is
shown and the stored events, and render them through the ONE filter of hidden information,
``games.domain.visibility`` (pure: state and seat in, view and events out; its docstring
states the rules).

Every response about a table (REST, WebSocket, exports of games in progress) goes through
:func:`table_view` or :func:`events_for_viewer` here, or through
``games.selectors.table_updates`` (both at once, for the live sockets). The viewer is a
Django user (or None): its seat is the first seat it holds at the table; anyone else is a
spectator (anonymous users, users without a seat, staff too).

- at a table created with a ``spectator_delay_tricks`` of N, a spectator is shown the table
  as of the stream prefix that ends N completed tricks behind play
  (``games.domain.visibility.spectator_cut``): the view, the events, its version, the
  export, the replay and the verification all stop there. Seated players see it live;
- the event admin (``/admin/``) shows staff what a spectator sees
  (:func:`spectator_event_data` and :func:`spectator_event_metadata`, registered with
  ``eventstore.redaction``).

States come from the table state cache's read-only interface
(``games.services.table_state``): a selector never puts a state back itself.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from eventstore.reading import read_stream
from games.domain import events as ev
from games.domain import visibility as rules
from games.domain.streams import table_id_of_stream, table_stream_id
from games.domain.table import TableState
from games.engine.errors import IllegalMove
from games.services.errors import CommandRejected
from games.services.read_model import seat_rows
from games.services.table_state import parse_table_id, prefix_state, reading_state

__all__ = [
    "events_for_viewer",
    "hands_shown",
    "rendered_view",
    "shown_state",
    "spectator_event_data",
    "spectator_event_metadata",
    "state_shown",
    "table_view",
    "viewer_seat",
    "viewer_user_id",
    "visible_version",
]


def viewer_user_id(viewer: Any) -> int | None:
    """The user id a viewer is seated by (None for anonymous viewers)."""
    if viewer is None or not getattr(viewer, "is_authenticated", False):
        return None
    pk = getattr(viewer, "pk", None)
    return pk if isinstance(pk, int) else None


def viewer_seat(state: TableState, viewer: Any) -> int | None:
    """The seat ``viewer`` holds at the table (None for spectators)."""
    return state.seat_of(viewer_user_id(viewer))


def state_shown(
    table_uuid: uuid.UUID, state: TableState, seat: int | None, *, read: bool = True
) -> TableState | None:
    """The state ``seat`` is shown: ``state`` itself for a seat (and at a table without a
    spectator delay); for a spectator the prefix that ends at its delayed version (the
    cache's shared, read-only prefix states). None when that prefix is not cached and
    ``read`` is False."""
    cut = rules.spectator_cut(state, seat)
    if cut is None:
        return state
    found = prefix_state(table_uuid, cut, read=read)
    return found[0] if found is not None else None


def rendered_view(
    table_uuid: uuid.UUID,
    state: TableState,
    seat: int | None,
    usernames: dict[int, str] | None = None,
) -> dict[str, Any]:
    """``games.domain.visibility.table_view`` with the seat rows as the read model shows
    them (the players' names looked up, or ``usernames`` when given)."""
    return rules.table_view(str(table_uuid), state, seat, seat_rows(state, usernames))


def visible_version(table_id: object, viewer: Any) -> int:
    """The last stream version ``viewer`` may be shown anything of: the table's version for
    a seated player, the delayed one for a spectator of a table with a spectator delay
    (raises CommandRejected 404). Exports, replays and verifications stop there."""
    table_uuid = parse_table_id(table_id)
    with reading_state(table_uuid) as state:
        cut = rules.spectator_cut(state, viewer_seat(state, viewer))
        return state.version if cut is None else cut


@contextmanager
def shown_state(table_id: object, viewer: Any) -> Iterator[TableState]:
    """The table's state as ``viewer`` is shown it, for reading only (rescoring the hands
    a viewer may see): live for a seat, a delayed spectator's prefix. Raises 404."""
    table_uuid = parse_table_id(table_id)
    with reading_state(table_uuid) as state:
        shown = state_shown(table_uuid, state, viewer_seat(state, viewer))
        assert shown is not None  # read=True always finds the prefix
        yield shown


def hands_shown(table_id: object, viewer: Any) -> int | None:
    """How many of the table's hands ``viewer`` may see the results of: None for all of
    them (the viewer sees the table live), else those over in a delayed spectator's
    prefix (the ledger stops there)."""
    table_uuid = parse_table_id(table_id)
    with reading_state(table_uuid) as state:
        shown = state_shown(table_uuid, state, viewer_seat(state, viewer))
        assert shown is not None  # read=True always finds the prefix
        if shown is state:
            return None
        hands = shown.game.hands if shown.game is not None else []
        return sum(1 for number in range(1, len(hands) + 1) if shown.hand_is_over(number))


def table_view(table_id: object, viewer: Any) -> dict[str, Any]:
    """The table as ``viewer`` may see it, JSON-ready (raises CommandRejected 404)."""
    table_uuid = parse_table_id(table_id)
    with reading_state(table_uuid) as state:
        seat = viewer_seat(state, viewer)
        shown = state_shown(table_uuid, state, seat)
        assert shown is not None  # read=True always finds the prefix
        return rendered_view(table_uuid, shown, seat)


def spectator_event_data(stream_id: str, type_: str, data: dict[str, Any]) -> dict[str, Any]:
    """One stored event's payload as a spectator may see it now (for the event admin).

    Streams that are not tables' are shown as stored. When the table cannot be folded (no
    such table, a broken stream) every hidden field is removed: nothing is shown that the
    filter could not clear.
    """
    table_uuid = table_id_of_stream(stream_id)
    if table_uuid is None or type_ not in ev.HIDDEN_FIELDS:
        return dict(data)
    try:
        with reading_state(table_uuid) as state:
            shown = state_shown(uuid.UUID(table_uuid), state, None)
            assert shown is not None  # read=True always finds the prefix
            return rules.viewer_event_data(type_, data, shown, None)
    except (CommandRejected, IllegalMove, KeyError, ValueError):
        return rules.without_hidden(type_, data)


def spectator_event_metadata(
    stream_id: str, type_: str, data: dict[str, Any], metadata: dict[str, Any]
) -> dict[str, Any]:
    """One stored event's metadata as a spectator may see it now (for the event admin).

    Streams that are not tables' are shown as stored. When the table cannot be folded the
    actor is shown without its hidden fields and without the command id.
    """
    table_uuid = table_id_of_stream(stream_id)
    if table_uuid is None:
        return dict(metadata)
    try:
        with reading_state(table_uuid) as state:
            # The delayed prefix decides, as for the payload: a hand is over for a
            # spectator only once the prefix holds its last card.
            shown = state_shown(uuid.UUID(table_uuid), state, None)
            assert shown is not None  # read=True always finds the prefix
            return rules.public_metadata(data, metadata, shown)
    except (CommandRejected, IllegalMove, KeyError, ValueError):
        return rules.shown_actor(metadata)


def valid_after(after_version: object) -> int:
    """A version to read after, as given: anything that is not a non-negative integer
    reads from the start."""
    if isinstance(after_version, bool) or not isinstance(after_version, int) or after_version < 0:
        return 0
    return after_version


def events_for_viewer(
    table_id: object, viewer: Any, after_version: int = 0, limit: int | None = None
) -> list[dict[str, Any]]:
    """The table's events after ``after_version`` as ``viewer`` may see them, JSON-ready."""
    table_uuid = parse_table_id(table_id)
    after_version = valid_after(after_version)
    with reading_state(table_uuid) as state:
        seat = viewer_seat(state, viewer)
        shown = state_shown(table_uuid, state, seat)
        assert shown is not None  # read=True always finds the prefix
        # Read up to the shown version only, so the filter and the events agree.
        wanted = shown.version - after_version
        if limit is not None:
            wanted = min(wanted, max(limit, 0))
        stored = (
            read_stream(table_stream_id(table_uuid), after_version=after_version, limit=wanted)
            if wanted > 0
            else []
        )
        return rules.viewer_events(stored, shown, seat)
