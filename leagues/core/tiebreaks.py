"""Tie-breaks: each a number per entrant, larger is better (docs/leagues.md defines each).

The standings compute a :class:`Tally` (one list per figure, indexed by entrant) and
ask each declared tie-break, in order, for the entrants still tied.  Most tie-breaks
are global (the same number whatever the group); ``head_to_head`` depends on who is
tied, so it is computed for the group in front of it.

Unplayed rounds (a bye, a late-join award, a forfeit either way) count, for Buchholz
and Sonneborn-Berger, as a match against a *virtual opponent* holding the entrant's
own final match points (the FIDE 2023 rule for unplayed games); an opponent that
withdrew counts with the match points it had when it left.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from .errors import LeagueError

HEAD_TO_HEAD = "head_to_head"
LOTS = "lots"


@dataclass(slots=True)
class Tally:
    """Per-entrant figures from the effective results (index = entrant's place in ``ids``).

    ``rounds[i]`` lists ``(opponent index or -1 for a virtual opponent, match points
    earned)`` for every round entrant ``i`` has a result or an award in;
    ``meetings[i]`` maps an opponent index to the match points ``i`` earned against it
    in matches played or forfeited between them; ``as_opponent[i]`` is the score ``i``
    counts with as someone's opponent: its match points, or, withdrawn, those it had
    when it left.
    """

    ids: list[str]
    match_points: list[int]
    game_points: list[int]
    game_points_against: list[int]
    wins: list[int]
    draws: list[int]
    losses: list[int]
    byes: list[int]
    played: list[int]
    rounds: list[list[tuple[int, int]]]
    meetings: list[dict[int, int]]
    as_opponent: list[int]
    cache: dict[str, list[int]] = field(default_factory=dict)


def _point_differential(tally: Tally) -> list[int]:
    return [f - a for f, a in zip(tally.game_points, tally.game_points_against, strict=True)]


def _game_points(tally: Tally) -> list[int]:
    return list(tally.game_points)


def _wins(tally: Tally) -> list[int]:
    return list(tally.wins)


def _opponent_scores(tally: Tally, index: int) -> list[int]:
    own = tally.match_points[index]
    points = tally.as_opponent
    return [own if opponent < 0 else points[opponent] for opponent, _ in tally.rounds[index]]


def _buchholz(tally: Tally) -> list[int]:
    return [sum(_opponent_scores(tally, index)) for index in range(len(tally.ids))]


def _buchholz_cut1(tally: Tally) -> list[int]:
    values = []
    for index in range(len(tally.ids)):
        scores = _opponent_scores(tally, index)
        values.append(sum(scores) - min(scores) if scores else 0)
    return values


def _sonneborn_berger(tally: Tally) -> list[int]:
    points = tally.as_opponent
    values = []
    for index, rounds in enumerate(tally.rounds):
        own = tally.match_points[index]
        values.append(
            sum(earned * (own if opponent < 0 else points[opponent]) for opponent, earned in rounds)
        )
    return values


GLOBAL_TIEBREAKS: dict[str, Callable[[Tally], list[int]]] = {
    "point_differential": _point_differential,
    "game_points": _game_points,
    "buchholz": _buchholz,
    "buchholz_cut1": _buchholz_cut1,
    "sonneborn_berger": _sonneborn_berger,
    "wins": _wins,
}
TIEBREAK_NAMES: tuple[str, ...] = (HEAD_TO_HEAD, *GLOBAL_TIEBREAKS, LOTS)
DEFAULT_TIEBREAKS: tuple[str, ...] = (
    HEAD_TO_HEAD,
    "buchholz",
    "sonneborn_berger",
    "point_differential",
    "wins",
    LOTS,
)
MAX_TIEBREAKS = 16


def check_tiebreaks(names: Sequence[str]) -> tuple[str, ...]:
    """The declared tie-breaks, with the draw of lots last (added when missing).

    Refuses an unknown name (listing the valid ones), a repeated global tie-break and
    ``lots`` anywhere but last; ``head_to_head`` may be repeated (it then re-applies to
    the groups the tie-breaks before it left).
    """
    if len(names) > MAX_TIEBREAKS:
        raise LeagueError(
            "too_many_tiebreaks", f"A competition declares at most {MAX_TIEBREAKS} tie-breaks."
        )
    checked: list[str] = []
    for position, name in enumerate(names):
        if name not in TIEBREAK_NAMES:
            raise LeagueError(
                "unknown_tiebreak",
                f"{name!r} is not a tie-break; the tie-breaks are {', '.join(TIEBREAK_NAMES)}.",
            )
        if name == LOTS and position != len(names) - 1:
            raise LeagueError(
                "lots_not_last",
                "lots (the seeded draw) orders everyone and must be the last tie-break.",
            )
        if name != HEAD_TO_HEAD and name in checked:
            raise LeagueError(
                "repeated_tiebreak", f"{name!r} is declared twice; it would change nothing."
            )
        checked.append(name)
    if not checked or checked[-1] != LOTS:
        checked.append(LOTS)
    return tuple(checked)


def global_values(tally: Tally, name: str) -> list[int]:
    """A global tie-break's value for every entrant (computed once per tally)."""
    found = tally.cache.get(name)
    if found is None:
        found = tally.cache[name] = GLOBAL_TIEBREAKS[name](tally)
    return found


def head_to_head(tally: Tally, group: Sequence[int]) -> dict[int, int]:
    """Match points each member of ``group`` earned against the other members."""
    members = set(group)
    return {
        index: sum(
            earned for opponent, earned in tally.meetings[index].items() if opponent in members
        )
        for index in group
    }
