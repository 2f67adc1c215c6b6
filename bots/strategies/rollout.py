"""Playing a sampled deal to the end with Normal's heuristics, and scoring the result."""

from __future__ import annotations

from games.engine.cards import FULL_DECK, SPADES
from games.engine.hand import PLAYING, HandState
from games.engine.play import legal_card_mask, play_card
from scoring.core.hand_score import score_team

from .card_play import PlayContext, choose_card


def best_card_of(state: HandState) -> int:
    """The card winning the trick in progress (``-1`` before its first card)."""
    if not state.trick:
        return -1
    value = state.best_value
    if value >= 16:
        return SPADES * 13 + value - 16
    return state.led_suit * 13 + value


def play_out(state: HandState, voids: list[int]) -> None:
    """Finish the hand in place, every seat playing Normal's card.

    ``voids`` starts as the searching seat's deductions and is updated as seats show
    out, so the heuristics of every seat read only public knowledge plus own cards.
    """
    played = 0
    for card in state.plays:
        played |= 1 << card
    rules = state.rules
    while state.phase == PLAYING:
        seat = state.turn
        legal = legal_card_mask(state)
        trick = state.trick
        if not legal & (legal - 1):
            card = (legal & -legal).bit_length() - 1
        else:
            hand = state.hands[seat]
            leader = state.leader
            card = choose_card(
                PlayContext(
                    seat=seat,
                    hand=hand,
                    legal=legal,
                    trick_seats=[(leader + i) & 3 for i in range(len(trick))],
                    led_suit=state.led_suit if trick else -1,
                    best_seat=state.best_seat if trick else -1,
                    best_card=best_card_of(state),
                    bids=state.bids,
                    tricks_won=state.tricks_won,
                    others=FULL_DECK & ~played & ~hand,
                    voids=voids,
                    rules=rules,
                )
            )
        if trick and card // 13 != state.led_suit:
            voids[seat] |= 1 << state.led_suit
        play_card(state, seat, card)
        played |= 1 << card


def score_difference(
    state: HandState, team: int, totals: tuple[int, int], bags: tuple[int, int]
) -> int:
    """``team``'s hand score minus the opponents' under the real rules and running bags."""
    mine = score_team(
        state.rules, team, state.bids, state.blind, state.tricks_won, totals[team], bags[team]
    )
    theirs = score_team(
        state.rules,
        1 - team,
        state.bids,
        state.blind,
        state.tricks_won,
        totals[1 - team],
        bags[1 - team],
    )
    return mine.hand_score - theirs.hand_score
