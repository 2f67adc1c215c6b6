"""An entrant's seeding rating when the organiser gives none: the partnership's team
ordinal from the ratings projection, in the competition's seeding pools
(:func:`leagues.domain.pools.seeding_pools`: its league's first, then the site's),
pinned in the registration event so that re-deriving a pairing never depends on the
ratings as they are later."""

from __future__ import annotations

from collections.abc import Sequence

from leagues.core.entrants import Entrant
from leagues.core.ratings import PlayerRating as Rating
from leagues.core.ratings import seeding_ratings
from leagues.domain.decisions import EntrantRequest
from leagues.domain.pools import SITE_POOL, seeding_pools
from leagues.domain.state import CompetitionState
from leagues.models import PlayerRating


def projected_rating(state: CompetitionState, players: Sequence[str]) -> int:
    """The team ordinal (thousandths) of two players, each rated from the first of the
    competition's seeding pools that rates them."""
    pools = seeding_pools(state.settings) if state.settings is not None else (SITE_POOL,)
    rows = PlayerRating.objects.filter(player__in=list(players), pool__in=pools)
    found = {(row.pool, row.player): row for row in rows}
    ratings: dict[str, Rating] = {}
    for player in players:
        row = next((found[(pool, player)] for pool in pools if (pool, player) in found), None)
        if row is not None:
            ratings[player] = Rating(player, row.mu, row.sigma, row.matches)
    entrant = Entrant(id="seeding", players=(players[0], players[1]))
    return seeding_ratings([entrant], ratings)["seeding"]


def with_seeding(state: CompetitionState, request: EntrantRequest) -> EntrantRequest:
    """The entrant request, its ``rating`` filled from the ratings when not given."""
    if request.rating is not None or request.players is None:
        return request
    return request.with_rating(projected_rating(state, request.players))
