"""Which two cards to pass after a blind nil.

The blind nil bidder gives away its two most dangerous cards: the highest ranks,
spades first between equal ranks (a high spade is the card most likely to win a trick
it cannot duck). Its partner, who has to cover the nil, keeps its high cards and gives
its two lowest ranks, side suits first: low cards are what the nil bidder needs to
play under everyone else.
"""

from __future__ import annotations

from games.engine.cards import SPADES, cards_in
from games.engine.seats import partner_of
from games.engine.view import SeatView


def owes_pass(view: SeatView) -> bool:
    """Whether the viewing seat still has to pass two cards."""
    if view.seat is None or view.passed:
        return False
    return view.blind[view.seat] or view.blind[partner_of(view.seat)]


def choose_pass(view: SeatView) -> tuple[int, int]:
    """The two cards the viewing seat passes to its partner."""
    if view.seat is None:
        raise ValueError("A spectator does not pass cards.")
    cards = cards_in(view.hand)
    if view.blind[view.seat]:
        ranked = sorted(cards, key=lambda c: (c % 13, c // 13 == SPADES), reverse=True)
    else:
        ranked = sorted(cards, key=lambda c: (c % 13, c // 13 == SPADES))
    first, second = sorted(ranked[:2])
    return first, second
