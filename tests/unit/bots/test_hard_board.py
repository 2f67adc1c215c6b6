"""Hard on a duplicate board (hard-3): its search scores a playout as the board is scored,
and the earlier revisions still play exactly as they did."""

from __future__ import annotations

import hashlib
import math
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bots.strategies.hard import BOARD, GAME, HardStrategy
from bots.strategies.registry import (
    board_strategy,
    exact_strategy_of_version,
    get_strategy,
    strategy_of_version,
)
from bots.strategies.rollout import board_score_difference, score_difference
from bots.strategies.selfplay import (
    apply_decision,
    play_deal,
    play_hand,
    play_level,
    play_version,
)
from games.engine.deal import deal_deck, shuffled_deck
from games.engine.hand import COMPLETE, PLAYING, HandState, new_hand
from games.engine.rules import PRESETS, Rules
from games.engine.seats import EAST_WEST, NORTH_SOUTH
from games.engine.view import seat_view
from leagues.core.duplicate.board_scoring import score_board
from leagues.core.duplicate.boards import derive_boards
from leagues.core.duplicate.par import play_seed
from scoring.core.board_score import BAG_SHARE, unpenalised
from tests.unit.bots.test_properties import table_rules

STANDARD = PRESETS["standard"]


def _normal_hand(rules: Rules, seed: int) -> HandState:
    dealer = seed & 3
    state = new_hand(rules, deal_deck(shuffled_deck(seed, 1), dealer), dealer)
    return play_hand(state, [get_strategy("normal")] * 4, seed)


@settings(max_examples=60, deadline=None)
@given(rules=table_rules(), seed=st.integers(0, 10**9))
def test_a_playout_is_worth_what_board_scoring_says(rules: Rules, seed: int) -> None:
    state = _normal_hand(rules, seed)
    assert state.phase == COMPLETE
    board = score_board(rules, state.bids, state.blind, state.tricks_won)
    lump_free = unpenalised(rules)
    assert board_score_difference(state, NORTH_SOUTH, lump_free) == board.net
    assert board_score_difference(state, EAST_WEST, lump_free) == -board.net


def _made_contracts(bags_ns: int) -> HandState:
    """A finished hand's public result: North-South bid 3 + 3, East-West 2 + 2, and
    North-South took ``6 + bags_ns`` tricks (East-West the rest: ``3 - bags_ns`` bags)."""
    state = HandState.__new__(HandState)
    state.rules = STANDARD
    state.bids = [3, 2, 3, 2]
    state.blind = [False] * 4
    ns = 6 + bags_ns
    state.tricks_won = [ns - 3, 2, 3, 13 - ns - 2]
    return state


def test_a_bag_costs_on_a_board_its_prorated_share_not_one_point() -> None:
    # Trading one trick between two made contracts moves a bag from one side to the
    # other: +2 for the side that takes it in a running game from 0 bags, -2 x 9 on a
    # board (each bag +1, less its share of the 100-point penalty for ten).
    lump_free = unpenalised(STANDARD)
    fewer, more = _made_contracts(1), _made_contracts(2)
    board_step = board_score_difference(more, NORTH_SOUTH, lump_free) - board_score_difference(
        fewer, NORTH_SOUTH, lump_free
    )
    assert BAG_SHARE == 10
    assert board_step == 2 * (1 - BAG_SHARE) == -18
    game_step = score_difference(more, NORTH_SOUTH, (0, 0), (0, 0)) - score_difference(
        fewer, NORTH_SOUTH, (0, 0), (0, 0)
    )
    assert game_step == 2
    board = score_board(STANDARD, more.bids, more.blind, more.tricks_won)
    assert board.north_south.bag_cost == 2 * BAG_SHARE
    # Without the bag penalty a bag is a point on a board too.
    free = replace(STANDARD, bag_penalty=False)
    more.rules = fewer.rules = free
    no_penalty = unpenalised(free)
    assert (
        board_score_difference(more, NORTH_SOUTH, no_penalty)
        - board_score_difference(fewer, NORTH_SOUTH, no_penalty)
        == 2
    )


def test_the_board_revision_is_hard_3_and_a_running_game_keeps_hard_2() -> None:
    assert board_strategy("hard").version == "hard-3"
    assert get_strategy("hard").version == "hard-2"
    assert board_strategy("normal") is get_strategy("normal")
    assert board_strategy("easy") is get_strategy("easy")
    hard_3 = strategy_of_version("hard-3")
    assert isinstance(hard_3, HardStrategy) and hard_3.scoring == BOARD
    for version in ("hard-1", "hard-2"):
        kept = strategy_of_version(version)
        assert isinstance(kept, HardStrategy) and kept.scoring == GAME
    exact = exact_strategy_of_version("hard-2")
    assert isinstance(exact, HardStrategy) and exact.time_limit_ms == math.inf
    assert exact_strategy_of_version("hard-9") is None
    with pytest.raises(ValueError):
        play_version(STANDARD, [0, 0, 0, 0], 0, "hard-9", 1)
    with pytest.raises(ValueError):
        HardStrategy(revision=4)


def test_hard_3_plays_the_board_whatever_the_running_score() -> None:
    # The board starts at 0 to 0 whatever the table's game says: the same view with
    # other running totals and bags gives the same card (hard-2's may differ: it plays
    # the running game).
    small = HardStrategy(
        playout_budget=800, min_samples=4, max_samples=8, time_limit_ms=math.inf, revision=3
    )
    board = derive_boards("hard-3-running-score", 1)[0]
    state = new_hand(STANDARD, list(board.hands), board.dealer)
    normal = get_strategy("normal")
    checked = 0
    while state.phase != COMPLETE:
        seat = state.turn
        if state.phase == PLAYING and len(state.plays) % 5 == 1:
            plain = small.decide(seat_view(state, seat, (0, 0), (0, 0)), 11)
            busy = small.decide(seat_view(state, seat, (420, -80), (8, 9)), 11)
            assert plain == busy
            checked += 1
        apply_decision(state, seat, normal.decide(seat_view(state, seat), 0))
    assert checked >= 5


def _digest(plays: list[int]) -> str:
    return hashlib.sha256(",".join(map(str, plays)).encode()).hexdigest()[:16]


def test_hard_2_plays_exactly_as_before_hard_3() -> None:
    # Recorded with the code before hard-3 existed (a par play at the full budget, and
    # two hands in a running game with bags near the penalty at a small budget): a
    # par or a move recorded under hard-2 replays the same.
    boards = derive_boards("hard-2-golden", 3)
    first = boards[0]
    par_play = play_level(STANDARD, first.hands, first.dealer, "hard", play_seed(first.seed, 1))
    assert (par_play.bids, par_play.tricks_won) == ([0, 4, 4, 2], [0, 4, 7, 2])
    assert _digest(par_play.plays) == "5747a75531eabcc6"
    again = play_version(STANDARD, first.hands, first.dealer, "hard-2", play_seed(first.seed, 1))
    assert again.plays == par_play.plays
    small = HardStrategy(playout_budget=1500, time_limit_ms=math.inf, revision=2)
    expected = {
        2: ([0, 1, 4, 7], [0, 3, 5, 5], "3f2cabc0bc24c7bb"),
        3: ([6, 1, 2, 0], [5, 2, 3, 3], "bad7e15d43bb7106"),
    }
    for board in boards[1:]:
        state = play_hand(
            new_hand(STANDARD, list(board.hands), board.dealer), [small] * 4, 7, (310, 240), (8, 3)
        )
        assert (state.bids, state.tricks_won, _digest(state.plays)) == expected[board.number]


def test_hard_3_par_play_is_exact_and_differs_from_hard_2_only_in_card_play() -> None:
    board = derive_boards("hard-2-golden", 1)[0]
    seed = play_seed(board.seed, 1)
    first = play_version(STANDARD, board.hands, board.dealer, "hard-3", seed)
    exact = exact_strategy_of_version("hard-3")
    assert exact is not None
    again = play_deal(STANDARD, board.hands, board.dealer, [exact] * 4, seed)
    assert first.plays == again.plays
    old = play_version(STANDARD, board.hands, board.dealer, "hard-2", seed)
    assert first.bids == old.bids  # both bid as normal-2
