"""What a live socket sends after a commit: the viewer's events and view at one version
(:class:`ViewerUpdate`), read as cheaply as it can be, and this process's cache of them.

The read strategies, cheapest first (:func:`update_without_database`, then
:func:`update_from_database`; the consumer only says whether it may wait for the
database):

1. **shared**: an update already rendered in this process for the viewer's seat, from the
   same version, at a table version the notice said the table has reached
   (:class:`RenderedUpdates`): the four seats and the spectators of a table each get one
   rendering per commit, not one per connection;
2. **notified**: the commit notice's events, when they chain onto the fold cached at the
   viewer's version (``games.services.table_state.reading_notified``): folded and rendered
   with no database work, on the event loop;
3. **read**: one fold and at most one read of the stream
   (``games.services.table_state.reading_with_events``).

Each renders through the ONE filter (``games.domain.visibility``, by way of
``games.selectors.visibility``), so the three give exactly what ``table_view`` plus
``events_for_viewer`` give that viewer at that version. States come from the table state
cache's read-only interface: nothing here puts a state back.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, cast

from cachetools import LRUCache

from eventstore.records import StoredEvent
from games.domain import visibility as rules
from games.domain.streams import table_stream_id
from games.selectors.visibility import (
    rendered_view,
    state_shown,
    table_view,
    valid_after,
    viewer_seat,
    viewer_user_id,
)
from games.services.errors import CommandRejected
from games.services.read_model import kept_usernames
from games.services.table_state import parse_table_id, reading_notified, reading_with_events

#: (version, the viewer's events in (after, version], the viewer's view at version)
Update = tuple[int, list[dict[str, Any]], dict[str, Any]]


@dataclass(frozen=True)
class ViewerUpdate:
    """What one viewer is sent after a commit: the table at ``version`` and the viewer's
    events with ``after < version``, rendered by the same code as ``table_view`` and
    ``events_for_viewer`` (so one fold and one read give exactly what those two give).

    ``version`` is the viewer's (a delayed spectator's is behind the table);
    ``table_version`` the table's, which the update was rendered from."""

    version: int
    seat: int | None
    view: dict[str, Any]
    events: list[dict[str, Any]]
    table_version: int


def viewer_update(
    table_id: object,
    viewer: Any,
    after_version: int = 0,
    notified: Sequence[StoredEvent] = (),
) -> ViewerUpdate:
    """The viewer's view and events after ``after_version``, from ONE fold and ONE read
    (or none: ``notified`` are events a commit notice carried, used when they chain onto
    the cached fold). Equal to ``table_view`` plus ``events_for_viewer`` read at one
    version. Raises CommandRejected 404 like them."""
    table_uuid = parse_table_id(table_id)
    after_version = valid_after(after_version)
    with reading_with_events(table_uuid, after_version, notified) as (state, stored):
        seat = viewer_seat(state, viewer)
        shown = state_shown(table_uuid, state, seat)
        assert shown is not None  # read=True always finds the prefix
        stored = [event for event in stored if event.version <= shown.version]
        return ViewerUpdate(
            shown.version,
            seat,
            rendered_view(table_uuid, shown, seat),
            rules.viewer_events(stored, shown, seat),
            state.version,
        )


def notified_update(
    table_id: object, viewer: Any, after_version: int, notified: Sequence[StoredEvent]
) -> ViewerUpdate | None:
    """:func:`viewer_update` from a commit notice's events alone, or None when that needs
    the database: no committed fold cached at ``after_version``, events that do not chain
    onto it, a delayed spectator's prefix not cached, or a player's name not kept. Never
    touches the database, so an async consumer can call it on its event loop."""
    table_uuid = parse_table_id(table_id)
    with reading_notified(table_uuid, after_version, notified) as advanced:
        if advanced is None:
            return None
        state, tail = advanced
        usernames = kept_usernames(state)
        if usernames is None:
            return None
        seat = viewer_seat(state, viewer)
        shown = state_shown(table_uuid, state, seat, read=False)
        if shown is None:
            return None
        # A delayed spectator's prefix: its players' names are those kept for the table.
        tail = [event for event in tail if event.version <= shown.version]
        return ViewerUpdate(
            shown.version,
            seat,
            rendered_view(table_uuid, shown, seat, usernames),
            rules.viewer_events(tail, shown, seat),
            state.version,
        )


def command_update(
    table_id: object, viewer: Any, events: Sequence[StoredEvent]
) -> ViewerUpdate | None:
    """A command's answer for ``viewer``: its ``events`` (as the store appended them) as
    the viewer may see them and the table at their last version, rendered with no database
    work from the fold the command put back (:func:`notified_update`), or None when that
    needs the database (the caller then reads as before). The rendering is kept for the
    table's sockets: the acting seat's sockets send this one instead of rendering it again
    (docs/benchmarks.md, "Capacity", session 8)."""
    if not events:
        return None
    after = events[0].version - 1
    shared = _rendered.find(str(table_id), events[-1].version, after, viewer_user_id(viewer))
    if shared is not None and shared.table_version == events[-1].version:
        # The acting seat's socket in this process rendered it first.
        return cast(ViewerUpdate, shared)
    update = notified_update(table_id, viewer, after, events)
    if update is None:
        return None
    _rendered.keep(str(table_id), after, update)
    return update


# ---------------------------------------------------------------- for the live sockets


def viewer_state(table_id: str, viewer: Any) -> dict[str, Any] | None:
    """The viewer's ``table_view``, or None when there is no such table (a socket's first
    message)."""
    try:
        return table_view(table_id, viewer)
    except CommandRejected as refusal:
        if refusal.status == 404:
            return None
        raise


def decoded_events(table_id: str, notified: Sequence[Sequence[Any]]) -> list[Any] | None:
    """The ``StoredEvent``s a commit notice carried (``StoredEvent.to_wire``), or None if
    they are not what a notice carries. Their content is checked later, against the fold's
    hash chain (``games.services.table_state.chained_tail``)."""
    try:
        return [StoredEvent.from_wire(table_stream_id(table_id), item) for item in notified]
    except ValueError:
        return None


def update_without_database(
    table_id: str,
    viewer: Any,
    after: int,
    at_least: int,
    notified: Sequence[Sequence[Any]] = (),
) -> Update | None:
    """The viewer's update after ``after`` from a table that has reached ``at_least`` (a
    commit notice's version), by the strategies that need no database: shared, then
    notified (``notified``: the notice's events, ``StoredEvent.to_wire``). None when only
    a read can give it. Safe to call on the event loop."""
    shared = _rendered.find(str(table_id), at_least, after, viewer_user_id(viewer))
    if shared is not None:
        return shared.version, shared.events, shared.view
    if not notified:
        return None
    events = decoded_events(table_id, notified)
    update = notified_update(table_id, viewer, after, events) if events else None
    if update is None:
        return None
    _rendered.keep(str(table_id), after, update)
    return update.version, update.events, update.view


def update_from_database(
    table_id: str, viewer: Any, after: int, notified: Sequence[Sequence[Any]] = ()
) -> Update:
    """The viewer's update after ``after``: one fold and at most one read
    (:func:`viewer_update`; ``notified`` spare the read when they chain onto the cached
    fold). The rendering is kept for the table's other connections."""
    # Anything that is not what a notice carries is ignored: the stream is read instead.
    events = decoded_events(table_id, notified) or []
    update = viewer_update(table_id, viewer, after_version=after, notified=events)
    _rendered.keep(str(table_id), after, update)
    return update.version, update.events, update.view


class RenderedUpdates:
    """The latest rendered updates of each table in this process, by (after, seat).

    A viewer's seat is read from the players of the rendered version (the first seat the
    user holds, as ``TableState.seat_of``), so a hit gives exactly what a fresh
    ``viewer_update`` at that version gives that viewer.
    """

    def __init__(self, tables: int = 512) -> None:
        self.tables = tables
        self.lock = threading.Lock()
        # table -> (version, players by seat, {(after, seat): update}), least recent out
        self.latest: LRUCache[str, tuple[int, list[Any], dict[tuple[int, int | None], Any]]]
        self.latest = LRUCache(maxsize=tables)

    def find(self, table_id: str, at_least: int, after: int, user_id: int | None) -> Any:
        """A rendered update at a version >= ``at_least`` for this viewer, or None."""
        with self.lock:
            entry = self.latest.get(table_id)
            if entry is None or entry[0] < at_least:
                return None
            version, players, updates = entry
            seat = players.index(user_id) if user_id is not None and user_id in players else None
            return updates.get((after, seat))

    def keep(self, table_id: str, after: int, update: ViewerUpdate) -> None:
        """Remember ``update`` (it replaces older versions of the table). Kept by the
        table's version it was rendered from: a delayed spectator's update is behind it."""
        players = [row["user_id"] for row in update.view["seats"]]
        version = update.table_version
        with self.lock:
            entry = self.latest.get(table_id)
            if entry is None or entry[0] < version:
                entry = (version, players, {})
                self.latest[table_id] = entry
            if entry[0] == version:
                entry[2][(after, update.seat)] = update


_rendered = RenderedUpdates()
