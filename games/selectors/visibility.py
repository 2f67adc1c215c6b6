"""What a viewer may see of a table: the ONE place hidden information is filtered.

Every response about a table (REST, WebSocket, exports of games in progress) goes through
:func:`table_view` or :func:`events_for_viewer`.  The rules:

- a seat sees its own cards, but a seat that may still bid blind nil sees them only after
  looking (or bidding); nobody else's;
- spectators (anonymous users, users without a seat, staff too) see no cards in hand;
- a hand's cards (every deal, every pass) become public once the hand is over;
- deck orders in ``HandDealt`` are removed until the hand is over, and so are the cards of
  ``CardsPassed`` (the passer sees them; the partner once the exchange is made); each
  event's ``nonce`` goes with its cards (``games.domain.events.HIDDEN_FIELDS``), since
  with it the public hash can be searched for the cards;
- an event's metadata is shown as stored once its hand is over (an event of no hand: once
  the game is over); until then a bot's ``samples`` and the ``nonce`` that goes with them
  (``games.domain.events.HIDDEN_ACTOR_FIELDS``: they depend on the bot's hidden cards)
  and the command id are left out;
- the event admin (``/admin/``) shows staff what a spectator sees
  (:func:`spectator_event_data` and :func:`spectator_event_metadata`, registered with
  ``eventstore.redaction``);
- at a table created with a ``spectator_delay_tricks`` of N, a spectator is shown the table
  as of the stream prefix that ends N completed tricks behind play
  (``TableState.spectator_version``): the view, the events, its version, the export, the
  replay and the verification all stop there, and the prefix is filtered like any other
  state (a hand is over for a spectator only once the prefix holds its last card). Seated
  players see the table live.

The hand itself is shown through :func:`games.engine.view.seat_view`, the same function
bots decide from.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from django.db import connection

from eventstore.reading import read_stream
from eventstore.records import StoredEvent
from games.domain import events as ev
from games.domain.streams import table_id_of_stream, table_stream_id
from games.domain.table import ABANDONED, FINISHED, TableState
from games.engine.bidding import legal_bids, may_bid_blind_nil
from games.engine.cards import card_name, names_in
from games.engine.errors import IllegalMove
from games.engine.hand import PHASE_NAMES, PLAYING
from games.engine.hand_summary import hand_summary
from games.engine.play import card_refusals
from games.engine.seats import SEAT_NAMES, TEAM_NAMES, parse_seat, partner_of
from games.engine.view import SeatView, seat_view
from games.services.errors import CommandRejected
from games.services.read_model import kept_usernames, seat_rows
from games.services.table_state import (
    fresh_state,
    parse_table_id,
    prefix_state,
    put_back,
    reading_state,
    take_committed,
    take_state,
)

__all__ = [
    "ViewerUpdate",
    "events_for_viewer",
    "hands_shown",
    "notified_update",
    "shown_state",
    "spectator_event_data",
    "spectator_event_metadata",
    "table_view",
    "viewer_seat",
    "viewer_update",
    "viewer_user_id",
    "visible_version",
]


def viewer_user_id(viewer: Any) -> int | None:
    """The user id a viewer is seated by (None for anonymous viewers)."""
    return _viewer_id(viewer)


def _viewer_id(viewer: Any) -> int | None:
    if viewer is None or not getattr(viewer, "is_authenticated", False):
        return None
    pk = getattr(viewer, "pk", None)
    return pk if isinstance(pk, int) else None


def viewer_seat(state: TableState, viewer: Any) -> int | None:
    """The seat ``viewer`` holds at the table (None for spectators)."""
    return state.seat_of(_viewer_id(viewer))


def _shown_state(
    table_uuid: uuid.UUID, state: TableState, seat: int | None, *, read: bool = True
) -> TableState | None:
    """The state ``seat`` is shown: ``state`` itself for a seat (and at a table without a
    spectator delay); for a spectator the prefix that ends at ``state.spectator_version()``.
    None when that prefix is not cached and ``read`` is False."""
    if seat is not None:
        return state
    cut = state.spectator_version()
    if cut >= state.version:
        return state
    found = prefix_state(table_uuid, cut, read=read)
    return found[0] if found is not None else None


def visible_version(table_id: object, viewer: Any) -> int:
    """The last stream version ``viewer`` may be shown anything of: the table's version for
    a seated player, the delayed one for a spectator of a table with a spectator delay
    (raises CommandRejected 404). Exports, replays and verifications stop there."""
    table_uuid = parse_table_id(table_id)
    with reading_state(table_uuid) as state:
        if viewer_seat(state, viewer) is not None:
            return state.version
        return state.spectator_version()


@contextmanager
def shown_state(table_id: object, viewer: Any) -> Iterator[TableState]:
    """The table's state as ``viewer`` is shown it, for reading only (rescoring the hands
    a viewer may see): live for a seat, a delayed spectator's prefix. Raises 404."""
    table_uuid = parse_table_id(table_id)
    with reading_state(table_uuid) as state:
        shown = _shown_state(table_uuid, state, viewer_seat(state, viewer))
        assert shown is not None  # read=True always finds the prefix
        yield shown


def hands_shown(table_id: object, viewer: Any) -> int | None:
    """How many of the table's hands ``viewer`` may see the results of: None for all of
    them (the viewer sees the table live), else those over in a delayed spectator's
    prefix (the ledger stops there)."""
    table_uuid = parse_table_id(table_id)
    with reading_state(table_uuid) as state:
        shown = _shown_state(table_uuid, state, viewer_seat(state, viewer))
        assert shown is not None  # read=True always finds the prefix
        if shown is state:
            return None
        hands = shown.game.hands if shown.game is not None else []
        return sum(1 for number in range(1, len(hands) + 1) if shown.hand_is_over(number))


def _seat_name(seat: int) -> str | None:
    return SEAT_NAMES[seat] if 0 <= seat <= 3 else None


def _hand_view(state: TableState, seat: int | None) -> dict[str, Any] | None:
    hand = state.hand
    if hand is None:
        return None
    view: SeatView = seat_view(hand, seat, state.team_totals(), state.team_bags())
    summary = hand_summary(view)
    body: dict[str, Any] = {
        "number": view.hand_number,
        "dealer": SEAT_NAMES[view.dealer],
        "phase": PHASE_NAMES[view.phase],
        "turn": _seat_name(view.turn),
        "acting_seats": [SEAT_NAMES[s] for s in state.acting_seats()],
        "bids": summary.bids,
        "blind_nil_allowed": {SEAT_NAMES[s]: view.blind_eligible[s] for s in range(4)},
        "plays": [{"seat": SEAT_NAMES[s], "card": card_name(c)} for s, c in view.plays],
        "current_trick": [{"seat": SEAT_NAMES[s], "card": card_name(c)} for s, c in view.trick],
        "leader": _seat_name(view.leader),
        "spades_broken": view.spades_broken,
        "tricks_won": summary.tricks,
        "trick_winners": [SEAT_NAMES[s] for s in view.trick_winners],
        "revealed": (
            {SEAT_NAMES[s]: names_in(view.revealed[s]) for s in range(4)} if view.revealed else None
        ),
    }
    if seat is not None:
        mine: dict[str, Any] = {
            "seat": SEAT_NAMES[seat],
            "looked": view.looked,
            "cards": names_in(view.hand) if view.looked else None,
            "passed": names_in(view.passed) if view.passed else None,
            "received": names_in(view.received) if view.received else None,
            "legal_cards": names_in(view.legal) if view.legal else [],
            "refusals": {},
            "legal_bids": [],
            "may_bid_blind_nil": False,
            "owes_pass": hand.pass_owed[seat] and not hand.passes[seat],
        }
        if view.legal and hand.phase == PLAYING:
            mine["refusals"] = {
                card_name(card): reason for card, reason in card_refusals(hand, seat).items()
            }
        if seat == hand.turn:
            mine["legal_bids"] = legal_bids(hand, seat)
            mine["may_bid_blind_nil"] = may_bid_blind_nil(hand, seat)
        body["you"] = mine
    return body


def _scores(state: TableState) -> dict[str, Any]:
    totals = state.team_totals()
    bags = state.team_bags()
    summary: dict[str, Any] = (
        state.game.ledger.summary()
        if state.game is not None
        else {"hands": [], "winner": None, "finished_after_hand": None}
    )
    return {
        "totals": {TEAM_NAMES[t]: totals[t] for t in (0, 1)},
        "bags": {TEAM_NAMES[t]: bags[t] for t in (0, 1)},
        "hands": summary["hands"],
        "winner": summary["winner"],
        "finished_after_hand": summary["finished_after_hand"],
    }


def table_view(table_id: object, viewer: Any) -> dict[str, Any]:
    """The table as ``viewer`` may see it, JSON-ready (raises CommandRejected 404)."""
    table_uuid = parse_table_id(table_id)
    with reading_state(table_uuid) as state:
        seat = viewer_seat(state, viewer)
        shown = _shown_state(table_uuid, state, seat)
        assert shown is not None  # read=True always finds the prefix
        return _rendered_view(table_uuid, shown, seat)


def _rendered_view(
    table_uuid: uuid.UUID,
    state: TableState,
    seat: int | None,
    usernames: dict[int, str] | None = None,
) -> dict[str, Any]:
    return {
        "id": str(table_uuid),
        "version": state.version,
        "status": state.status,
        "rules": dict(state.rules_snapshot),
        "preset": {"name": state.preset_name, "version": state.preset_version},
        "turn_timer_seconds": state.turn_timer_seconds,
        "spectator_delay_tricks": state.spectator_delay_tricks,
        "created_by": state.created_by,
        "owner": None if state.owner is None else dict(state.owner),
        "seats": seat_rows(state, usernames),
        "your_seat": _seat_name(seat) if seat is not None else None,
        "first_dealer": _seat_name(state.first_dealer) if state.first_dealer is not None else None,
        "hand": _hand_view(state, seat),
        "scores": _scores(state),
        "deal": {"commitment": state.commitment, "seed": state.revealed_seed},
    }


# ---------------------------------------------------------------- events


# What a viewer sees of an actor while the event is not settled (see _metadata_settled).
_ACTOR_SHOWN = ("kind", "user_id", "level", "name", "strategy_version", "seed")


def _metadata_settled(data: dict[str, Any], state: TableState) -> bool:
    """Whether an event's metadata is shown as stored: the event's hand is over, or (an
    event of no hand) the game is over. Until then the hidden actor fields
    (``ev.HIDDEN_ACTOR_FIELDS``) and the command id are left out."""
    number = data.get("hand_number")
    if isinstance(number, int) and not isinstance(number, bool):
        return state.hand_is_over(number)
    return state.status in (FINISHED, ABANDONED)


def _public_metadata(
    data: dict[str, Any], metadata: dict[str, Any], state: TableState
) -> dict[str, Any]:
    # Shown as stored once settled, so the public hash re-computes for every event of a
    # finished hand, bots' moves included (docs/tables.md, "Verifying a game by hand").
    if _metadata_settled(data, state):
        return dict(metadata)
    actor = metadata.get("actor") or {}
    shown = {key: actor[key] for key in _ACTOR_SHOWN if key in actor}
    return {"actor": shown}


def _filtered_data(
    type_: str, data: dict[str, Any], state: TableState, seat: int | None
) -> dict[str, Any]:
    # The hidden fields (ev.HIDDEN_FIELDS: the cards and the nonce that keeps them out of
    # the public hash) are shown together or not at all.
    if type_ == ev.HAND_DEALT:
        number = data["hand_number"]
        if state.hand_is_over(number):
            return dict(data)
        shown = _without_hidden(type_, data)
        hand = state.game.hands[number - 1] if state.game is not None else None
        if seat is not None and hand is not None and hand.looked[seat]:
            shown["your_cards"] = names_in(hand.dealt[seat])
        return shown
    if type_ == ev.CARDS_PASSED:
        number = data["hand_number"]
        if state.hand_is_over(number) or seat is None:
            return dict(data) if state.hand_is_over(number) else _without_hidden(type_, data)
        passer = parse_seat(data["seat"])
        hand = state.game.hands[number - 1] if state.game is not None else None
        exchanged = hand is not None and hand.phase >= PLAYING
        if seat == passer or (seat == partner_of(passer) and exchanged):
            return dict(data)
        return _without_hidden(type_, data)
    return dict(data)


def _without_hidden(type_: str, data: dict[str, Any]) -> dict[str, Any]:
    hidden = ev.HIDDEN_FIELDS.get(type_, frozenset())
    return {key: value for key, value in data.items() if key not in hidden}


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
            shown = _shown_state(table_uuid, state, None)
            assert shown is not None  # read=True always finds the prefix
            return _filtered_data(type_, data, shown, None)
    except (CommandRejected, IllegalMove, KeyError, ValueError):
        return _without_hidden(type_, data)


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
            shown = _shown_state(table_uuid, state, None)
            assert shown is not None  # read=True always finds the prefix
            return _public_metadata(data, metadata, shown)
    except (CommandRejected, IllegalMove, KeyError, ValueError):
        actor = metadata.get("actor") or {}
        return {"actor": {key: actor[key] for key in _ACTOR_SHOWN if key in actor}}


def _rendered_events(
    stored: Sequence[StoredEvent], state: TableState, seat: int | None
) -> list[dict[str, Any]]:
    return [
        {
            "version": event.version,
            "type": event.type,
            "schema_version": event.schema_version,
            "data": _filtered_data(event.type, event.data, state, seat),
            "metadata": _public_metadata(event.data, event.metadata, state),
            "recorded_at": event.recorded_at.isoformat(),
            "hash": event.hash,
        }
        for event in stored
    ]


def _valid_after(after_version: object) -> int:
    if isinstance(after_version, bool) or not isinstance(after_version, int) or after_version < 0:
        return 0
    return after_version


def events_for_viewer(
    table_id: object, viewer: Any, after_version: int = 0, limit: int | None = None
) -> list[dict[str, Any]]:
    """The table's events after ``after_version`` as ``viewer`` may see them, JSON-ready."""
    table_uuid = parse_table_id(table_id)
    after_version = _valid_after(after_version)
    with reading_state(table_uuid) as state:
        seat = viewer_seat(state, viewer)
        shown = _shown_state(table_uuid, state, seat)
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
        return _rendered_events(stored, shown, seat)


# ---------------------------------------------------------------- both at once


@dataclass(frozen=True)
class ViewerUpdate:
    """What one viewer is sent after a commit: the table at ``version`` and the viewer's
    events with ``after < version``, rendered by the same code as :func:`table_view` and
    :func:`events_for_viewer` (so one fold and one read give exactly what those two give).

    ``version`` is the viewer's (a delayed spectator's is behind the table);
    ``table_version`` the table's, which the update was rendered from."""

    version: int
    seat: int | None
    view: dict[str, Any]
    events: list[dict[str, Any]]
    table_version: int


def chained_tail(
    notified: Sequence[StoredEvent], version: int, head_hash: str
) -> list[StoredEvent] | None:
    """``notified`` if they are the events right after ``version``, whose event has hash
    ``head_hash``: versions contiguous, each chained to the one before and hashing to its
    stored hash (so they are exactly the stored events, as a read would give). Else None."""
    if not notified or notified[0].version != version + 1:
        return None
    previous = head_hash
    for offset, event in enumerate(notified):
        if event.version != version + 1 + offset or event.prev_hash != previous:
            return None
        if event.expected_hash() != event.hash:
            return None
        previous = event.hash
    return list(notified)


def notified_update(
    table_id: object, viewer: Any, after_version: int, notified: Sequence[StoredEvent]
) -> ViewerUpdate | None:
    """:func:`viewer_update` from a commit notice's events alone, or None when that needs
    the database: no committed fold cached at ``after_version``, events that do not chain
    onto it (:func:`chained_tail`), or a player's name not kept. Never touches the
    database, so an async consumer can call it on its event loop (no thread hop)."""
    table_uuid = parse_table_id(table_id)
    taken = take_committed(table_uuid)
    if taken is None:
        return None
    state, head_hash = taken
    tail = None
    usernames = None
    if state.version == after_version:
        tail = chained_tail(notified, state.version, head_hash)
    if tail is not None:
        for event in tail:
            state.apply(event.type, event.data)
            head_hash = event.hash
        usernames = kept_usernames(state)
    try:
        if tail is None or usernames is None:
            return None
        seat = viewer_seat(state, viewer)
        shown = _shown_state(table_uuid, state, seat, read=False)
        if shown is None:
            return None
        if shown is not state:
            # A delayed spectator's prefix: its players' names are those kept for the table.
            tail = [event for event in tail if event.version <= shown.version]
        return ViewerUpdate(
            shown.version,
            seat,
            _rendered_view(table_uuid, shown, seat, usernames),
            _rendered_events(tail, shown, seat),
            state.version,
        )
    finally:
        # Committed: the events came from a commit notice and chain onto committed ones.
        put_back(table_uuid, state, head_hash, committed=True)


def viewer_update(
    table_id: object,
    viewer: Any,
    after_version: int = 0,
    notified: Sequence[StoredEvent] = (),
) -> ViewerUpdate:
    """The viewer's view and events after ``after_version``, from ONE fold and ONE read
    (or none: ``notified`` are events a commit notice carried, used when they chain onto
    the cached fold, see :func:`chained_tail`).

    A committed cached fold is taken without reading the stream; the single read fetches
    the events from just before the older of (cached version, ``after_version``), checks
    that the cached head still carries its hash (as the cache's own catch-up does), folds
    the new events in, and returns the viewer's slice. Equal to ``table_view`` plus
    ``events_for_viewer`` read at one version. Raises CommandRejected 404 like them.
    """
    table_uuid = parse_table_id(table_id)
    after_version = _valid_after(after_version)
    stream_id = table_stream_id(table_uuid)
    state, head_hash, verified = take_state(table_uuid, trust_committed=True)
    tail = None
    if not verified and after_version == state.version:
        tail = chained_tail(notified, state.version, head_hash)
    if tail is not None:
        # The commit notice carried the new events and they chain onto the cached head:
        # the read would give exactly these (the viewer is at the cached version).
        stored = tail
        for event in stored:
            state.apply(event.type, event.data)
            head_hash = event.hash
    elif verified:
        # Caught up by the cache (it read the stream): read the viewer's events only.
        wanted = state.version - after_version
        stored = (
            read_stream(stream_id, after_version=after_version, limit=wanted) if wanted > 0 else []
        )
    else:
        start = min(after_version, state.version - 1)
        stored = read_stream(stream_id, after_version=start)
        head = state.version - 1 - start
        if head >= len(stored) or stored[head].hash != head_hash:
            # The cached head is not the stored one: fold afresh (rare; the cache decides).
            state, head_hash = fresh_state(table_uuid)
            stored = read_stream(stream_id, after_version=after_version)
        for event in stored:
            if event.version > state.version:
                state.apply(event.type, event.data)
                head_hash = event.hash
    try:
        seat = viewer_seat(state, viewer)
        shown = _shown_state(table_uuid, state, seat)
        assert shown is not None  # read=True always finds the prefix
        stored = [event for event in stored if after_version < event.version <= shown.version]
        update = ViewerUpdate(
            shown.version,
            seat,
            _rendered_view(table_uuid, shown, seat),
            _rendered_events(stored, shown, seat),
            state.version,
        )
    finally:
        # Outside a transaction every event read was committed.
        put_back(table_uuid, state, head_hash, committed=not connection.in_atomic_block)
    return update
