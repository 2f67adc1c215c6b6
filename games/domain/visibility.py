"""What a seat may see of a table: the rules of hidden information, as pure code (a folded
state and a seat in, the view and the events out; no database, no cache, no framework).

The ONE filter: every response about a table (REST, WebSocket, exports of games in
progress) is rendered here, through :func:`table_view` and :func:`viewer_events`; the
selectors (``games.selectors.visibility``, ``games.selectors.table_updates``) only find the
state a viewer is shown and the stored events, and call these. The rules:

- a seat sees its own cards, but a seat that may still bid blind nil sees them only after
  looking (or bidding); nobody else's;
- spectators (``seat`` None: anonymous users, users without a seat, staff too) see no cards
  in hand;
- a hand's cards (every deal, every pass) become public once the hand is over;
- deck orders in ``HandDealt`` are removed until the hand is over, and so are the cards of
  ``CardsPassed`` (the passer sees them; the partner once the exchange is made); each
  event's ``nonce`` goes with its cards (``games.domain.events.HIDDEN_FIELDS``), since
  with it the public hash can be searched for the cards;
- an event's metadata is shown as stored once its hand is over (an event of no hand: once
  the game is over); until then a bot's ``samples`` and the ``nonce`` that goes with them
  (``games.domain.events.HIDDEN_ACTOR_FIELDS``: they depend on the bot's hidden cards)
  and the command id are left out;
- at a table with a ``spectator_delay_tricks`` of N, a spectator is shown the state folded
  up to :func:`spectator_cut` only (the caller folds that prefix), filtered like any
  other state (a hand is over for a spectator only once the prefix holds its last card).

The hand itself is shown through :func:`games.engine.view.seat_view`, the same function
bots decide from.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any, Protocol

from games.domain import events as ev
from games.domain.table import ABANDONED, FINISHED, TableState
from games.engine.bidding import legal_bids, may_bid_blind_nil
from games.engine.cards import card_name, names_in
from games.engine.hand import PHASE_NAMES, PLAYING
from games.engine.hand_summary import hand_summary
from games.engine.play import card_refusals
from games.engine.seats import SEAT_NAMES, TEAM_NAMES, parse_seat, partner_of
from games.engine.view import SeatView, seat_view

__all__ = [
    "ACTOR_SHOWN",
    "RecordedEvent",
    "public_metadata",
    "shown_actor",
    "spectator_cut",
    "table_view",
    "viewer_event_data",
    "viewer_events",
    "without_hidden",
]


class RecordedEvent(Protocol):
    """A stored event as the filter reads it (``eventstore.records.StoredEvent``)."""

    @property
    def version(self) -> int: ...
    @property
    def type(self) -> str: ...
    @property
    def schema_version(self) -> int: ...
    @property
    def data(self) -> dict[str, Any]: ...
    @property
    def metadata(self) -> dict[str, Any]: ...
    @property
    def recorded_at(self) -> datetime: ...
    @property
    def hash(self) -> str: ...


def spectator_cut(state: TableState, seat: int | None) -> int | None:
    """The version ``seat`` is shown the table at when that is not ``state`` itself: a
    spectator's (``seat`` None) delayed version at a table with a spectator delay; None
    when the viewer sees ``state`` (a seat, no delay, or the delay does not cut)."""
    if seat is not None:
        return None
    cut = state.spectator_version()
    return cut if cut < state.version else None


# ---------------------------------------------------------------- the view


def table_view(
    table_id: str, state: TableState, seat: int | None, seats: Sequence[dict[str, Any]]
) -> dict[str, Any]:
    """The table as ``seat`` may see it at ``state`` (the state it is shown: see
    :func:`spectator_cut`), JSON-ready; ``seats`` are the seat rows as the read model shows
    them (with the players' names)."""
    return {
        "id": table_id,
        "version": state.version,
        "status": state.status,
        "rules": dict(state.rules_snapshot),
        "preset": {"name": state.preset_name, "version": state.preset_version},
        "turn_timer_seconds": state.turn_timer_seconds,
        "spectator_delay_tricks": state.spectator_delay_tricks,
        "created_by": state.created_by,
        "owner": None if state.owner is None else dict(state.owner),
        "seats": list(seats),
        "your_seat": _seat_name(seat) if seat is not None else None,
        "first_dealer": _seat_name(state.first_dealer) if state.first_dealer is not None else None,
        "hand": _hand_view(state, seat),
        "scores": _scores(state),
        "deal": {"commitment": state.commitment, "seed": state.revealed_seed},
    }


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


# ---------------------------------------------------------------- events


# What a viewer sees of an actor while the event is not settled (see _metadata_settled).
ACTOR_SHOWN = ("kind", "user_id", "level", "name", "strategy_version", "seed")


def _metadata_settled(data: dict[str, Any], state: TableState) -> bool:
    """Whether an event's metadata is shown as stored: the event's hand is over, or (an
    event of no hand) the game is over. Until then the hidden actor fields
    (``ev.HIDDEN_ACTOR_FIELDS``) and the command id are left out."""
    number = data.get("hand_number")
    if isinstance(number, int) and not isinstance(number, bool):
        return state.hand_is_over(number)
    return state.status in (FINISHED, ABANDONED)


def public_metadata(
    data: dict[str, Any], metadata: dict[str, Any], state: TableState
) -> dict[str, Any]:
    """An event's metadata as a viewer of ``state`` may see it (the same for every seat)."""
    # Shown as stored once settled, so the public hash re-computes for every event of a
    # finished hand, bots' moves included (docs/tables.md, "Verifying a game by hand").
    if _metadata_settled(data, state):
        return dict(metadata)
    actor = metadata.get("actor") or {}
    shown = {key: actor[key] for key in ACTOR_SHOWN if key in actor}
    return {"actor": shown}


def viewer_event_data(
    type_: str, data: dict[str, Any], state: TableState, seat: int | None
) -> dict[str, Any]:
    """An event's payload as ``seat`` may see it at ``state``."""
    # The hidden fields (ev.HIDDEN_FIELDS: the cards and the nonce that keeps them out of
    # the public hash) are shown together or not at all.
    if type_ == ev.HAND_DEALT:
        number = data["hand_number"]
        if state.hand_is_over(number):
            return dict(data)
        shown = without_hidden(type_, data)
        hand = state.game.hands[number - 1] if state.game is not None else None
        if seat is not None and hand is not None and hand.looked[seat]:
            shown["your_cards"] = names_in(hand.dealt[seat])
        return shown
    if type_ == ev.CARDS_PASSED:
        number = data["hand_number"]
        if state.hand_is_over(number) or seat is None:
            return dict(data) if state.hand_is_over(number) else without_hidden(type_, data)
        passer = parse_seat(data["seat"])
        hand = state.game.hands[number - 1] if state.game is not None else None
        exchanged = hand is not None and hand.phase >= PLAYING
        if seat == passer or (seat == partner_of(passer) and exchanged):
            return dict(data)
        return without_hidden(type_, data)
    return dict(data)


def without_hidden(type_: str, data: dict[str, Any]) -> dict[str, Any]:
    """The payload without its hidden fields (what anyone may see of it, at any time)."""
    hidden = ev.HIDDEN_FIELDS.get(type_, frozenset())
    return {key: value for key, value in data.items() if key not in hidden}


def shown_actor(metadata: dict[str, Any]) -> dict[str, Any]:
    """What anyone may see of an event's metadata when its state cannot be told: the actor
    without its hidden fields, no command id."""
    actor = metadata.get("actor") or {}
    return {"actor": {key: actor[key] for key in ACTOR_SHOWN if key in actor}}


def viewer_events(
    stored: Sequence[RecordedEvent], state: TableState, seat: int | None
) -> list[dict[str, Any]]:
    """Stored events as ``seat`` may see them at ``state`` (the state it is shown),
    JSON-ready."""
    return [
        {
            "version": event.version,
            "type": event.type,
            "schema_version": event.schema_version,
            "data": viewer_event_data(event.type, event.data, state, seat),
            "metadata": public_metadata(event.data, event.metadata, state),
            "recorded_at": event.recorded_at.isoformat(),
            "hash": event.hash,
        }
        for event in stored
    ]
