"""Ratings pools: which ratings a result moves, and which a competition is seeded from.

Ratings are kept per pool (``leagues.projections``, ``league_rating_pools``):

- the **site pool** (``"site"``), the public ``/api/ratings``: only consented, played
  results feed it: a match played at one of the competition's tables by the entrants'
  own players (no bot in a seat), or a typed-in result a player of each side confirmed
  (``MatchResult.rated``);
- a **league's pool** (``"league:<uuid>"``): every match played (no forfeit, no bot) in
  the competitions of that league, confirmed or not: the league's organisers vouch for
  the results they type in, for the league's own ratings.

Beside the pools, the **duplicate skill** (``"skill"``, the ``league_duplicate_skill``
projection) is read through the same ratings API: another scale (IMPs per board from
par), learnt per board from the duplicate boards of the results the site pool takes.

A competition is seeded from its league's pool when it is in a league (a player with no
rating there from the site pool), from the site pool otherwise.
"""

from __future__ import annotations

import uuid

from leagues.core.results import MatchResult

from .parsing import refuse
from .settings import CompetitionSettings

SITE_POOL = "site"
# Not an openskill pool: the duplicate skill rating, read beside them (never seeds).
SKILL_POOL = "skill"
LEAGUE_POOL_PREFIX = "league:"
MAX_POOL = 80


def league_pool(league_id: str) -> str:
    return f"{LEAGUE_POOL_PREFIX}{league_id}"


def parse_pool(value: object) -> str:
    """A pool as the API takes it: ``site`` (also when absent), ``league:<uuid>``, or
    ``skill`` (the duplicate skill rating)."""
    if value is None or value == SITE_POOL:
        return SITE_POOL
    if value == SKILL_POOL:
        return SKILL_POOL
    if isinstance(value, str) and value.startswith(LEAGUE_POOL_PREFIX):
        try:
            return league_pool(str(uuid.UUID(value[len(LEAGUE_POOL_PREFIX) :])))
        except ValueError:
            pass
    raise refuse("invalid", "pool is site, skill, or league:<league id>.")


def pools_fed(settings: CompetitionSettings, result: MatchResult) -> list[str]:
    """The pools ``result`` (an effective result of the competition) moves, as it stands."""
    if not result.played or result.bot_substitute or settings.bots_play:
        return []
    pools = [league_pool(settings.league_id)] if settings.league_id else []
    if result.rated:
        pools.append(SITE_POOL)
    return pools


def seeding_pools(settings: CompetitionSettings) -> tuple[str, ...]:
    """Where an entrant's seeding rating comes from, first pool with a rating first."""
    if settings.league_id:
        return (league_pool(settings.league_id), SITE_POOL)
    return (SITE_POOL,)
