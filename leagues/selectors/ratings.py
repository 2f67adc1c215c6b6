"""A player's rating history in one pool: each rated match that moved it (before and
after), with the competition it was played in, the partner and the opponents by
username. Read from the ratings projection's history rows (``RatingChange``).

The duplicate skill (``pool=skill``) is read here too, from its own projection's rows
(``SkillRating``, ``SkillChange``): the same answers, a board where a pool has a match,
``ordinal`` its conservative ``mu - 2 sigma`` and ``matches`` its boards."""

from __future__ import annotations

from typing import Any

from django.db.models import F

from leagues.core.errors import LeagueError
from leagues.domain.pools import SITE_POOL, SKILL_POOL
from leagues.models import (
    Competition,
    PlayerRating,
    RatedResult,
    RatingChange,
    SkillChange,
    SkillRating,
)

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
    if pool == SKILL_POOL:
        return skill_history(player, limit=limit, before=before)
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
        else _rating(current.mu, current.sigma, current.ordinal, current.matches),
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


# ---------------------------------------------------------------- duplicate skill


def _conservative(mu: float, sigma: float) -> float:
    return mu - 2.0 * sigma


def skill_ratings(players: list[str] | None = None, limit: int = 100) -> list[dict[str, Any]]:
    """The duplicate skill leaderboard, best first by ``mu - 2 sigma`` (ranked in SQL)."""
    query = SkillRating.objects.annotate(rank=F("mu") - 2.0 * F("sigma"))
    if players:
        query = query.filter(player__in=players[:limit])
    rows = list(query.order_by("-rank", "player")[:limit])
    names = usernames_of(r.player for r in rows)
    return [
        {
            "player": r.player,
            "username": names.get(r.player),
            "mu": r.mu,
            "sigma": r.sigma,
            "ordinal": r.conservative,
            "matches": r.boards,
            "boards": r.boards,
        }
        for r in rows
    ]


def skill_history(
    player: str, *, limit: int = MAX_HISTORY, before: int | None = None
) -> dict[str, Any]:
    """The player's last ``limit`` boards that moved their duplicate skill, oldest first
    (``before``: a log position, as for a pool; a round's boards share its position)."""
    rows = SkillChange.objects.filter(player=player)
    if before is not None:
        rows = rows.filter(position__lt=before)
    page = list(rows.order_by("-position", "-board")[: limit + 1])
    earlier = None
    if len(page) > limit:
        # A round's boards share its position and ``before`` pages by position, so a
        # page ends at a round's boundary: the round cut in two is left to the next
        # page (a round longer than the page is shown whole).
        cut = page[limit].position
        kept = [c for c in page[:limit] if c.position != cut]
        if not kept:
            kept = list(rows.filter(position=cut).order_by("-board"))
        page = kept
        if rows.filter(position__lt=kept[-1].position).exists():
            earlier = kept[-1].position
    changes = page[::-1]
    competition_ids = {c.board_key.split(":", 1)[0] for c in changes}
    competitions = {
        str(row["id"]): row
        for row in Competition.objects.filter(id__in=competition_ids).values(
            "id", "name", "season", "division"
        )
    }
    names = usernames_of({player})
    current = SkillRating.objects.filter(player=player).first()
    return {
        "pool": SKILL_POOL,
        "player": player,
        "username": names.get(player),
        "rating": None
        if current is None
        else _rating(current.mu, current.sigma, current.conservative, current.boards),
        "matches": [_board(change, competitions) for change in changes],
        "earlier": earlier,
        "names": names,
    }


def _board(change: SkillChange, competitions: dict[str, dict[str, Any]]) -> dict[str, Any]:
    competition_id, round_number, board = change.board_key.split(":")
    competition = competitions.get(competition_id, {})
    before = _conservative(change.mu_before, change.sigma_before)
    after = _conservative(change.mu_after, change.sigma_after)
    return {
        "position": change.position,
        "competition_id": competition_id,
        "competition": competition.get("name", ""),
        "season": competition.get("season"),
        "division": competition.get("division"),
        "result_id": f"{round_number}:{board}",
        "round": int(round_number),
        "board": int(board),
        "side": None,
        "partner": None,
        "opponents": [],
        "outcome": None,
        "before": {"mu": change.mu_before, "sigma": change.sigma_before, "ordinal": before},
        "after": {"mu": change.mu_after, "sigma": change.sigma_after, "ordinal": after},
        "change": after - before,
    }


def _rating(mu: float, sigma: float, ordinal: float, matches: int) -> dict[str, Any]:
    """A history answer's current rating (a skill rating counts boards as its matches)."""
    return {"mu": mu, "sigma": sigma, "ordinal": ordinal, "matches": matches}
