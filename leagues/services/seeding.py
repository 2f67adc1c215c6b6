"""An entrant's seeding rating when the organiser gives none: the partnership's team
ordinal from the ratings projection (``league_ratings``), pinned in the registration
event so that re-deriving a pairing never depends on the ratings as they are later."""

from __future__ import annotations

from collections.abc import Sequence

from leagues.core.entrants import Entrant
from leagues.core.ratings import PlayerRating as Rating
from leagues.core.ratings import seeding_ratings
from leagues.models import PlayerRating


def projected_rating(players: object) -> int | None:
    """The team ordinal (thousandths) of two players; None for anything but two names
    (the decision then refuses the request with its own message)."""
    if not isinstance(players, list | tuple) or len(players) != 2:
        return None
    if not all(isinstance(player, str) and player for player in players):
        return None
    names: Sequence[str] = [str(player) for player in players]
    ratings = {
        row.player: Rating(row.player, row.mu, row.sigma, row.matches)
        for row in PlayerRating.objects.filter(player__in=names)
    }
    entrant = Entrant(id="seeding", players=(names[0], names[1]))
    return seeding_ratings([entrant], ratings)["seeding"]


def with_seeding(entrant: dict[str, object]) -> dict[str, object]:
    """The entrant request, its ``rating`` filled from the projection when not given."""
    if entrant.get("rating") is not None:
        return entrant
    rating = projected_rating(entrant.get("players"))
    return entrant if rating is None else {**entrant, "rating": rating}
