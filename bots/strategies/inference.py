"""What a seat can deduce from its view: voids, cards known to be held, unseen cards.

Everything here is derived from a :class:`~games.engine.view.SeatView` alone, so it is
exactly what a careful player at that seat could work out at the table:

- a seat that did not follow the suit led has none of that suit left;
- a seat that led a spade before spades were broken (with breaking spades on) held
  nothing but spades;
- the two cards this seat passed to its partner after a blind nil are in the partner's
  hand until the partner plays them.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.engine.cards import FULL_DECK, SPADES
from games.engine.hand import PLAYING
from games.engine.seats import partner_of
from games.engine.view import SeatView

ALL_SIDE_SUITS = 0b0111  # clubs, diamonds, hearts as suit bits


@dataclass(frozen=True, slots=True)
class Inference:
    """One seat's deductions about the other hands.

    ``voids[s]`` is a 4-bit mask of suits seat ``s`` is known to be out of;
    ``played[s]`` the cards seat ``s`` has played; ``known[s]`` cards seat ``s`` is
    known to still hold (the seat's own hand for itself); ``unseen`` the cards whose
    holder is unknown; ``counts[s]`` how many cards seat ``s`` holds now.
    """

    seat: int
    voids: tuple[int, int, int, int]
    played: tuple[int, int, int, int]
    known: tuple[int, int, int, int]
    unseen: int
    counts: tuple[int, int, int, int]

    def void_in(self, seat: int, suit: int) -> bool:
        """Whether ``seat`` is known to hold no card of ``suit``."""
        return bool(self.voids[seat] >> suit & 1)


def infer(view: SeatView) -> Inference:
    """Deduce voids and holdings from ``view`` (whose seat must not be ``None``)."""
    if view.seat is None:
        raise ValueError("A spectator's view has no seat to reason for.")
    me = view.seat
    voids = [0, 0, 0, 0]
    played = [0, 0, 0, 0]
    broken = False
    breaking = view.rules.breaking_spades
    led_suit = -1
    for index, (seat, card) in enumerate(view.plays):
        suit = card // 13
        if index % 4 == 0:
            led_suit = suit
            if suit == SPADES and breaking and not broken:
                voids[seat] |= ALL_SIDE_SUITS
        elif suit != led_suit:
            voids[seat] |= 1 << led_suit
        if suit == SPADES:
            broken = True
        played[seat] |= 1 << card
    known = [0, 0, 0, 0]
    known[me] = view.hand
    partner = partner_of(me)
    if view.passed and view.phase >= PLAYING:
        known[partner] = view.passed & ~played[partner]
    all_played = played[0] | played[1] | played[2] | played[3]
    unseen = FULL_DECK & ~all_played & ~known[0] & ~known[1] & ~known[2] & ~known[3]
    counts = tuple(13 - played[seat].bit_count() for seat in range(4))
    return Inference(
        seat=me,
        voids=(voids[0], voids[1], voids[2], voids[3]),
        played=(played[0], played[1], played[2], played[3]),
        known=(known[0], known[1], known[2], known[3]),
        unseen=unseen,
        counts=(counts[0], counts[1], counts[2], counts[3]),
    )
