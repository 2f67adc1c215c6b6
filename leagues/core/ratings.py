"""Ratings: openskill Plackett-Luce per player, partners rated as a team.

Every rated, finished match (played over the table: no forfeit, no bot in a seat)
updates the four players' ratings: the two partners form one team, and the match is a
two-team game ranked by its winner (a draw ranks both teams equal).  Matches are
applied in ``(order, id)`` order, so the same matches always give the same ratings.
A partnership's seeding rating is its team ordinal ``Σμ - 3·√(Σσ²)`` (in thousandths,
a whole number), the ordinal of the team Plackett-Luce itself forms from the two
players (a pessimistic estimate that rises as the partners play and ``σ`` shrinks).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

from .entrants import Entrant
from .results import MatchResult, Side, effective_results

DEFAULT_MU = 25.0
DEFAULT_SIGMA = 25.0 / 3.0


@dataclass(frozen=True, slots=True)
class PlayerRating:
    player: str
    mu: float = DEFAULT_MU
    sigma: float = DEFAULT_SIGMA
    matches: int = 0

    @property
    def ordinal(self) -> float:
        return self.mu - 3.0 * self.sigma


@dataclass(frozen=True, slots=True)
class RatedMatch:
    """Who sat where in a rated match and who won (``None``: a draw)."""

    id: str
    order: int
    north_south: tuple[str, str]
    east_west: tuple[str, str]
    winner: Side | None


def rated_matches(
    results: Iterable[MatchResult],
    entrants: Sequence[Entrant],
    seated: Mapping[str, tuple[tuple[str, str], tuple[str, str]]] | None = None,
) -> list[RatedMatch]:
    """The rated matches among the effective results.

    ``seated`` maps a result id to the players who actually sat (North-South,
    East-West) when a reserve played; otherwise the entrants' two players are used.
    """
    players = {entrant.id: entrant.players for entrant in entrants}
    matches = []
    for result in effective_results(results):
        if not result.rated or not result.played or result.bot_substitute:
            continue
        north, east = (seated or {}).get(
            result.id, (players[result.north_south], players[result.east_west])
        )
        matches.append(RatedMatch(result.id, result.sequence, north, east, result.winner))
    return matches


@dataclass(frozen=True, slots=True)
class RatingChange:
    """One player's rating before and after one rated match (the rating history)."""

    match: str
    order: int
    before: PlayerRating
    after: PlayerRating


def rate(
    matches: Iterable[RatedMatch], start: Mapping[str, PlayerRating] | None = None
) -> dict[str, PlayerRating]:
    """Every player's rating after ``matches`` (from ``start``, or the defaults)."""
    return rate_with_changes(matches, start)[0]


def rate_with_changes(
    matches: Iterable[RatedMatch], start: Mapping[str, PlayerRating] | None = None
) -> tuple[dict[str, PlayerRating], list[RatingChange]]:
    """:func:`rate`, and each player's change at each match, in the order applied."""
    model = PlackettLuce(mu=DEFAULT_MU, sigma=DEFAULT_SIGMA)
    ratings = dict(start or {})
    changes: list[RatingChange] = []
    for match in sorted(matches, key=lambda m: (m.order, m.id)):
        teams = [match.north_south, match.east_west]
        before = [[ratings.get(p, PlayerRating(p)) for p in team] for team in teams]
        model_teams = [[model.rating(mu=r.mu, sigma=r.sigma) for r in team] for team in before]
        if match.winner is None:
            ranks = [0.0, 0.0]
        elif match.winner == "north_south":
            ranks = [0.0, 1.0]
        else:
            ranks = [1.0, 0.0]
        after = model.rate(model_teams, ranks=ranks)
        for team_before, team_after in zip(before, after, strict=True):
            for old, new in zip(team_before, team_after, strict=True):
                rated = PlayerRating(old.player, new.mu, new.sigma, old.matches + 1)
                ratings[old.player] = rated
                changes.append(RatingChange(match.id, match.order, old, rated))
    return ratings, changes


def team_ordinal(ratings: Mapping[str, PlayerRating], players: Sequence[str]) -> float:
    """The partnership's seeding rating: ``Σμ - 3·√(Σσ²)`` over its players."""
    team = [ratings.get(player, PlayerRating(player)) for player in players]
    return sum(r.mu for r in team) - 3.0 * math.sqrt(sum(r.sigma * r.sigma for r in team))


def seeding_ratings(
    entrants: Sequence[Entrant], ratings: Mapping[str, PlayerRating]
) -> dict[str, int]:
    """Each entrant's team ordinal in thousandths, a whole number (engine inputs are
    stored in events, which keep no floats)."""
    return {e.id: round(team_ordinal(ratings, e.players) * 1000) for e in entrants}
