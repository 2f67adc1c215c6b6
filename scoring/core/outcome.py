"""Whether a game is over after a hand, and who won: the target score, the optional
losing score, a fixed number of hands (``Rules.hands``) and its tie-break, ties."""

from __future__ import annotations

from dataclasses import dataclass

from games.engine.rules import Rules


@dataclass(frozen=True, slots=True)
class GameEnd:
    """A game that is over: the winning team index, or ``None`` for a draw (possible only
    in a game of a fixed number of hands without extra hands)."""

    winner: int | None


def game_end(
    rules: Rules, totals: tuple[int, int], hands_played: int, last_hand_tricks: tuple[int, int]
) -> GameEnd | None:
    """Whether the game is over after hand ``hands_played`` (``None``: play goes on).

    ``last_hand_tricks``: the tricks each team took in that hand (they add up to 13).
    A game to the target ends as :func:`winner_after_hand` says. A game of ``hands``
    hands ends after hand ``hands`` with the side ahead the winner; level totals are a
    draw, or, with ``extra_hands``, go on one hand at a time until a side is ahead, and
    after the last extra hand still level the side that took more of its tricks wins.
    """
    if rules.hands is None:
        winner = winner_after_hand(rules, totals)
        return None if winner is None else GameEnd(winner)
    if hands_played < rules.hands:
        return None
    first, second = totals
    if first != second:
        return GameEnd(0 if first > second else 1)
    if rules.extra_hands == 0:
        return GameEnd(None)
    if hands_played < rules.hands + rules.extra_hands:
        return None
    return GameEnd(0 if last_hand_tricks[0] > last_hand_tricks[1] else 1)


def winner_after_hand(rules: Rules, totals: tuple[int, int]) -> int | None:
    """The winning team index after a hand of a game to the target, or ``None`` when
    play goes on.

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
