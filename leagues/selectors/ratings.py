"""A player's rating history in one pool: each rated match that moved it (before and
after), with the competition it was played in, the partner and the opponents by
username. Read from the ratings projection's history rows (``RatingChange``)."""

from __future__ import annotations

from typing import Any

from leagues.core.errors import LeagueError
from leagues.domain.pools import SITE_POOL
from leagues.models import Competition, PlayerRating, RatedResult, RatingChange

from .players import usernames_of

# The most recent matches one read returns (a page of the chart); `before` pages back.
MAX_HISTORY = 200
MAX_PLAYER = 20


def _ordinal(mu: float, sigma: float) -> float:
    return mu - 3.0 * sigma


def parse_player(player: object) -> str:
    """A player as the ratings know them: a user id (digits)."""
    if not (
        isinstance(player, str)
        and player.isascii()
        and player.isdecimal()
        and 0 < len(player) <= MAX_PLAYER
    ):
        raise LeagueError("invalid", "A player is named by their user id (a whole number).")
    return player


def rating_history(
    player: str, *, pool: str = SITE_POOL, limit: int = MAX_HISTORY, before: int | None = None
) -> dict[str, Any]:
    """The player's last ``limit`` rated matches in ``pool`` (before log position
    ``before``, when given), oldest first; ``earlier`` is the position to ask for the
    page before this one (null: this page starts at the first match)."""
    player = parse_player(player)
    if not 1 <= limit <= MAX_HISTORY:
        raise LeagueError("invalid", f"limit is a whole number from 1 to {MAX_HISTORY}.")
    rows = RatingChange.objects.filter(pool=pool, player=player)
    if before is not None:
        rows = rows.filter(position__lt=before)
    page = list(rows.order_by("-position", "-result_key")[: limit + 1])
    earlier = page[limit - 1].position if len(page) > limit else None
    changes = page[:limit][::-1]
    results = {
        r.result_key: r
        for r in RatedResult.objects.filter(
            pool=pool, result_key__in=[c.result_key for c in changes]
        )
    }
    competition_ids = {c.result_key.split(":", 1)[0] for c in changes}
    competitions = {
        str(row["id"]): row
        for row in Competition.objects.filter(id__in=competition_ids).values(
            "id", "name", "season", "division"
        )
    }
    people: set[str] = {player}
    for result in results.values():
        people.update(result.north_south, result.east_west)
    names = usernames_of(people)
    current = PlayerRating.objects.filter(pool=pool, player=player).first()
    return {
        "pool": pool,
        "player": player,
        "username": names.get(player),
        "rating": None
        if current is None
        else {
            "mu": current.mu,
            "sigma": current.sigma,
            "ordinal": current.ordinal,
            "matches": current.matches,
        },
        "matches": [
            _match(change, results.get(change.result_key), competitions) for change in changes
        ],
        "earlier": earlier,
        # user id -> username of everyone named (an erased account is left out).
        "names": names,
    }


def _match(
    change: RatingChange,
    result: RatedResult | None,
    competitions: dict[str, dict[str, Any]],
) -> dict[str, Any]:
    competition_id, _, result_id = change.result_key.partition(":")
    competition = competitions.get(competition_id, {})
    side, partner, opponents, outcome = None, None, [], None
    if result is not None:
        side = "north_south" if change.player in result.north_south else "east_west"
        own = result.north_south if side == "north_south" else result.east_west
        other = result.east_west if side == "north_south" else result.north_south
        partner = next((p for p in own if p != change.player), None)
        opponents = list(other)
        outcome = "draw" if result.winner is None else ("won" if result.winner == side else "lost")
    before = _ordinal(change.mu_before, change.sigma_before)
    after = _ordinal(change.mu_after, change.sigma_after)
    return {
        "position": change.position,
        "competition_id": competition_id,
        "competition": competition.get("name", ""),
        "season": competition.get("season"),
        "division": competition.get("division"),
        "result_id": result_id,
        "side": side,
        "partner": partner,
        "opponents": opponents,
        "outcome": outcome,
        "before": {"mu": change.mu_before, "sigma": change.sigma_before, "ordinal": before},
        "after": {"mu": change.mu_after, "sigma": change.sigma_after, "ordinal": after},
        "change": after - before,
    }
