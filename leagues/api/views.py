"""Organiser API: parse, one service call, render.  Reads are public; writes are for the
competition's organisers (the services refuse anyone else with 403)."""

from __future__ import annotations

from typing import Any

from django.http import HttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from leagues.core.errors import LeagueError
from leagues.selectors import competitions as reads
from leagues.services import competitions as cmds
from leagues.services import leagues as league_cmds
from leagues.services.presence import arrive
from leagues.services.tables import start_round

from .errors import LeagueErrorsMixin

MAX_TIEBREAKS = 16


def _body(request: Request) -> dict[str, Any]:
    if not isinstance(request.data, dict):
        raise LeagueError("invalid", "The request body is a JSON object.")
    return dict(request.data)


def _pick(body: dict[str, Any], *names: str) -> dict[str, Any]:
    unknown = sorted(set(body) - set(names))
    if unknown:
        raise LeagueError("invalid", f"Unknown field {unknown[0]!r}; expected {', '.join(names)}.")
    return {name: body[name] for name in names if name in body}


class LeaguesView(LeagueErrorsMixin, APIView):
    permission_classes = [AllowAny]
    schema_tags = ["leagues"]


ENTRANT_FIELDS = ("entrant_id", "players", "reserve", "name", "rating")


@extend_schema(tags=["leagues"], request=OpenApiTypes.OBJECT, responses=OpenApiTypes.OBJECT)
class CompetitionsView(LeaguesView):
    def post(self, request: Request) -> Response:
        state = cmds.create_competition(request.user, _body(request))
        return Response(reads.overview(state.competition_id), status=201)


@extend_schema(tags=["leagues"], request=OpenApiTypes.OBJECT, responses=OpenApiTypes.OBJECT)
class CompetitionView(LeaguesView):
    def get(self, request: Request, competition_id: str) -> Response:
        return Response(reads.overview(competition_id))


@extend_schema(tags=["leagues"], request=OpenApiTypes.OBJECT, responses=OpenApiTypes.OBJECT)
class EntrantsView(LeaguesView):
    def post(self, request: Request, competition_id: str) -> Response:
        entrant = _pick(_body(request), *ENTRANT_FIELDS)
        cmds.register_entrant(request.user, competition_id, **entrant)
        return Response(reads.overview(competition_id), status=201)


@extend_schema(tags=["leagues"], request=OpenApiTypes.OBJECT, responses=OpenApiTypes.OBJECT)
class LateJoinView(LeaguesView):
    def post(self, request: Request, competition_id: str) -> Response:
        entrant = _pick(_body(request), *ENTRANT_FIELDS)
        cmds.late_join(request.user, competition_id, **entrant)
        return Response(reads.overview(competition_id), status=201)


@extend_schema(tags=["leagues"], request=OpenApiTypes.OBJECT, responses=OpenApiTypes.OBJECT)
class WithdrawView(LeaguesView):
    def post(self, request: Request, competition_id: str, entrant_id: str) -> Response:
        body = _pick(_body(request), "reason")
        cmds.withdraw_entrant(request.user, competition_id, entrant_id, body.get("reason", ""))
        return Response(reads.overview(competition_id))


@extend_schema(tags=["leagues"], request=OpenApiTypes.OBJECT, responses=OpenApiTypes.OBJECT)
class CheckInView(LeaguesView):
    def post(self, request: Request, competition_id: str, entrant_id: str) -> Response:
        cmds.check_in(request.user, competition_id, entrant_id)
        return Response(reads.overview(competition_id))


@extend_schema(tags=["leagues"], request=OpenApiTypes.OBJECT, responses=OpenApiTypes.OBJECT)
class SubstituteView(LeaguesView):
    def post(self, request: Request, competition_id: str, entrant_id: str) -> Response:
        body = _pick(_body(request), "player_out", "player_in")
        cmds.substitute(
            request.user,
            competition_id,
            entrant_id,
            player_out=body.get("player_out"),
            player_in=body.get("player_in"),
        )
        return Response(reads.overview(competition_id))


@extend_schema(tags=["leagues"], request=OpenApiTypes.OBJECT, responses=OpenApiTypes.OBJECT)
class ProposalsView(LeaguesView):
    def post(self, request: Request, competition_id: str) -> Response:
        body = _pick(_body(request), "partner", "name")
        _, proposal = cmds.propose_partnership(
            request.user, competition_id, partner=body.get("partner"), name=body.get("name", "")
        )
        return Response({"proposal_id": proposal}, status=201)


@extend_schema(tags=["leagues"], request=OpenApiTypes.OBJECT, responses=OpenApiTypes.OBJECT)
class ConfirmView(LeaguesView):
    def post(self, request: Request, competition_id: str, proposal_id: str) -> Response:
        cmds.confirm_partnership(request.user, competition_id, proposal_id)
        return Response(reads.overview(competition_id))


@extend_schema(tags=["leagues"], request=OpenApiTypes.OBJECT, responses=OpenApiTypes.OBJECT)
class RoundsView(LeaguesView):
    def get(self, request: Request, competition_id: str) -> Response:
        return Response({"rounds": reads.pairings(competition_id)})

    def post(self, request: Request, competition_id: str) -> Response:
        body = _pick(_body(request), "round")
        _, number, duplicate = cmds.pair_next_round(
            request.user, competition_id, round_number=body.get("round")
        )
        rounds = reads.pairings(competition_id)
        return Response(
            {"round": rounds[number - 1], "duplicate": duplicate}, status=200 if duplicate else 201
        )


@extend_schema(tags=["leagues"], request=OpenApiTypes.OBJECT, responses=OpenApiTypes.OBJECT)
class StartRoundView(LeaguesView):
    def post(self, request: Request, competition_id: str, number: int) -> Response:
        start_round(request.user, competition_id, number)
        return Response({"round": reads.pairings(competition_id)[number - 1]})


@extend_schema(tags=["leagues"], request=OpenApiTypes.OBJECT, responses=OpenApiTypes.OBJECT)
class ArriveView(LeaguesView):
    """The signed-in player is at their table (present); the fourth starts the game."""

    def post(self, request: Request, competition_id: str, number: int) -> Response:
        _pick(_body(request))
        state = arrive(request.user, competition_id, number)
        return Response({"round": number, "arrived": reads.arrivals(state, number)})


@extend_schema(tags=["leagues"], request=OpenApiTypes.OBJECT, responses=OpenApiTypes.OBJECT)
class ResultsView(LeaguesView):
    def post(self, request: Request, competition_id: str, number: int) -> Response:
        body = _pick(
            _body(request),
            "board",
            "points",
            "winner",
            "scoresheet",
            "forfeited_by",
            "no_show",
            "reason",
        )
        if "forfeited_by" in body:
            cmds.record_forfeit(
                request.user,
                competition_id,
                round_number=number,
                board=body.get("board"),
                forfeited_by=body["forfeited_by"],
                no_show=bool(body.get("no_show", False)),
                reason=body.get("reason", ""),
            )
        else:
            cmds.record_result(
                request.user,
                competition_id,
                round_number=number,
                board=body.get("board"),
                points=body.get("points"),
                winner=body.get("winner"),
                scoresheet=body.get("scoresheet"),
            )
        return Response({"round": reads.pairings(competition_id)[number - 1]}, status=201)


@extend_schema(tags=["leagues"], request=OpenApiTypes.OBJECT, responses=OpenApiTypes.OBJECT)
class CorrectionView(LeaguesView):
    def post(self, request: Request, competition_id: str, result_id: str) -> Response:
        body = _pick(_body(request), "points", "winner", "forfeited_by", "reason")
        cmds.correct_result(
            request.user,
            competition_id,
            result_id,
            points=body.get("points"),
            winner=body.get("winner"),
            forfeited_by=body.get("forfeited_by"),
            reason=body.get("reason"),
        )
        return Response(reads.official_standings(competition_id), status=201)


@extend_schema(tags=["leagues"], request=OpenApiTypes.OBJECT, responses=OpenApiTypes.OBJECT)
class AdvanceStageView(LeaguesView):
    def post(self, request: Request, competition_id: str) -> Response:
        cmds.advance_stage(request.user, competition_id)
        return Response(reads.overview(competition_id))


@extend_schema(tags=["leagues"], request=OpenApiTypes.OBJECT, responses=OpenApiTypes.OBJECT)
class StandingsView(LeaguesView):
    """Official standings; ``?tiebreaks=a,b`` and/or ``?preset=NAME`` answer a what-if."""

    def get(self, request: Request, competition_id: str) -> Response:
        raw = request.query_params.get("tiebreaks")
        preset = request.query_params.get("preset")
        if raw is None and preset is None:
            return Response(reads.official_standings(competition_id))
        tiebreaks = None
        if raw is not None:
            tiebreaks = [name for name in raw.split(",") if name][:MAX_TIEBREAKS]
        return Response(reads.what_if(competition_id, tiebreaks=tiebreaks, rules=preset))


@extend_schema(tags=["leagues"], request=OpenApiTypes.OBJECT, responses=OpenApiTypes.OBJECT)
class NextMatchView(LeaguesView):
    def get(self, request: Request, competition_id: str, player: str) -> Response:
        return Response(reads.next_match(competition_id, player))


@extend_schema(tags=["leagues"], request=OpenApiTypes.OBJECT, responses=OpenApiTypes.OBJECT)
class ExportView(LeaguesView):
    """``?format=csv`` for the spreadsheet; JSON (the competition file format) otherwise."""

    def get(self, request: Request, competition_id: str) -> Any:
        if request.query_params.get("as") == "csv":
            return HttpResponse(reads.export_csv(competition_id), content_type="text/csv")
        return Response(reads.export_json(competition_id))


@extend_schema(tags=["leagues"], request=OpenApiTypes.OBJECT, responses=OpenApiTypes.OBJECT)
class RatingsView(LeaguesView):
    def get(self, request: Request) -> Response:
        players = [p for p in request.query_params.get("players", "").split(",") if p]
        return Response({"ratings": reads.ratings(players[:100] or None)})


@extend_schema(tags=["leagues"], request=OpenApiTypes.OBJECT, responses=OpenApiTypes.OBJECT)
class LeaguesListView(LeaguesView):
    def post(self, request: Request) -> Response:
        body = _pick(_body(request), "name", "organisers")
        league = league_cmds.create_league(request.user, body)
        return Response(league, status=201)


@extend_schema(tags=["leagues"], request=OpenApiTypes.OBJECT, responses=OpenApiTypes.OBJECT)
class LeagueView(LeaguesView):
    def get(self, request: Request, league_id: str) -> Response:
        return Response(league_cmds.league_view(league_id))


@extend_schema(tags=["leagues"], request=OpenApiTypes.OBJECT, responses=OpenApiTypes.OBJECT)
class SeasonsView(LeaguesView):
    def post(self, request: Request, league_id: str) -> Response:
        body = _pick(_body(request), "season", "divisions", "competition", "promote")
        return Response(league_cmds.add_season(request.user, league_id, body), status=201)
