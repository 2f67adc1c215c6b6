"""The tournament pages and the three reads they need that the leagues API lacks.

The pages themselves are templates; their modules read the organiser API
(``/api/competitions/...``). What it does not answer yet, the client asks here, through
the leagues selectors (nothing here writes): players' usernames and the corrections'
reasons for one competition, a username's user id (the organiser types usernames; the
competition stores user ids), and the signed-in player's next matches across
competitions. Each is a gap of the organiser API (docs/client.md, Tournament pages).
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.views.generic import TemplateView
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from leagues.api.errors import LeagueErrorsMixin
from leagues.core.errors import LeagueError
from leagues.models import Competition
from leagues.selectors import competitions as reads

MAX_LISTED = 200
MAX_NEXT_MATCHES = 20  # the most recent unfinished competitions a player is looked up in


class CompetitionListView(TemplateView):
    """Every competition, newest first (the read model the leagues app keeps)."""

    template_name = "web/competitions.html"

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context = super().get_context_data(**kwargs)
        context["competitions"] = list(Competition.objects.all()[:MAX_LISTED])
        return context


class CompetitionPageView(TemplateView):
    template_name = "web/competition.html"


class CompetitionOrganiseView(TemplateView):
    template_name = "web/competition_organise.html"


class CompetitionNewView(TemplateView):
    template_name = "web/competition_new.html"


@extend_schema(tags=["client"], responses=OpenApiTypes.OBJECT)
class CompetitionPeopleView(LeagueErrorsMixin, APIView):
    """Usernames of the competition's players and each result's source and reason."""

    permission_classes = [AllowAny]

    def get(self, request: Request, competition_id: str) -> Response:
        state = reads.state_of(competition_id)
        ids = {p for e in state.entrants.values() for p in (*e.players, e.reserve) if p}
        numeric = [int(p) for p in ids if p.isdigit()]
        names = dict(get_user_model().objects.filter(pk__in=numeric).values_list("pk", "username"))
        return Response(
            {
                "players": {str(pk): name for pk, name in names.items()},
                "results": {
                    rid: {"source": info.source, "reason": info.reason}
                    for rid, info in state.result_info.items()
                },
            }
        )


@extend_schema(tags=["client"], responses=OpenApiTypes.OBJECT)
class PlayerLookupView(LeagueErrorsMixin, APIView):
    """``?username=NAME``: that player's user id, as competitions store players."""

    permission_classes = [IsAuthenticated]

    def get(self, request: Request) -> Response:
        username = request.query_params.get("username", "")[:150]
        user = get_user_model().objects.filter(username=username).first()
        if user is None:
            raise LeagueError("unknown_player", f"There is no player called {username!r}.")
        return Response({"id": str(user.pk), "username": user.username})


@extend_schema(tags=["client"], responses=OpenApiTypes.OBJECT)
class NextMatchesView(LeagueErrorsMixin, APIView):
    """The signed-in player's next match in each unfinished competition they play in."""

    permission_classes = [IsAuthenticated]

    def get(self, request: Request) -> Response:
        player = str(request.user.pk)
        rows = Competition.objects.exclude(status="finished").order_by("-updated_at")
        matches = []
        for row in rows[:MAX_NEXT_MATCHES]:
            try:
                answer = reads.next_match(row.id, player)
            except LeagueError:
                continue  # not an entrant there
            names = {}
            if answer.get("match"):
                entrants = reads.overview(row.id)["entrants"]
                names = {e["id"]: e["name"] for e in entrants if e["name"]}
            matches.append(
                {"competition_id": str(row.id), "name": row.name, "names": names, **answer}
            )
        return Response({"matches": matches})
