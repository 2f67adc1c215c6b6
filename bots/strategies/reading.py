"""Reading a seat's view into the small context the card-play heuristics use."""

from __future__ import annotations

from games.engine.cards import FULL_DECK, SPADES
from games.engine.view import SeatView

from .card_play import PlayContext
from .inference import Inference, infer


def trick_leader_card(trick: tuple[tuple[int, int], ...]) -> tuple[int, int]:
    """The seat and card winning the trick so far: ``(-1, -1)`` before its first card."""
    if not trick:
        return -1, -1
    led_suit = trick[0][1] // 13
    best_seat, best_card = trick[0]
    for seat, card in trick[1:]:
        suit = card // 13
        best_suit = best_card // 13
        if suit == best_suit:
            if card > best_card:
                best_seat, best_card = seat, card
        elif suit == SPADES and best_suit == led_suit:
            best_seat, best_card = seat, card
    return best_seat, best_card


def play_context(view: SeatView, inference: Inference | None = None) -> PlayContext:
    """The card-play context of the seat to play, from its view alone."""
    if view.seat is None:
        raise ValueError("A spectator does not play.")
    known = inference if inference is not None else infer(view)
    best_seat, best_card = trick_leader_card(view.trick)
    return PlayContext(
        seat=view.seat,
        hand=view.hand,
        legal=view.legal,
        trick_seats=[seat for seat, _ in view.trick],
        led_suit=view.trick[0][1] // 13 if view.trick else -1,
        best_seat=best_seat,
        best_card=best_card,
        bids=view.bids,
        tricks_won=view.tricks_won,
        others=FULL_DECK & ~view.played_mask & ~view.hand,
        voids=known.voids,
        rules=view.rules,
    )
