"""The reads the leagues and ratings pages add to the organiser API: the leagues list
(``GET /api/leagues``, beside the create of :class:`~.views.LeaguesListView`) and a
player's rating history (``GET /api/ratings/<player>/history``). Public, bounded, each
one selector call."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter
from rest_framework.request import Request
from rest_framework.response import Response

from leagues.domain.pools import parse_pool
from leagues.selectors import leagues as league_reads
from leagues.selectors import ratings as rating_reads

from . import views


@views.read(
    "leagues_list",
    "Leagues, newest first, a page at a time (`next_offset` is null on the last); each "
    "with its ratings `pool`.",
    parameters=[
        OpenApiParameter("limit", int, description=f"1 to {league_reads.MAX_LISTED} (50)."),
        OpenApiParameter("offset", int, description=f"0 to {league_reads.MAX_OFFSET}."),
    ],
)
class LeaguesIndexView(views.LeaguesListView):
    """``/api/leagues``: the list (GET) and the create (POST, inherited)."""

    def get(self, request: Request) -> Response:
        return Response(
            league_reads.list_leagues(
                limit=views.whole_number_param(request, "limit", 50),
                offset=views.whole_number_param(request, "offset", 0),
            )
        )


@views.read(
    "rating_history",
    "A player's (user id) rated matches in one pool, oldest first, the last "
    f"{rating_reads.MAX_HISTORY} at most: each with the rating before and after, the "
    "competition, partner and opponents; `names` maps user ids to usernames; `earlier` "
    "(a log position) pages back with `before`.",
    parameters=[
        OpenApiParameter("pool", str, required=False, description="site, or league:<id>"),
        OpenApiParameter("limit", int, description=f"1 to {rating_reads.MAX_HISTORY}."),
        OpenApiParameter("before", int, description="A log position (`earlier`)."),
    ],
)
class RatingHistoryView(views.LeaguesView):
    def get(self, request: Request, player: str) -> Response:
        before = request.query_params.get("before")
        return Response(
            rating_reads.rating_history(
                player,
                pool=parse_pool(request.query_params.get("pool")),
                limit=views.whole_number_param(request, "limit", rating_reads.MAX_HISTORY),
                before=None if before is None else views.whole_number_param(request, "before", 0),
            )
        )
