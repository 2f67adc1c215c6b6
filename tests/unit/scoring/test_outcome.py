from __future__ import annotations

import pytest

from games.engine.rules import Rules
from scoring.core.outcome import winner_after_hand

TO_500 = Rules()
LOSE_AT_MINUS_200 = Rules(lose_score=-200)
NS, EW = 0, 1


@pytest.mark.parametrize(
    ("rules", "totals", "winner"),
    [
        (TO_500, (499, 300), None),
        (TO_500, (500, 300), NS),  # at the target wins
        (TO_500, (300, 512), EW),
        (TO_500, (540, 520), NS),  # both over: the higher wins
        (TO_500, (505, 530), EW),
        (TO_500, (520, 520), None),  # exact tie over the target: another hand
        (TO_500, (-900, 10), None),  # no losing score: play on
        (Rules(target_score=200), (200, 0), NS),
        (LOSE_AT_MINUS_200, (-200, 50), EW),  # at the losing score loses
        (LOSE_AT_MINUS_200, (50, -250), NS),
        (LOSE_AT_MINUS_200, (-199, 50), None),
        (LOSE_AT_MINUS_200, (-210, -300), NS),  # both below: the higher wins
        (LOSE_AT_MINUS_200, (-250, -250), None),  # tie below: another hand
        (LOSE_AT_MINUS_200, (510, -300), NS),
    ],
)
def test_the_game_ends_as_the_seeds_say(
    rules: Rules, totals: tuple[int, int], winner: int | None
) -> None:
    assert winner_after_hand(rules, totals) == winner
