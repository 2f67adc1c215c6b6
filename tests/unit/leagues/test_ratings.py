"""Ratings: Plackett-Luce per player, partners as a team, deterministic order."""

from __future__ import annotations

import math

from leagues.core.entrants import Entrant
from leagues.core.ratings import (
    DEFAULT_MU,
    DEFAULT_SIGMA,
    RatedMatch,
    rate,
    rated_matches,
    seeding_ratings,
    team_ordinal,
)
from leagues.core.results import MatchResult

ENTRANTS = [Entrant("A", ("a1", "a2")), Entrant("B", ("b1", "b2")), Entrant("C", ("c1", "c2"))]


def test_winners_rise_partners_move_together_and_order_is_fixed() -> None:
    matches = [
        RatedMatch("m1", 1, ("a1", "a2"), ("b1", "b2"), "north_south"),
        RatedMatch("m2", 2, ("c1", "c2"), ("a1", "a2"), "east_west"),
    ]
    ratings = rate(matches)
    assert ratings["a1"].mu > DEFAULT_MU > ratings["b1"].mu
    assert ratings["a1"].mu == ratings["a2"].mu and ratings["a1"].matches == 2
    assert ratings["a1"].sigma < DEFAULT_SIGMA
    assert rate(matches[::-1]) == ratings


def test_skipped_results_and_the_team_ordinal() -> None:
    results = [
        MatchResult("r1", 1, 1, "A", "B", 500, 300, "north_south", 1),
        MatchResult("r2", 1, 2, "C", "A", 0, 0, "north_south", 2, forfeited_by="east_west"),
        MatchResult("r3", 2, 1, "B", "C", 500, 100, "north_south", 3, bot_substitute=True),
        MatchResult("r4", 2, 2, "A", "C", 500, 100, "north_south", 4, rated=False),
    ]
    assert [m.id for m in rated_matches(results, ENTRANTS)] == ["r1"]
    ratings = rate(rated_matches(results, ENTRANTS))
    a1, a2 = ratings["a1"], ratings["a2"]
    expected = a1.mu + a2.mu - 3 * math.sqrt(a1.sigma**2 + a2.sigma**2)
    assert math.isclose(team_ordinal(ratings, ("a1", "a2")), expected)
    seeds = seeding_ratings(ENTRANTS, ratings)
    assert seeds["A"] > seeds["C"] > seeds["B"]
    # A new partnership: 2x25 - 3·sqrt(2)·25/3 = 50 - 25·sqrt(2) ≈ 14.645, in thousandths.
    assert seeds["C"] == round((50 - 25 * math.sqrt(2)) * 1000) == 14645
