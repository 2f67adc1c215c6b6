"""Organiser API: parse, one service call, render.  Reads are public; writes are for the
competition's organisers (the services refuse anyone else with 403).

Every write has the one shape of :class:`CommandView`: the body's known fields (any
other is refused), one use case, then the read the client draws next.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from django.http import HttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_view
from rest_framework.exceptions import ValidationError
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.api.fields import RulesSpecField
from leagues.core.errors import LeagueError
from leagues.selectors import competitions as reads
from leagues.selectors.players import ids_of
from leagues.services import competitions as cmds
from leagues.services import leagues as league_cmds
from leagues.services.presence import arrive
from leagues.services.tables import start_round
from services.api.schema import PROBLEM

from .errors import LeagueErrorsMixin

MAX_TIEBREAKS = 16
MAX_QUERY_NUMBER = 10**9

READ_ERRORS = {400: PROBLEM, 404: PROBLEM}
WRITE_ERRORS = {400: PROBLEM, 401: PROBLEM, 403: PROBLEM, 404: PROBLEM, 409: PROBLEM}


def _body(request: Request) -> dict[str, Any]:
    if not isinstance(request.data, dict):
        raise LeagueError("invalid", "The request body is a JSON object.")
    return dict(request.data)


def _whole(request: Request, name: str, default: int) -> int:
    """A whole-number query parameter (the selector checks its range)."""
    raw = request.query_params.get(name)
    if raw is None:
        return default
    # ASCII only: str.isdigit also accepts digits int() does not read ("²").
    if not (raw.isascii() and raw.isdigit()) or int(raw) > MAX_QUERY_NUMBER:
        raise LeagueError("invalid", f"{name} is a whole number.")
    return int(raw)


def _every(body: dict[str, Any], names: tuple[str, ...] | None) -> dict[str, Any]:
    """Each named field, ``None`` where the body leaves it out."""
    return {name: body.get(name) for name in names or ()}


def _pick(body: dict[str, Any], *names: str) -> dict[str, Any]:
    unknown = sorted(set(body) - set(names))
    if unknown:
        raise LeagueError("invalid", f"Unknown field {unknown[0]!r}; expected {', '.join(names)}.")
    return {name: body[name] for name in names if name in body}


class LeaguesView(LeagueErrorsMixin, APIView):
    permission_classes = [AllowAny]


class CommandView(LeaguesView):
    """POST: the body's ``fields`` only (``None``: the body is not read), :meth:`run`
    (one use case), then :meth:`render` (the competition's overview unless a view says
    otherwise); 201 when it ``creates``."""

    fields: ClassVar[tuple[str, ...] | None] = None
    creates: ClassVar[bool] = False

    # ``run(user, body, **path)``: the use case; each view names its own path parameters.
    run: Callable[..., Any]

    def render(self, outcome: Any, **path: Any) -> Any:
        return reads.overview(path["competition_id"])

    def post(self, request: Request, **path: Any) -> Response:
        body = {} if self.fields is None else _pick(_body(request), *self.fields)
        outcome = self.run(request.user, body, **path)
        return Response(self.render(outcome, **path), status=201 if self.creates else 200)


def _write(operation_id: str, description: str = "") -> Any:
    """The schema of a write: a JSON object in, the read it renders or a problem out."""
    return extend_schema(
        tags=["leagues"],
        operation_id=operation_id,
        description=description,
        request=OpenApiTypes.OBJECT,
        responses={200: OpenApiTypes.OBJECT, 201: OpenApiTypes.OBJECT, **WRITE_ERRORS},
    )


def _read(operation_id: str, description: str = "", **extra: Any) -> Any:
    return extend_schema(
        tags=["leagues"],
        operation_id=operation_id,
        description=description,
        responses={200: OpenApiTypes.OBJECT, **READ_ERRORS},
        **extra,
    )


def write(operation_id: str, description: str = "") -> Any:
    """A view's POST schema (operation ids go on methods, not on the view class)."""
    return extend_schema_view(post=_write(operation_id, description))


def read(operation_id: str, description: str = "", **extra: Any) -> Any:
    """A view's GET schema."""
    return extend_schema_view(get=_read(operation_id, description, **extra))


# Players by user id (``players``), or by the ``usernames`` an organiser types.
ENTRANT_FIELDS = ("entrant_id", "players", "usernames", "reserve", "name", "rating")
RESULT_FIELDS = (
    "board",
    "points",
    "winner",
    "scoresheet",
    "forfeited_by",
    "no_show",
    "reason",
)


@extend_schema_view(
    get=_read(
        "competitions_list",
        "Competitions, newest first, a page at a time (`next_offset` is null on the last).",
        parameters=[
            OpenApiParameter("status", str, enum=list(reads.STATUSES), required=False),
            OpenApiParameter("limit", int, description=f"1 to {reads.MAX_LISTED} (50)."),
            OpenApiParameter("offset", int, description=f"0 to {reads.MAX_OFFSET}."),
        ],
    ),
    post=_write("competitions_create", "A new tournament or season; you are its organiser."),
)
class CompetitionsView(LeaguesView):
    def get(self, request: Request) -> Response:
        return Response(
            reads.list_competitions(
                status=request.query_params.get("status"),
                limit=_whole(request, "limit", 50),
                offset=_whole(request, "offset", 0),
            )
        )

    def post(self, request: Request) -> Response:
        # The whole body is the competition's settings (create_competition checks them).
        state = cmds.create_competition(request.user, _body(request))
        return Response(reads.overview(state.competition_id), status=201)


@read(
    "competition_retrieve",
    "Settings, entrants (with `players`: user id -> username), proposals, progress.",
)
class CompetitionView(LeaguesView):
    def get(self, request: Request, competition_id: str) -> Response:
        return Response(reads.overview(competition_id))


@write(
    "competition_entrants_register",
    "Register a partnership: `players` (two user ids) or `usernames` (two usernames).",
)
class EntrantsView(CommandView):
    fields = ENTRANT_FIELDS
    creates = True

    def run(self, user: Any, body: dict[str, Any], competition_id: str) -> Any:
        return cmds.register_entrant(user, competition_id, **body)


@write("competition_entrants_late_join", "A late entrant: the same fields as a registration.")
class LateJoinView(CommandView):
    fields = ENTRANT_FIELDS
    creates = True

    def run(self, user: Any, body: dict[str, Any], competition_id: str) -> Any:
        return cmds.late_join(user, competition_id, **body)


@write("competition_entrant_withdraw")
class WithdrawView(CommandView):
    fields = ("reason",)

    def run(self, user: Any, body: dict[str, Any], competition_id: str, entrant_id: str) -> Any:
        return cmds.withdraw_entrant(user, competition_id, entrant_id, body.get("reason", ""))


@write("competition_entrant_check_in")
class CheckInView(CommandView):
    def run(self, user: Any, body: dict[str, Any], competition_id: str, entrant_id: str) -> Any:
        return cmds.check_in(user, competition_id, entrant_id)


@write("competition_entrant_substitute")
class SubstituteView(CommandView):
    """``player_in`` a user id, or ``username_in`` the username an organiser types."""

    fields = ("player_out", "player_in", "username_in")

    def run(self, user: Any, body: dict[str, Any], competition_id: str, entrant_id: str) -> Any:
        if "username_in" in body:
            if "player_in" in body:
                raise LeagueError("invalid", "Give player_in (a user id) or username_in, not both.")
            [body["player_in"]] = ids_of([body.pop("username_in")], field="username_in", count=1)
        return cmds.substitute(
            user, competition_id, entrant_id, **_every(body, ("player_out", "player_in"))
        )


@write("competition_partnership_propose")
class ProposalsView(CommandView):
    fields = ("partner", "name")
    creates = True

    def run(self, user: Any, body: dict[str, Any], competition_id: str) -> Any:
        return cmds.propose_partnership(
            user, competition_id, partner=body.get("partner"), name=body.get("name", "")
        )

    def render(self, outcome: Any, **path: Any) -> Any:
        return {"proposal_id": outcome[1]}


@write("competition_partnership_confirm")
class ConfirmView(CommandView):
    def run(self, user: Any, body: dict[str, Any], competition_id: str, proposal_id: str) -> Any:
        return cmds.confirm_partnership(user, competition_id, proposal_id)


@extend_schema_view(
    get=_read("competition_rounds", "Every round: pairings, byes, tables and results."),
    post=_write("competition_rounds_pair", "Pair the next round (idempotent with `round`)."),
)
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


class RoundCommandView(CommandView):
    """A write on one round, answered with that round."""

    def render(self, outcome: Any, **path: Any) -> Any:
        return {"round": reads.pairings(path["competition_id"])[path["number"] - 1]}


@write("competition_round_start", "Start a paired round: its tables are created.")
class StartRoundView(RoundCommandView):
    def run(self, user: Any, body: dict[str, Any], competition_id: str, number: int) -> Any:
        return start_round(user, competition_id, number)


@write(
    "competition_round_arrive",
    "The signed-in player is at their table (present); the fourth to arrive starts the game.",
)
class ArriveView(CommandView):
    fields = ()

    def run(self, user: Any, body: dict[str, Any], competition_id: str, number: int) -> Any:
        return arrive(user, competition_id, number)

    def render(self, outcome: Any, **path: Any) -> Any:
        return {"round": path["number"], "arrived": reads.arrivals(outcome, path["number"])}


@write(
    "competition_round_result",
    "A result (`points` and `winner`, or a `scoresheet`), or a forfeit (`forfeited_by`).",
)
class ResultsView(RoundCommandView):
    fields = RESULT_FIELDS
    creates = True

    def run(self, user: Any, body: dict[str, Any], competition_id: str, number: int) -> Any:
        if "forfeited_by" in body:
            return cmds.record_forfeit(
                user,
                competition_id,
                round_number=number,
                board=body.get("board"),
                forfeited_by=body["forfeited_by"],
                no_show=bool(body.get("no_show", False)),
                reason=body.get("reason", ""),
            )
        return cmds.record_result(
            user,
            competition_id,
            round_number=number,
            board=body.get("board"),
            points=body.get("points"),
            winner=body.get("winner"),
            scoresheet=body.get("scoresheet"),
        )


@write("competition_result_correct", "A correction with the organiser's reason.")
class CorrectionView(CommandView):
    fields = ("points", "winner", "forfeited_by", "reason")
    creates = True

    def run(self, user: Any, body: dict[str, Any], competition_id: str, result_id: str) -> Any:
        return cmds.correct_result(user, competition_id, result_id, **_every(body, self.fields))

    def render(self, outcome: Any, **path: Any) -> Any:
        return reads.official_standings(path["competition_id"])


@write("competition_stage_advance")
class AdvanceStageView(CommandView):
    def run(self, user: Any, body: dict[str, Any], competition_id: str) -> Any:
        return cmds.advance_stage(user, competition_id)


@read(
    "competition_standings",
    "Official standings; `tiebreaks` (comma-separated) and/or `preset` answer a what-if.",
    parameters=[
        OpenApiParameter("tiebreaks", str, required=False),
        OpenApiParameter(
            "preset",
            str,
            required=False,
            description='A preset name, or custom rules as JSON text: {"preset": "standard", ...}.',
        ),
    ],
)
class StandingsView(LeaguesView):
    def get(self, request: Request, competition_id: str) -> Response:
        raw = request.query_params.get("tiebreaks")
        preset = request.query_params.get("preset")
        if raw is None and preset is None:
            return Response(reads.official_standings(competition_id))
        tiebreaks = None
        if raw is not None:
            tiebreaks = [name for name in raw.split(",") if name][:MAX_TIEBREAKS]
        rules = None if preset is None else _rules_of(preset)
        return Response(reads.what_if(competition_id, tiebreaks=tiebreaks, rules=rules))


def _rules_of(preset: str) -> str | dict[str, Any]:
    """A preset name, or custom rules as JSON text: the tables' rescore query's spelling."""
    try:
        spec: str | dict[str, Any] = RulesSpecField(from_text=True).run_validation(preset)
    except ValidationError as error:
        detail = error.detail
        message = str(detail[0] if isinstance(detail, list) and detail else detail)
        raise LeagueError("bad_rules", message) from None
    return spec


@read("competition_player_next_match", "A player's (user id) next match here and its table.")
class NextMatchView(LeaguesView):
    def get(self, request: Request, competition_id: str, player: str) -> Response:
        return Response(reads.next_match(competition_id, player))


@extend_schema_view(
    get=extend_schema(
        tags=["leagues"],
        operation_id="players_me_next_matches",
        description="The signed-in player's next match in each unfinished competition they "
        f"play in (the {reads.MAX_NEXT_MATCHES} most recently changed), with entrants' names.",
        responses={200: OpenApiTypes.OBJECT, 401: PROBLEM},
    )
)
class MyNextMatchesView(LeaguesView):
    def get(self, request: Request) -> Response:
        if not request.user.is_authenticated:
            raise LeagueError("not_signed_in", "Sign in to see your next matches.")
        return Response({"matches": reads.next_matches(str(request.user.pk))})


@read(
    "competition_export",
    "The competition file (JSON), or `as=csv` for the spreadsheet.",
    parameters=[OpenApiParameter("as", str, enum=["json", "csv"], required=False)],
)
class ExportView(LeaguesView):
    def get(self, request: Request, competition_id: str) -> Any:
        spelling = request.query_params.get("as", "json")
        if spelling not in ("json", "csv"):
            raise LeagueError("invalid", "as is json (the default) or csv.")
        if spelling == "csv":
            filename, text = reads.export_csv(competition_id)
            return HttpResponse(
                text,
                content_type="text/csv; charset=utf-8",
                headers={"Content-Disposition": f'attachment; filename="{filename}"'},
            )
        return Response(reads.export_json(competition_id))


MAX_RATED_PLAYERS = 100


@read(
    "ratings_list",
    parameters=[OpenApiParameter("players", str, required=False, description="ids, comma")],
)
class RatingsView(LeaguesView):
    def get(self, request: Request) -> Response:
        players = [p for p in request.query_params.get("players", "").split(",") if p]
        if len(players) > MAX_RATED_PLAYERS or not all(
            p.isascii() and p.isdecimal() and len(p) <= 20 for p in players
        ):
            raise LeagueError(
                "invalid",
                f"players is a comma-separated list of at most {MAX_RATED_PLAYERS} user ids.",
            )
        return Response({"ratings": reads.ratings(players or None)})


@write("leagues_create")
class LeaguesListView(CommandView):
    fields = ("name", "organisers")
    creates = True

    def run(self, user: Any, body: dict[str, Any]) -> Any:
        return league_cmds.create_league(user, body)

    def render(self, outcome: Any, **path: Any) -> Any:
        return outcome


@read("league_retrieve")
class LeagueView(LeaguesView):
    def get(self, request: Request, league_id: str) -> Response:
        return Response(league_cmds.league_view(league_id))


@write("league_seasons_add")
class SeasonsView(CommandView):
    fields = ("season", "divisions", "competition", "promote")
    creates = True

    def run(self, user: Any, body: dict[str, Any], league_id: str) -> Any:
        return league_cmds.add_season(user, league_id, body)

    def render(self, outcome: Any, **path: Any) -> Any:
        return outcome
