"""Bidding: one bid each, clockwise from the dealer's left; blind nil before looking."""

from __future__ import annotations

from .errors import IllegalMove
from .hand import BIDDING, NO_BID, NO_SEAT, PASSING, HandState
from .play import start_play
from .seats import SEAT_NAMES, partner_of

MAX_BID = 13
BLIND_NIL = "blind_nil"
NIL = "nil"


def parse_bid(value: object) -> tuple[int, bool]:
    """Read a bid as written in files and requests: 0-13, ``"nil"`` or ``"blind_nil"``.

    Returns ``(tricks, blind)``; Nil and blind nil are ``0`` tricks.
    """
    if value == NIL:
        return 0, False
    if value == BLIND_NIL:
        return 0, True
    if isinstance(value, bool) or not isinstance(value, int):
        raise IllegalMove(
            "bad_bid", f"A bid is a number from 0 to 13, 'nil' or 'blind_nil', not {value!r}."
        )
    if not 0 <= value <= MAX_BID:
        raise IllegalMove("bid_out_of_range", f"Bids run from 0 to 13; {value} is not a bid.")
    return value, False


def bid_label(tricks: int, blind: bool) -> int | str:
    """The written form of a bid: the number, ``"nil"`` or ``"blind_nil"``."""
    if blind:
        return BLIND_NIL
    return NIL if tricks == 0 else tricks


def look_at_cards(state: HandState, seat: int) -> None:
    """Record that ``seat`` has seen its cards (it can no longer bid blind nil)."""
    state.looked[seat] = True


def blind_nil_refusal(state: HandState, seat: int) -> IllegalMove | None:
    """Why ``seat`` may not bid blind nil now, or ``None`` when it may."""
    rules = state.rules
    if not rules.blind_nil:
        return IllegalMove("blind_nil_off", "Blind nil is not played at this table.")
    if not state.blind_eligible[seat]:
        return IllegalMove(
            "blind_nil_not_behind",
            f"Blind nil is only allowed when your team is at least "
            f"{rules.blind_nil_min_deficit} points behind at the start of the hand.",
        )
    if state.looked[seat]:
        return IllegalMove(
            "blind_nil_after_looking",
            "Blind nil must be bid before looking at your cards, and you have looked.",
        )
    return None


def bid_refusal(state: HandState, seat: int, tricks: int, blind: bool) -> IllegalMove | None:
    """Why this bid is refused, or ``None`` when it is legal."""
    if state.phase != BIDDING:
        return IllegalMove("not_bidding", "Bidding is over for this hand.")
    if seat != state.turn:
        return IllegalMove(
            "not_your_turn",
            f"It is {SEAT_NAMES[state.turn]}'s turn to bid, not {SEAT_NAMES[seat]}'s.",
        )
    if not 0 <= tricks <= MAX_BID:
        return IllegalMove("bid_out_of_range", f"Bids run from 0 to 13; {tricks} is not a bid.")
    if blind:
        if tricks != 0:
            return IllegalMove("bad_bid", "Blind nil is a bid of zero tricks.")
        return blind_nil_refusal(state, seat)
    if tricks == 0 and not state.rules.nil:
        return IllegalMove("nil_off", "Nil is not played at this table: bid at least 1.")
    return None


def legal_bids(state: HandState, seat: int) -> list[int]:
    """The ordinary bids open to ``seat`` now (blind nil is asked separately)."""
    if state.phase != BIDDING or seat != state.turn:
        return []
    return list(range(state.rules.bid_minimum, MAX_BID + 1))


def may_bid_blind_nil(state: HandState, seat: int) -> bool:
    """Whether ``seat`` may bid blind nil on its turn (now or when it comes)."""
    return state.phase == BIDDING and blind_nil_refusal(state, seat) is None


def place_bid(state: HandState, seat: int, tricks: int, blind: bool = False) -> None:
    """Record a bid, or raise :class:`IllegalMove` with the reason."""
    refusal = bid_refusal(state, seat, tricks, blind)
    if refusal is not None:
        raise refusal
    state.bids[seat] = tricks
    state.blind[seat] = blind
    if not blind:
        state.looked[seat] = True
    if NO_BID in state.bids:
        state.turn = (seat + 1) & 3
        return
    _close_bidding(state)


def _close_bidding(state: HandState) -> None:
    state.looked = [True, True, True, True]
    if not any(state.blind):
        start_play(state)
        return
    for seat in range(4):
        if state.blind[seat]:
            state.pass_owed[seat] = True
            state.pass_owed[partner_of(seat)] = True
    state.phase = PASSING
    state.turn = NO_SEAT
