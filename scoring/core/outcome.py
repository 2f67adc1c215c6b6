"""Who has won after a hand: the target score, the optional losing score, ties."""

from __future__ import annotations

from games.engine.rules import Rules


def winner_after_hand(rules: Rules, totals: tuple[int, int]) -> int | None:
    """The winning team index after a hand, or ``None`` when play goes on.

    A team at or above ``target_score`` wins; when both are, the higher wins.
    With ``lose_score`` set, a team at or below it loses.  An exact tie that
    would decide the game means one more hand.
    """
    first, second = totals
    reached = (first >= rules.target_score, second >= rules.target_score)
    if rules.lose_score is not None:
        lost = (first <= rules.lose_score, second <= rules.lose_score)
    else:
        lost = (False, False)
    if not any(reached) and not any(lost):
        return None
    if first == second:
        return None
    if reached[0] != reached[1]:
        return 0 if reached[0] else 1
    if reached[0] and reached[1]:
        return 0 if first > second else 1
    if lost[0] and lost[1]:
        return 0 if first > second else 1
    return 1 if lost[0] else 0
