"""Card play: follow suit, spades trump, breaking spades, the first lead.

``legal_card_mask`` and ``play_card`` are the hot path of every search bot
and of the server's validation, so they stay small and work on bitmasks.
Explanations for refused cards are only built when a card is refused.
"""

from __future__ import annotations

from .cards import (
    NON_SPADES_MASK,
    SPADES,
    SUIT_MASKS,
    SUIT_NAMES,
    TWO_OF_CLUBS,
    card_words,
    cards_in,
)
from .errors import IllegalMove
from .hand import BIDDING, COMPLETE, NO_SEAT, PASSING, PLAYING, HandState
from .seats import SEAT_NAMES, left_of

TRICKS_PER_HAND = 13
_TWO_OF_CLUBS_BIT = 1 << TWO_OF_CLUBS
_SPADE_BONUS = 16  # any spade outranks any card of the suit led


def start_play(state: HandState) -> None:
    """Open the first trick: left of the dealer leads, or the holder of the two of clubs."""
    state.phase = PLAYING
    if state.rules.first_lead == "two_of_clubs":
        leader = next(s for s in range(4) if state.hands[s] & _TWO_OF_CLUBS_BIT)
    else:
        leader = left_of(state.dealer)
    state.turn = leader
    state.leader = leader
    state.first_leader = leader


def legal_card_mask(state: HandState) -> int:
    """The cards the seat to play may play now, as a mask (0 outside play)."""
    if state.phase != PLAYING:
        return 0
    hand = state.hands[state.turn]
    if state.trick:
        follow = hand & SUIT_MASKS[state.led_suit]
        return follow or hand
    if not state.trick_winners and state.rules.first_lead == "two_of_clubs":
        return _TWO_OF_CLUBS_BIT
    if state.rules.breaking_spades and not state.spades_broken:
        return (hand & NON_SPADES_MASK) or hand
    return hand


def legal_cards(state: HandState) -> list[int]:
    """The cards the seat to play may play now, lowest first."""
    return cards_in(legal_card_mask(state))


def play_card(state: HandState, seat: int, card: int) -> None:
    """Play ``card`` for ``seat``, or raise :class:`IllegalMove` with the reason."""
    if seat != state.turn or not legal_card_mask(state) >> card & 1:
        raise play_refusal(state, seat, card) or IllegalMove(
            "illegal_card", f"{card_words(card).capitalize()} cannot be played now."
        )
    state.hands[seat] ^= 1 << card
    state.plays.append(card)
    trick = state.trick
    suit = card // 13
    if suit == SPADES:
        state.spades_broken = True
    if not trick:
        state.led_suit = suit
        state.leader = seat
        state.best_seat = seat
        state.best_value = card % 13 + (_SPADE_BONUS if suit == SPADES else 0)
    elif suit == SPADES or suit == state.led_suit:
        value = card % 13 + (_SPADE_BONUS if suit == SPADES else 0)
        if value > state.best_value:
            state.best_value = value
            state.best_seat = seat
    trick.append(card)
    if len(trick) < 4:
        state.turn = (seat + 1) & 3
        return
    winner = state.best_seat
    state.tricks_won[winner] += 1
    state.trick_winners.append(winner)
    state.trick = []
    state.led_suit = -1
    if len(state.trick_winners) == TRICKS_PER_HAND:
        state.phase = COMPLETE
        state.turn = NO_SEAT
    else:
        state.turn = winner
        state.leader = winner


def play_refusal(state: HandState, seat: int, card: int) -> IllegalMove | None:
    """Why ``seat`` may not play ``card`` now, or ``None`` when it may."""
    if state.phase == BIDDING:
        return IllegalMove(
            "not_playing", "Bidding is not over yet: cards are played after all four bids."
        )
    if state.phase == PASSING:
        return IllegalMove(
            "not_playing", "Blind nil cards are being passed; play starts once both have passed."
        )
    if state.phase == COMPLETE:
        return IllegalMove("hand_over", "This hand is over: all 13 tricks have been played.")
    if seat != state.turn:
        return IllegalMove(
            "not_your_turn",
            f"It is {SEAT_NAMES[state.turn]}'s turn to play, not {SEAT_NAMES[seat]}'s.",
        )
    hand = state.hands[seat]
    if not hand >> card & 1:
        return IllegalMove("card_not_held", f"You do not hold {card_words(card)}.")
    suit = card // 13
    if state.trick:
        if suit != state.led_suit and hand & SUIT_MASKS[state.led_suit]:
            return IllegalMove(
                "must_follow_suit",
                f"You must follow suit: you hold a {SUIT_NAMES[state.led_suit]}.",
            )
        return None
    if (
        not state.trick_winners
        and state.rules.first_lead == "two_of_clubs"
        and card != TWO_OF_CLUBS
    ):
        return IllegalMove(
            "must_lead_two_of_clubs", "The first trick must be led with the two of clubs."
        )
    if (
        suit == SPADES
        and state.rules.breaking_spades
        and not state.spades_broken
        and hand & NON_SPADES_MASK
    ):
        return IllegalMove(
            "spades_not_broken",
            "Spades have not been broken yet: lead another suit until a spade has been played.",
        )
    return None


def card_refusals(state: HandState, seat: int) -> dict[int, str]:
    """For each card ``seat`` holds but may not play now, the sentence saying why."""
    reasons: dict[int, str] = {}
    for card in cards_in(state.hands[seat]):
        refusal = play_refusal(state, seat, card)
        if refusal is not None:
            reasons[card] = refusal.message
    return reasons


def current_winner(state: HandState) -> int:
    """The seat winning the trick in progress, or ``NO_SEAT`` before its first card."""
    return state.best_seat if state.trick else NO_SEAT
