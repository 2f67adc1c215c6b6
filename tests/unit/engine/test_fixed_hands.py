"""A game of a fixed number of hands (``Rules.hands``) and its tie-break (``extra_hands``):
bounded like every rule, over after hand N (the target ends nothing), level totals a draw
or extra hands one at a time, and every replay and rescoring follows the same rule."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine.errors import IllegalMove
from games.engine.rules import MAX_EXTRA_HANDS, MAX_HANDS, Rules, RulesError, rules_from_spec
from scoring.core.outcome import GameEnd, game_end
from scoring.core.replay import ReplayMode, rescore_hands
from tests.unit.engine.random_play import play_random_game


def test_hands_are_bounded_and_named_in_every_refusal() -> None:
    assert rules_from_spec({"hands": 1}).hands == 1
    assert rules_from_spec({"hands": MAX_HANDS, "extra_hands": MAX_EXTRA_HANDS}).hands == 100
    with pytest.raises(RulesError, match=r"^hands must be 1 or more"):
        rules_from_spec({"hands": 0})
    with pytest.raises(RulesError, match=rf"^hands must be at most {MAX_HANDS} \("):
        rules_from_spec({"hands": MAX_HANDS + 1})
    with pytest.raises(RulesError, match=r"^hands must be a whole number"):
        rules_from_spec({"hands": "8"})
    with pytest.raises(RulesError, match=rf"^extra_hands must be at most {MAX_EXTRA_HANDS} \("):
        rules_from_spec({"hands": 2, "extra_hands": MAX_EXTRA_HANDS + 1})
    with pytest.raises(RulesError, match=r"^extra_hands breaks a tie after a fixed number"):
        rules_from_spec({"extra_hands": 1})
    with pytest.raises(RulesError, match=r"^extra_hands must be true|^extra_hands must be a"):
        rules_from_spec({"hands": 2, "extra_hands": True})


def test_the_game_end_of_a_fixed_number_of_hands() -> None:
    two = Rules(hands=2, target_score=50)
    assert game_end(two, (300, 0), 1, (13, 0)) is None  # past the target: it ends nothing
    assert game_end(two, (10, 40), 2, (5, 8)) == GameEnd(1)
    assert game_end(two, (40, 40), 2, (5, 8)) == GameEnd(None)  # a draw
    extra = Rules(hands=2, extra_hands=2)
    assert game_end(extra, (40, 40), 2, (5, 8)) is None  # one more hand
    assert game_end(extra, (40, 41), 3, (5, 8)) == GameEnd(1)
    assert game_end(extra, (41, 41), 3, (5, 8)) is None
    # Still level after the last extra hand: the side with more of its 13 tricks.
    assert game_end(extra, (50, 50), 4, (7, 6)) == GameEnd(0)
    assert game_end(extra, (50, 50), 4, (6, 7)) == GameEnd(1)
    # A game to the target is as it always was.
    assert game_end(Rules(target_score=100), (100, 20), 1, (13, 0)) == GameEnd(0)
    assert game_end(Rules(target_score=100), (100, 100), 3, (13, 0)) is None


@settings(max_examples=60, deadline=None)
@given(
    hands=st.integers(min_value=1, max_value=4),
    extra=st.sampled_from([0, 0, 1, 3]),
    target=st.sampled_from([10, 50, 500]),
    seed=st.integers(min_value=0, max_value=10**6),
)
def test_a_fixed_hands_game_is_over_after_hand_n(
    hands: int, extra: int, target: int, seed: int
) -> None:
    rules = Rules(hands=hands, extra_hands=extra, target_score=target, lose_score=-10)
    game = play_random_game(rules, random.Random(seed), str(seed), max_hands=hands + extra + 2)
    ledger = game.ledger
    assert game.finished
    totals = ledger.totals
    if totals[0] != totals[1] or extra == 0:
        # Over at hand N exactly unless extra hands broke a tie; a draw only without them.
        assert ledger.finished_after_hand == len(game.hands)
        assert hands <= len(game.hands) <= hands + extra
    if ledger.winner is None:
        assert extra == 0 and totals[0] == totals[1] and len(game.hands) == hands
    elif totals[0] != totals[1]:
        assert ledger.winner == (0 if totals[0] > totals[1] else 1)
    # Level after every hand from N on, until the one that decided it.
    for result in ledger.hands[hands - 1 : -1]:
        assert result.teams[0].total == result.teams[1].total
    with pytest.raises(IllegalMove, match="The game is over"):
        game.deal(list(range(52)))


def test_replay_and_rescoring_follow_the_hands_rule() -> None:
    # Three hands played under the Standard rules, rescored as a game of 2 hands: the
    # game ends after hand 2 and the third is left unscored, as a replay says it.
    played = play_random_game(Rules(), random.Random(7), "seven", max_hands=3)
    assert len(played.hands) == 3
    replay = rescore_hands(played.hands, Rules(hands=2), ReplayMode.FLAG_AND_GO_ON)
    assert replay.game.ledger.finished_after_hand == 2
    assert replay.hands_after_end == 1
    totals = [played.ledger.hands[1].teams[t].total for t in (0, 1)]
    assert replay.game.ledger.totals == totals
    # And a game of 2 hands under Standard plays on: nothing was over at hand 2.
    back = rescore_hands(replay.game.hands, Rules(), ReplayMode.FLAG_AND_GO_ON)
    assert back.hands_after_end == 0
