"""Playing a sampled deal to the end with Normal's heuristics, and scoring the result:
as the hand of the running game (:func:`score_difference`) or as a duplicate board
(:func:`board_score_difference`)."""

from __future__ import annotations

from games.engine.cards import FULL_DECK, SPADES
from games.engine.hand import PLAYING, HandState
from games.engine.play import legal_card_mask, play_card
from games.engine.rules import Rules
from scoring.core.board_score import board_points
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


# The seats that have played to a trick, by leader and number of cards played.
_TRICK_SEATS = tuple(
    tuple(tuple((leader + i) & 3 for i in range(count)) for count in range(4))
    for leader in range(4)
)


def play_out(state: HandState, voids: list[int]) -> None:
    """Finish the hand in place, every seat playing Normal's card.

    ``voids`` starts as the searching seat's deductions and is updated as seats show
    out, so the heuristics of every seat read only public knowledge plus own cards.
    """
    played = 0
    for card in state.plays:
        played |= 1 << card
    # One context, refilled for each play: this loop is the hot path of Hard's search.
    context = PlayContext(
        seat=0,
        hand=0,
        legal=0,
        trick_seats=(),
        led_suit=-1,
        best_seat=-1,
        best_card=-1,
        bids=state.bids,
        tricks_won=state.tricks_won,
        others=0,
        voids=voids,
        rules=state.rules,
    )
    while state.phase == PLAYING:
        seat = state.turn
        legal = legal_card_mask(state)
        trick = state.trick
        if not legal & (legal - 1):
            card = (legal & -legal).bit_length() - 1
        else:
            hand = state.hands[seat]
            context.seat = seat
            context.hand = hand
            context.legal = legal
            context.others = FULL_DECK & ~played & ~hand
            if trick:
                context.trick_seats = _TRICK_SEATS[state.leader][len(trick)]
                context.led_suit = state.led_suit
                context.best_seat = state.best_seat
                context.best_card = best_card_of(state)
            else:
                context.trick_seats = ()
                context.led_suit = -1
                context.best_seat = -1
                context.best_card = -1
            card = choose_card(context)
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


def board_score_difference(state: HandState, team: int, lump_free: Rules) -> int:
    """``team``'s board points minus the opponents' (``scoring.core.board_score``): from
    0 to 0, each bag at its prorated cost (-9 net under the standard bag penalty), as a
    duplicate board is scored. ``lump_free`` is ``board_score.unpenalised(state.rules)``,
    computed once per search."""
    rules = state.rules
    mine = board_points(rules, team, state.bids, state.blind, state.tricks_won, lump_free)
    theirs = board_points(rules, 1 - team, state.bids, state.blind, state.tricks_won, lump_free)
    return mine - theirs
