"""Replaying one recorded hand through the engine: its bids, passes and plays, in order.

:func:`replay_hand` feeds a :class:`~games.engine.record.RecordedHand` to the same calls
the server validates moves with (``place_bid``, ``pass_cards``, ``play_card``) on a hand
freshly dealt from it, and returns the first action the rules refuse as a
:class:`Refusal` (where: hand, action, position, seat, card; why: the engine's code and
sentence), or ``None`` when the rules allow every action.  Whether a refusal ends the
replay or is flagged while the game goes on is the caller's choice (the game-level
replay, above the engine, takes a mode); the hand itself is not scored here.
"""

from __future__ import annotations

from dataclasses import dataclass

from .bidding import bid_label, place_bid
from .cards import card_name
from .errors import IllegalMove
from .hand import PASSING, HandState
from .passing import pass_cards
from .play import play_card
from .record import RecordedHand
from .seats import SEAT_NAMES

PASS_MISSING = "pass_missing"


@dataclass(frozen=True, slots=True)
class Refusal:
    """The first action of a hand the rules refused.

    ``where`` is the action in words (``"play 3 (trick 1: south played AD)"``), ``index``
    its 1-based position among the hand's bids or plays, ``bid`` the written bid of a
    refused bid.  A ``pass_missing`` refusal names in ``missing`` the seats that owed a pass.
    """

    hand: int
    action: str
    where: str
    code: str
    reason: str
    seat: int | None = None
    index: int | None = None
    card: int | None = None
    bid: int | str | None = None
    missing: tuple[int, ...] = ()

    @classmethod
    def of(
        cls,
        hand: int,
        action: str,
        where: str,
        error: IllegalMove,
        seat: int | None = None,
        index: int | None = None,
        card: int | None = None,
        bid: int | str | None = None,
    ) -> Refusal:
        """The refusal of an action the engine raised ``error`` for."""
        return cls(hand, action, where, error.code, error.message, seat, index, card, bid)


def replay_hand(state: HandState, hand: RecordedHand) -> Refusal | None:
    """Play ``hand``'s bids, passes and cards on ``state`` (just dealt from it); first refusal."""
    number = hand.number
    for index in range(1, 5):
        seat = state.turn
        tricks, blind = hand.bids[seat]
        try:
            place_bid(state, seat, tricks, blind)
        except IllegalMove as error:
            label = bid_label(tricks, blind)
            where = f"bid {index} ({SEAT_NAMES[seat]} bid {label})"
            return Refusal.of(number, "bid", where, error, seat, index, bid=label)

    for seat in range(4):
        cards = hand.passes[seat]
        if not cards:
            continue
        try:
            pass_cards(state, seat, list(cards))
        except IllegalMove as error:
            given = " and ".join(card_name(card) for card in cards)
            return Refusal.of(number, "pass", f"{SEAT_NAMES[seat]} passing {given}", error, seat)
    if state.phase == PASSING:
        missing = tuple(s for s in range(4) if state.pass_owed[s] and not state.passes[s])
        names = " and ".join(SEAT_NAMES[s] for s in missing)
        reason = f"after the blind nil bid, {names} must pass two cards to their partner"
        return Refusal(number, "pass", "", PASS_MISSING, reason, missing=missing)

    for index, card in enumerate(hand.plays, start=1):
        seat = state.turn
        try:
            play_card(state, seat, card)
        except IllegalMove as error:
            trick = (index - 1) // 4 + 1
            where = f"play {index} (trick {trick}: {SEAT_NAMES[seat]} played {card_name(card)})"
            return Refusal.of(number, "play", where, error, seat, index, card)
    return None
