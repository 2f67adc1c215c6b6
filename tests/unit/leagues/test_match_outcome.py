"""One reading of a finished game as its match's result (``match_outcome``), under the
rules a competition's table plays (``match_rules``): for any finished competition table,
the recorded result and the table's final state never differ, and the result always
passes the match format's checks (a knockout's never ends drawn)."""

from __future__ import annotations

import random

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from games.engine.rules import rules_from_spec
from leagues.core.results import (
    SIDES,
    MatchFormat,
    MatchResult,
    check_result,
    match_outcome,
    match_rules,
)
from tests.unit.engine.random_play import play_random_game


@settings(max_examples=120, deadline=None)
@given(
    fixed=st.sampled_from([None, 1, 2, 3, 4]),
    knockout=st.booleans(),
    preset=st.sampled_from(["standard", "easy", "bicycle"]),
    target=st.sampled_from([50, 100, 200]),
    seed=st.integers(min_value=0, max_value=10**9),
)
def test_a_finished_table_is_its_match_result(
    fixed: int | None, knockout: bool, preset: str, target: int, seed: int
) -> None:
    match_format = MatchFormat(fixed)
    rules = rules_from_spec(
        {
            "preset": preset,
            "target_score": target,
            "lose_score": -target,
            **match_rules(match_format, knockout=knockout),
        }
    )
    game = play_random_game(rules, random.Random(seed), str(seed), max_hands=40)
    assume(game.finished)  # a game to the target may outlast 40 random hands
    ledger = game.ledger
    outcome = match_outcome(
        (ledger.totals[0], ledger.totals[1]), ledger.winner, ledger.finished_after_hand
    )
    assert outcome is not None
    # The result is the table's final state: totals, winner and hands, nothing recomputed.
    assert (outcome.north_south_points, outcome.east_west_points) == tuple(ledger.totals)
    assert outcome.winner == (None if ledger.winner is None else SIDES[ledger.winner])
    assert outcome.hands == len(game.hands) == ledger.finished_after_hand
    if fixed is not None:
        assert fixed <= outcome.hands <= fixed + rules.extra_hands
        assert rules.extra_hands == (10 if knockout else 0)
    # ... and the match format takes it as it is: the competition records what the table says.
    result = MatchResult(
        id="r1-b1",
        round=1,
        board=1,
        north_south="a",
        east_west="b",
        north_south_points=outcome.north_south_points,
        east_west_points=outcome.east_west_points,
        winner=outcome.winner,
    )
    assert check_result(result, match_format, knockout=knockout) == result
    if knockout:
        assert outcome.winner is not None


def test_an_unfinished_game_has_no_result() -> None:
    assert match_outcome((40, 40), None, None) is None
    drawn = match_outcome((40, 40), None, 2)
    assert drawn is not None and drawn.winner is None and drawn.hands == 2


def test_the_match_rules_of_each_format() -> None:
    assert match_rules(MatchFormat(None), knockout=True) == {}
    assert match_rules(MatchFormat(8), knockout=False) == {"hands": 8, "extra_hands": 0}
    assert match_rules(MatchFormat(8), knockout=True) == {"hands": 8, "extra_hands": 10}
