"""The one what-if policy (``scoring.core.replay.comparability``): a game rescored under
other rules is comparable unless a move it played would be refused under them."""

from __future__ import annotations

from games.engine.replay import Refusal
from games.engine.rules import PRESETS
from scoring.core.game import Game
from scoring.core.replay import Comparability, Replay, comparability


def refused(hand: int) -> Refusal:
    return Refusal(hand, "bid", "bid 1", "nil_off", "Nil is not played at this table.")


def test_no_refused_move_is_comparable() -> None:
    verdict = comparability(Replay(PRESETS["standard"], Game(PRESETS["standard"])))
    assert verdict.comparable and verdict.reason is None


def test_the_hands_with_a_refused_move_are_named_in_order() -> None:
    replay = Replay(PRESETS["easy"], Game(PRESETS["easy"]), refusals=(refused(5), refused(2)))
    verdict = comparability(replay)
    assert not verdict.comparable and verdict.refused_hands == (2, 5)
    assert verdict.reason == (
        "Not comparable: hands 2 and 5 have a move these rules refuse, so the play itself "
        "would have been different."
    )
    assert Comparability((3,)).reason == (
        "Not comparable: hand 3 has a move these rules refuse, so the play itself would "
        "have been different."
    )
    assert str(Comparability((1, 2, 4)).reason).startswith("Not comparable: hands 1, 2 and 4 have")
