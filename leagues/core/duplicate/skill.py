"""The duplicate skill rating: learnt board by board from results against par and field.

Each partnership has a skill ``mu`` in IMPs per board, measured from the par level
(0: plays like the pinned computer level that made the par; +1: gains one IMP a board on
it), and an uncertainty ``sigma``. After every board, each table that played it gives one
observation for its North-South partnership against its East-West one:

    baseline = (w * par_net + sum of the other tables' nets) / (w + others)
    y        = IMPs(net - baseline)

``w`` (:attr:`SkillModel.par_weight`, 2) is how many tables par counts for: par anchors the
scale (a rating means the same in a field of two tables and of fifty) and the field
cancels what par misjudges on a board (its bots' own luck, a freak board). Without a par
yet, the baseline is the field's; a table alone with no par teaches nothing.

The model: ``y = (mu_NS - mu_EW) - (sum over the other tables of mu_NS' - mu_EW') /
(w + others) + noise``, the noise normal with spread ``beta`` IMPs. This is a Kalman
(Glicko-like, Gaussian) update of the two partnerships at the table:

    predicted = (mu_NS - mu_EW) - (sum of the others' mu_NS' - mu_EW') / (w + others)
    S = sigma_NS^2 + sigma_EW^2 + beta^2
    mu_NS += sigma_NS^2 / S * (y - predicted);   mu_EW -= sigma_EW^2 / S * (y - predicted)
    sigma^2 *= 1 - sigma^2 / S;   then sigma^2 += tau^2   (skill may drift)

Predictions use the ratings as they stood before the board, so the order of a board's
tables does not matter; boards are applied in the order played (round, board). Why not
matchpoints: a matchpoint says who beat whom on the board but not by how much, and in a
small field (a team match's two tables) it is nearly a coin; IMPs against a par-anchored
baseline keep the size of the difference while the capped, logarithmic table stops a
single wild board from dominating. Why per board and not per match: a season of 8
fixed-hands matches is 64 boards of information and only 8 results; the benchmark
(benchmarks/duplicate.py) measures what that buys.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from .board_scoring import imps


@dataclass(frozen=True, slots=True)
class SkillModel:
    """The rating's constants (docs/leagues.md, "Duplicate")."""

    beta: float = 4.0  # IMPs: the spread of one table's result with the skills known
    tau: float = 0.05  # IMPs per board: how far a skill may drift between boards
    sigma0: float = 2.0  # IMPs: a new partnership's uncertainty
    par_weight: int = 2  # par counts as this many tables in the baseline


DEFAULT_MODEL = SkillModel()


@dataclass(frozen=True, slots=True)
class Skill:
    """One partnership's duplicate skill."""

    mu: float = 0.0
    sigma: float = DEFAULT_MODEL.sigma0
    boards: int = 0

    @property
    def conservative(self) -> float:
        """``mu - 2 sigma``: the rating a ranking of uncertain newcomers uses."""
        return self.mu - 2.0 * self.sigma

    def as_dict(self) -> dict[str, Any]:
        return {"mu": self.mu, "sigma": self.sigma, "boards": self.boards}


@dataclass(frozen=True, slots=True)
class TableOnBoard:
    """One table's result on a board: who sat which way, and the net (NS minus EW)."""

    north_south: str
    east_west: str
    net: int


def _baseline(
    others: Sequence[int], par_net: Fraction | None, weight: int
) -> tuple[Fraction, int] | None:
    par_weight = 0 if par_net is None else weight
    divisor = par_weight + len(others)
    if divisor == 0:
        return None
    total = Fraction(sum(others))
    if par_net is not None:
        total += par_weight * par_net
    return total / divisor, divisor


def update_board(
    ratings: Mapping[str, Skill],
    tables: Sequence[TableOnBoard],
    par_net: Fraction | None,
    model: SkillModel = DEFAULT_MODEL,
) -> dict[str, Skill]:
    """The ratings after one board (a new mapping; partnerships not yet rated start new)."""
    before = dict(ratings)
    fresh = Skill(sigma=model.sigma0)
    for table in tables:
        before.setdefault(table.north_south, fresh)
        before.setdefault(table.east_west, fresh)
    after = dict(before)
    for index, table in enumerate(tables):
        others = [t for i, t in enumerate(tables) if i != index]
        base = _baseline([t.net for t in others], par_net, model.par_weight)
        if base is None:
            continue
        baseline, divisor = base
        observed = float(imps(table.net - baseline))
        ns, ew = before[table.north_south], before[table.east_west]
        field = sum(before[t.north_south].mu - before[t.east_west].mu for t in others)
        predicted = (ns.mu - ew.mu) - field / divisor
        spread = ns.sigma**2 + ew.sigma**2 + model.beta**2
        surprise = observed - predicted
        after[table.north_south] = _moved(ns, +surprise, spread, model)
        after[table.east_west] = _moved(ew, -surprise, spread, model)
    return after


def _moved(skill: Skill, surprise: float, spread: float, model: SkillModel) -> Skill:
    variance = skill.sigma**2
    gain = variance / spread
    variance = variance * (1.0 - gain) + model.tau**2
    return replace(
        skill, mu=skill.mu + gain * surprise, sigma=math.sqrt(variance), boards=skill.boards + 1
    )


def rate(
    boards: Iterable[tuple[Sequence[TableOnBoard], Fraction | None]],
    model: SkillModel = DEFAULT_MODEL,
    ratings: Mapping[str, Skill] | None = None,
) -> dict[str, Skill]:
    """Fold boards ``(tables, par_net)`` in the order played into ratings."""
    current: dict[str, Skill] = dict(ratings or {})
    for tables, par_net in boards:
        current = update_board(current, tables, par_net, model)
    return current
