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

The platform rates players (``update_board_players``): a partnership's skill is the mean of
its two players' (variance ``(sigma_a^2 + sigma_b^2) / 4``), and each player moves by their
covariance with that mean (``sigma_a^2 / 2``) over ``S``; with one player a side it is the
update above, to the bit.

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


@dataclass(frozen=True, slots=True)
class PlayersOnBoard:
    """One table's result on a board with its partnerships as their players: a
    partnership's skill is the mean of its players' (docs/leagues.md)."""

    north_south: tuple[str, ...]
    east_west: tuple[str, ...]
    net: int


def _side(ratings: Mapping[str, Skill], players: Sequence[str]) -> tuple[float, float]:
    """A partnership's ``mu`` and variance from its players': the mean and its variance."""
    count = len(players)
    mu = sum(ratings[p].mu for p in players) / count
    variance = sum(ratings[p].sigma ** 2 for p in players) / (count * count)
    return mu, variance


def update_board(
    ratings: Mapping[str, Skill],
    tables: Sequence[TableOnBoard],
    par_net: Fraction | None,
    model: SkillModel = DEFAULT_MODEL,
) -> dict[str, Skill]:
    """The ratings after one board (a new mapping; partnerships not yet rated start new)."""
    return update_board_players(
        ratings,
        [PlayersOnBoard((t.north_south,), (t.east_west,), t.net) for t in tables],
        par_net,
        model,
    )


def update_board_players(
    ratings: Mapping[str, Skill],
    tables: Sequence[PlayersOnBoard],
    par_net: Fraction | None,
    model: SkillModel = DEFAULT_MODEL,
) -> dict[str, Skill]:
    """The ratings of players after one board: each partnership's skill is the mean of its
    players' (``mu``: their mean; variance: the mean's, ``sum sigma^2 / n^2``), and each
    player moves by their share of the partnership's gain (``sigma_i^2 / n / S``). With
    one "player" per partnership this is the partnership update above, to the bit."""
    before = dict(ratings)
    fresh = Skill(sigma=model.sigma0)
    for table in tables:
        for player in (*table.north_south, *table.east_west):
            before.setdefault(player, fresh)
    after = dict(before)
    for index, table in enumerate(tables):
        others = [t for i, t in enumerate(tables) if i != index]
        base = _baseline([t.net for t in others], par_net, model.par_weight)
        if base is None:
            continue
        baseline, divisor = base
        observed = float(imps(table.net - baseline))
        ns_mu, ns_var = _side(before, table.north_south)
        ew_mu, ew_var = _side(before, table.east_west)
        field = sum(_side(before, t.north_south)[0] - _side(before, t.east_west)[0] for t in others)
        predicted = (ns_mu - ew_mu) - field / divisor
        spread = ns_var + ew_var + model.beta**2
        surprise = observed - predicted
        for players, sign in ((table.north_south, +1.0), (table.east_west, -1.0)):
            for player in players:
                after[player] = _moved(before[player], sign * surprise, spread, len(players), model)
    return after


def _moved(skill: Skill, surprise: float, spread: float, count: int, model: SkillModel) -> Skill:
    variance = skill.sigma**2
    # The player's covariance with the partnership's mean is sigma^2 / count.
    gain = variance / count / spread
    variance = variance * (1.0 - gain / count) + model.tau**2
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
