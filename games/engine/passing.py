"""Blind nil passing: the bidder and partner each give the other two cards."""

from __future__ import annotations

from .cards import card_words, mask_of
from .errors import IllegalMove
from .hand import PASSING, HandState
from .play import start_play
from .seats import partner_of

PASS_SIZE = 2


def pass_refusal(state: HandState, seat: int, cards: list[int]) -> IllegalMove | None:
    """Why this pass is refused, or ``None`` when it is legal."""
    if state.phase != PASSING:
        return IllegalMove("not_passing", "Cards are only passed after a blind nil bid.")
    if not state.pass_owed[seat]:
        return IllegalMove("no_pass_owed", "You do not pass cards this hand.")
    if state.passes[seat]:
        return IllegalMove("already_passed", "You have already passed your two cards.")
    mask = mask_of(cards)
    if len(cards) != PASS_SIZE or mask.bit_count() != PASS_SIZE:
        return IllegalMove("pass_two_cards", "Pass exactly two different cards to your partner.")
    for card in cards:
        if not state.hands[seat] >> card & 1:
            return IllegalMove("card_not_held", f"You do not hold {card_words(card)}.")
    return None


def pass_cards(state: HandState, seat: int, cards: list[int]) -> None:
    """Give two cards to partner; when every owed pass is in, exchange and start play."""
    refusal = pass_refusal(state, seat, cards)
    if refusal is not None:
        raise refusal
    state.passes[seat] = mask_of(cards)
    if any(state.pass_owed[s] and not state.passes[s] for s in range(4)):
        return
    given = state.passes
    hands = [state.hands[s] & ~given[s] for s in range(4)]
    for s in range(4):
        hands[partner_of(s)] |= given[s]
    state.hands = hands
    start_play(state)
