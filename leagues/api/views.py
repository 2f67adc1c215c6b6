"""Organiser API: parse, one service call, render.  Reads are public; writes are for the
competition's organisers (the services refuse anyone else with 403), but for what a
player does for themself (accept, decline, leave, propose, confirm).

Every write has the one shape of :class:`CommandView`: the body parsed into the typed
request of ``leagues.domain`` (its refusals name the field), one use case with it, then
the read the client draws next.
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
from games.api.idempotency import command_id_from
from games.services.errors import CommandRejected
from leagues.core.errors import LeagueError
from leagues.domain.decisions import (
    CorrectionRequest,
    EntrantRequest,
    ForbiddenPairRequest,
    ForfeitRequest,
    LinkSecretRequest,
    OverrideRequest,
    ProposalRequest,
    ReasonRequest,
    SubstitutionRequest,
)
from leagues.domain.entrant_import import MAX_IMPORT_BYTES, ImportRefused
from leagues.domain.league import LeagueSpec, SeasonRequest
from leagues.domain.pools import SKILL_POOL, parse_pool
from leagues.domain.settings import DUPLICATE_SCALES
from leagues.selectors import calendars, entry_links
from leagues.selectors import competitions as reads
from leagues.selectors import duplicate as duplicate_reads
from leagues.selectors.ratings import skill_ratings
from leagues.services import (
    board_again,
    calendar_feeds,
    competitions,
    entrant_import,
    pairing_control,
    registration,
    results,
)
from leagues.services import duplicate as duplicate_services
from leagues.services import (
    entry_links as entry_link_cmds,
)
from leagues.services import leagues as league_cmds
from leagues.services.presence import arrive
from leagues.services.rounds import pair_next_round
from leagues.services.tables import start_round
from services.api.errors import ApiProblem
from services.api.etags import conditional_read
from services.api.parsers import CsvParser, SafeJSONParser
from services.api.schema import PROBLEM
from services.api.throttles import LeaguesWriteThrottle, WhatIfThrottle

from . import serializers as bodies
from .errors import LeagueErrorsMixin
from .serializers import BoardAgainSerializer, BoardCorrectionSerializer

MAX_TIEBREAKS = 16
MAX_QUERY_NUMBER = 10**9

READ_ERRORS = {400: PROBLEM, 404: PROBLEM}
READ_ERRORS_LIMITED = {**READ_ERRORS, 429: PROBLEM}
# 429: the leagues_writes rate limit, or a quota (leagues.services.quotas).
WRITE_ERRORS = {400: PROBLEM, 401: PROBLEM, 403: PROBLEM, 404: PROBLEM, 409: PROBLEM, 429: PROBLEM}


def _body(request: Request) -> dict[str, Any]:
    if not isinstance(request.data, dict):
        raise LeagueError("invalid", "The request body is a JSON object.")
    return dict(request.data)


def whole_number_param(request: Request, name: str, default: int) -> int:
    """A whole-number query parameter (the selector checks its range)."""
    raw = request.query_params.get(name)
    if raw is None:
        return default
    # ASCII only: str.isdigit also accepts digits int() does not read ("²").
    if not (raw.isascii() and raw.isdigit()) or int(raw) > MAX_QUERY_NUMBER:
        raise LeagueError("invalid", f"{name} is a whole number.")
    return int(raw)


class LeaguesView(LeagueErrorsMixin, APIView):
    permission_classes = [AllowAny]
    # Every write counted (LeaguesWriteThrottle lets the reads through).
    throttle_classes = [LeaguesWriteThrottle]


def polled(request: Request, competition_id: str, read: Callable[[], Any]) -> Response:
    """A competition read its page polls: tagged with the stream version, 304 when the
    client has it (``services.api.etags``); an unknown competition is read (and refused)."""
    version = reads.competition_version(competition_id)
    if version == 0:
        return Response(read())
    return conditional_read(request, version, read)


class CommandView(LeaguesView):
    """POST: the body parsed into the view's typed request (``body``: its serializer in
    the schema, whose ``parse`` is the domain's), :meth:`run` (one use case with that
    request), then :meth:`render` (the competition's overview unless a view says
    otherwise); 201 when it ``creates``."""

    body: ClassVar[type[bodies.RequestSerializer]] = bodies.EmptySerializer
    creates: ClassVar[bool] = False

    # ``run(user, request, **path)``: the use case; each view names its own path parameters.
    run: Callable[..., Any]

    def render(self, outcome: Any, **path: Any) -> Any:
        return reads.overview(path["competition_id"])

    def post(self, request: Request, **path: Any) -> Response:
        typed = type(self).body.parse(_body(request))
        outcome = self.run(request.user, typed, **path)
        return Response(self.render(outcome, **path), status=201 if self.creates else 200)


def _write(operation_id: str, body: type[bodies.RequestSerializer], description: str = "") -> Any:
    """The schema of a write: its body's serializer in, the read it renders or a problem
    out."""
    return extend_schema(
        tags=["leagues"],
        operation_id=operation_id,
        description=description,
        request=body,
        responses={200: OpenApiTypes.OBJECT, 201: OpenApiTypes.OBJECT, **WRITE_ERRORS},
    )


def _read(operation_id: str, description: str = "", errors: Any = READ_ERRORS, **extra: Any) -> Any:
    return extend_schema(
        tags=["leagues"],
        operation_id=operation_id,
        description=description,
        responses={200: OpenApiTypes.OBJECT, **errors},
        **extra,
    )


def write(operation_id: str, description: str = "") -> Any:
    """A :class:`CommandView`'s POST schema, with its ``body`` (operation ids go on
    methods, not on the view class)."""

    def decorate(view: type[CommandView]) -> type[CommandView]:
        decorated: type[CommandView] = extend_schema_view(
            post=_write(operation_id, view.body, description)
        )(view)
        return decorated

    return decorate


def read(operation_id: str, description: str = "", **extra: Any) -> Any:
    """A view's GET schema."""
    return extend_schema_view(get=_read(operation_id, description, **extra))


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
    post=_write(
        "competitions_create",
        bodies.CompetitionSpecSerializer,
        "A new tournament or season; you are its organiser.",
    ),
)
class CompetitionsView(LeaguesView):
    def get(self, request: Request) -> Response:
        return Response(
            reads.list_competitions(
                status=request.query_params.get("status"),
                limit=whole_number_param(request, "limit", 50),
                offset=whole_number_param(request, "offset", 0),
            )
        )

    def post(self, request: Request) -> Response:
        # The whole body is the competition's settings.
        spec = bodies.CompetitionSpecSerializer.parse(_body(request))
        state = competitions.create_competition(request.user, spec)
        return Response(reads.overview(state.competition_id), status=201)


@read(
    "competition_retrieve",
    "Settings, entrants (entered or invited, with `players`: user id -> username), "
    "proposals, progress.",
)
class CompetitionView(LeaguesView):
    def get(self, request: Request, competition_id: str) -> Response:
        return polled(request, competition_id, lambda: reads.overview(competition_id))


@write(
    "competition_entrants_register",
    "Register a partnership: `players` (two user ids) or `usernames` (two usernames). "
    "Each player named but you is invited: it is entered when both have accepted.",
)
class EntrantsView(CommandView):
    body = bodies.EntrantRequestSerializer
    creates = True

    def run(self, user: Any, body: EntrantRequest, competition_id: str) -> Any:
        return registration.register_entrant(user, competition_id, body)


@write("competition_entrants_late_join", "A late entrant: the same fields as a registration.")
class LateJoinView(CommandView):
    body = bodies.EntrantRequestSerializer
    creates = True

    def run(self, user: Any, body: EntrantRequest, competition_id: str) -> Any:
        return registration.late_join(user, competition_id, body)


@write(
    "competition_entrant_accept",
    "The signed-in player, named in the entrant, agrees to play for it.",
)
class AcceptView(CommandView):
    def run(self, user: Any, body: None, competition_id: str, entrant_id: str) -> Any:
        return registration.accept_invitation(user, competition_id, entrant_id)


@write(
    "competition_entrant_decline",
    "The signed-in player, named in an entrant not entered yet (or as its reserve), "
    "refuses: the invitation ends.",
)
class DeclineView(CommandView):
    body = bodies.ReasonRequestSerializer

    def run(self, user: Any, body: ReasonRequest, competition_id: str, entrant_id: str) -> Any:
        return registration.decline_invitation(user, competition_id, entrant_id, body)


@write(
    "competition_leave",
    "The signed-in player leaves: an invitation is declined, an entered entrant withdrawn.",
)
class LeaveView(CommandView):
    body = bodies.ReasonRequestSerializer

    def run(self, user: Any, body: ReasonRequest, competition_id: str) -> Any:
        return registration.leave_competition(user, competition_id, body)


@write("competition_entrant_withdraw")
class WithdrawView(CommandView):
    body = bodies.ReasonRequestSerializer

    def run(self, user: Any, body: ReasonRequest, competition_id: str, entrant_id: str) -> Any:
        return registration.withdraw_entrant(user, competition_id, entrant_id, body)


@write("competition_entrant_check_in")
class CheckInView(CommandView):
    def run(self, user: Any, body: None, competition_id: str, entrant_id: str) -> Any:
        return registration.check_in(user, competition_id, entrant_id)


@write("competition_entrant_substitute")
class SubstituteView(CommandView):
    """``player_in`` a user id, or ``username_in`` the username an organiser types."""

    body = bodies.SubstitutionRequestSerializer

    def run(
        self, user: Any, body: SubstitutionRequest, competition_id: str, entrant_id: str
    ) -> Any:
        return registration.substitute(user, competition_id, entrant_id, body)


@write("competition_partnership_propose")
class ProposalsView(CommandView):
    body = bodies.ProposalRequestSerializer
    creates = True

    def run(self, user: Any, body: ProposalRequest, competition_id: str) -> Any:
        return registration.propose_partnership(user, competition_id, body)

    def render(self, outcome: Any, **path: Any) -> Any:
        return {"proposal_id": outcome[1]}


@write("competition_partnership_confirm")
class ConfirmView(CommandView):
    def run(self, user: Any, body: None, competition_id: str, proposal_id: str) -> Any:
        return registration.confirm_partnership(user, competition_id, proposal_id)


@extend_schema_view(
    get=_read(
        "competition_entry_link",
        "The competition's live invitation link (`link`: `secret` and `path`, null when "
        "there is none) and how many players wait for a partner; for its organisers.",
        errors={**READ_ERRORS, 401: PROBLEM, 403: PROBLEM},
    ),
    post=_write(
        "competition_entry_link_issue",
        bodies.EmptySerializer,
        "Issue the invitation link (again: the old one stops working).",
    ),
)
class EntryLinkView(LeaguesView):
    def get(self, request: Request, competition_id: str) -> Response:
        return _no_store(Response(entry_links.entry_link(request.user, competition_id)))

    def post(self, request: Request, competition_id: str) -> Response:
        bodies.EmptySerializer.parse(request.data)
        entry_link_cmds.issue_link(request.user, competition_id)
        answer = Response(entry_links.entry_link(request.user, competition_id), status=201)
        return _no_store(answer)


def _no_store(response: Response) -> Response:
    """A link's secret is in the answer: no cache keeps it."""
    response["Cache-Control"] = "no-store"
    return response


@write("competition_entry_link_revoke", "The invitation link stops working.")
class RevokeEntryLinkView(CommandView):
    def run(self, user: Any, body: None, competition_id: str) -> Any:
        return entry_link_cmds.revoke_link(user, competition_id)

    def render(self, outcome: Any, **path: Any) -> Any:
        return {"link": None}


@write(
    "competition_entry_link_join",
    "The signed-in player follows the invitation link (`secret`: the text after `#link=`): "
    "they are in, as first player of a partnership waiting for a partner; answers their "
    "partner link (`partner_link`: `secret` and `path`) to send to that partner.",
)
class EnterByLinkView(CommandView):
    body = bodies.LinkSecretRequestSerializer
    creates = True

    def run(self, user: Any, body: LinkSecretRequest, competition_id: str) -> Any:
        return entry_link_cmds.enter_by_link(user, competition_id, body.secret)

    def render(self, outcome: Any, **path: Any) -> Any:
        return entry_links.partner_link(self.request.user, path["competition_id"])


@read(
    "competition_my_place",
    "The signed-in player's place: `partner_link` while they wait for a partner, "
    "`entrant_id` once entered or invited (both null: not in the competition).",
    errors={**READ_ERRORS, 401: PROBLEM},
)
class MyPlaceView(LeaguesView):
    def get(self, request: Request, competition_id: str) -> Response:
        return _no_store(Response(entry_links.partner_link(request.user, competition_id)))


@write(
    "competition_partnership_join",
    "The signed-in player follows a partner link (`secret`: the text after `#partner=`): "
    "they become the partnership's second player and it is entered.",
)
class JoinPartnerView(CommandView):
    body = bodies.LinkSecretRequestSerializer
    creates = True

    def run(
        self, user: Any, body: LinkSecretRequest, competition_id: str, partnership_id: str
    ) -> Any:
        return entry_link_cmds.join_partner(user, competition_id, partnership_id, body.secret)

    def render(self, outcome: Any, **path: Any) -> Any:
        return entry_links.partner_link(self.request.user, path["competition_id"])


@extend_schema_view(
    get=_read("competition_rounds", "Every round: pairings, byes, tables and results."),
    post=_write(
        "competition_rounds_pair",
        bodies.PairRequestSerializer,
        "Pair the next round (idempotent with `round`).",
    ),
)
class RoundsView(LeaguesView):
    def get(self, request: Request, competition_id: str) -> Response:
        return polled(request, competition_id, lambda: {"rounds": reads.pairings(competition_id)})

    def post(self, request: Request, competition_id: str) -> Response:
        body = bodies.PairRequestSerializer.parse(_body(request))
        _, number, duplicate = pair_next_round(
            request.user, competition_id, round_number=body.round
        )
        rounds = reads.pairings(competition_id)
        return Response(
            {"round": rounds[number - 1], "duplicate": duplicate}, status=200 if duplicate else 201
        )


@read(
    "competition_round_tables",
    "A round's tables and whether each exists yet (`ready`): a round is started before "
    "its tables are created; read a table only once it is ready.",
)
class RoundTablesView(LeaguesView):
    def get(self, request: Request, competition_id: str, number: int) -> Response:
        return Response(reads.round_tables(competition_id, number))


class RoundCommandView(CommandView):
    """A write on one round, answered with that round."""

    def render(self, outcome: Any, **path: Any) -> Any:
        return {"round": reads.pairings(path["competition_id"])[path["number"] - 1]}


@extend_schema_view(
    get=_read(
        "competition_forbidden_pairs",
        "The pairs of entrants kept apart; who forbade each and why, for its organisers.",
    ),
    post=_write(
        "competition_forbidden_pair_add",
        bodies.ForbiddenPairSerializer,
        "Keep two entrants apart: no round paired from now on has them meet while a "
        "pairing without them exists.",
    ),
)
class ForbiddenPairsView(CommandView):
    body = bodies.ForbiddenPairSerializer
    creates = True

    def get(self, request: Request, competition_id: str) -> Response:
        user = request.user
        return Response(
            reads.forbidden_pairs(competition_id, user.pk if user.is_authenticated else None)
        )

    def run(self, user: Any, body: ForbiddenPairRequest, competition_id: str) -> Any:
        return pairing_control.forbid_pair(user, competition_id, body)

    def render(self, outcome: Any, **path: Any) -> Any:
        # Only an organiser's write gets here: the reasons are theirs to see.
        return reads.forbidden_pairs_of(outcome, organiser=True)


@write(
    "competition_forbidden_pair_remove",
    "Let two entrants kept apart meet again (from the next round paired).",
)
class AllowPairView(CommandView):
    body = bodies.ForbiddenPairSerializer

    def run(self, user: Any, body: ForbiddenPairRequest, competition_id: str) -> Any:
        return pairing_control.allow_pair(user, competition_id, body)


@write(
    "competition_round_override",
    "Replace a paired Swiss round's pairing with your own, before its tables open "
    "(no table started, no result): recorded with you and your reason; verify_pairings "
    "reports the round as manual.",
)
class OverrideRoundView(RoundCommandView):
    body = bodies.OverrideSerializer

    def run(self, user: Any, body: OverrideRequest, competition_id: str, number: int) -> Any:
        return pairing_control.override_pairing(user, competition_id, number, body)


@write("competition_round_start", "Start a paired round: its tables are created.")
class StartRoundView(RoundCommandView):
    def run(self, user: Any, body: None, competition_id: str, number: int) -> Any:
        return start_round(user, competition_id, number)


@write(
    "competition_round_arrive",
    "The signed-in player is at their table (present); the fourth to arrive starts the game.",
)
class ArriveView(CommandView):
    body = bodies.EmptySerializer

    def run(self, user: Any, body: None, competition_id: str, number: int) -> Any:
        return arrive(user, competition_id, number)

    def render(self, outcome: Any, **path: Any) -> Any:
        return {"round": path["number"], "arrived": reads.arrivals(outcome, path["number"])}


@write(
    "competition_round_result",
    "A result (`points` and `winner`, or a `scoresheet`), or a forfeit (`forfeited_by`). "
    "A typed-in result counts for the ratings once a player of each side confirms it.",
)
class ResultsView(RoundCommandView):
    body = bodies.ResultRequestSerializer
    creates = True

    def run(self, user: Any, body: Any, competition_id: str, number: int) -> Any:
        if isinstance(body, ForfeitRequest):
            return results.record_forfeit(user, competition_id, number, body)
        return results.record_result(user, competition_id, number, body)


@write(
    "competition_result_confirm",
    "The signed-in player, who sat in the match, confirms a typed-in result for their side.",
)
class ConfirmResultView(CommandView):
    def run(self, user: Any, body: None, competition_id: str, result_id: str) -> Any:
        return results.confirm_result(user, competition_id, result_id)

    def render(self, outcome: Any, **path: Any) -> Any:
        return reads.confirmations(outcome, path["result_id"])


@write("competition_result_correct", "A correction with the organiser's reason.")
class CorrectionView(CommandView):
    body = bodies.CorrectionRequestSerializer
    creates = True

    def run(self, user: Any, body: CorrectionRequest, competition_id: str, result_id: str) -> Any:
        return results.correct_result(user, competition_id, result_id, body)

    def render(self, outcome: Any, **path: Any) -> Any:
        return reads.official_standings(path["competition_id"])


@read(
    "competition_stages",
    "Each stage: settings, status, its rounds and, for a knockout, the bracket (every "
    "match's sides, where they come from, winner, round and board) and its champion.",
)
class StagesView(LeaguesView):
    def get(self, request: Request, competition_id: str) -> Response:
        return polled(request, competition_id, lambda: reads.stages(competition_id))


@write("competition_stage_advance")
class AdvanceStageView(CommandView):
    def run(self, user: Any, body: None, competition_id: str) -> Any:
        return results.advance_stage(user, competition_id)


@read(
    "competition_standings",
    "Official standings; `tiebreaks` (comma-separated) and/or `preset` answer a what-if "
    "(rate-limited: the `whatif` scope).",
    errors=READ_ERRORS_LIMITED,
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
    def get_throttles(self) -> list[Any]:
        # The official standings are a stored document; a what-if is computed per request.
        query = self.request.query_params
        return [WhatIfThrottle()] if "tiebreaks" in query or "preset" in query else []

    def get(self, request: Request, competition_id: str) -> Response:
        raw = request.query_params.get("tiebreaks")
        preset = request.query_params.get("preset")
        if raw is None and preset is None:
            return polled(request, competition_id, lambda: reads.official_standings(competition_id))
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
    "One ratings pool, best first: `site` (the default; only consented, played results "
    "feed it), `league:<league id>`, or `skill` (the duplicate skill rating: IMPs per "
    "board from par, `ordinal` is mu - 2 sigma, `matches` the boards).",
    parameters=[
        OpenApiParameter("players", str, required=False, description="ids, comma"),
        OpenApiParameter("pool", str, required=False, description="site, skill, or league:<id>"),
    ],
)
class RatingsView(LeaguesView):
    def get(self, request: Request) -> Response:
        pool = parse_pool(request.query_params.get("pool"))
        players = [p for p in request.query_params.get("players", "").split(",") if p]
        if len(players) > MAX_RATED_PLAYERS or not all(
            p.isascii() and p.isdecimal() and len(p) <= 20 for p in players
        ):
            raise LeagueError(
                "invalid",
                f"players is a comma-separated list of at most {MAX_RATED_PLAYERS} user ids.",
            )
        if pool == SKILL_POOL:
            return Response({"pool": pool, "ratings": skill_ratings(players or None)})
        return Response({"pool": pool, "ratings": reads.ratings(players or None, pool=pool)})


@write("leagues_create")
class LeaguesListView(CommandView):
    body = bodies.LeagueSpecSerializer
    creates = True

    def run(self, user: Any, body: LeagueSpec) -> Any:
        return league_cmds.create_league(user, body)

    def render(self, outcome: Any, **path: Any) -> Any:
        return outcome


@read("league_retrieve")
class LeagueView(LeaguesView):
    def get(self, request: Request, league_id: str) -> Response:
        return Response(league_cmds.league_view(league_id))


@write("league_seasons_add")
class SeasonsView(CommandView):
    body = bodies.SeasonRequestSerializer
    creates = True

    def run(self, user: Any, body: SeasonRequest, league_id: str) -> Any:
        return league_cmds.add_season(user, league_id, body)

    def render(self, outcome: Any, **path: Any) -> Any:
        return outcome


ICS_TYPE = "text/calendar; charset=utf-8"


def _ics(text: bytes, filename: str) -> HttpResponse:
    return HttpResponse(
        text,
        content_type=ICS_TYPE,
        headers={
            "Content-Disposition": f'inline; filename="{filename}"',
            # A calendar app polls the address; the rounds change when the organiser edits.
            "Cache-Control": "private, max-age=300",
        },
    )


def _origin(request: Request) -> str:
    return f"{request.scheme}://{request.get_host()}"


class CalendarView(LeaguesView):
    """An ``.ics`` answer: calendar apps ask for ``text/calendar``, which no DRF renderer
    offers; the body is an HttpResponse anyway, so negotiation settles on JSON, for the
    problems (404, 401) only."""

    def perform_content_negotiation(self, request: Request, force: bool = False) -> Any:
        return super().perform_content_negotiation(request, force=True)


CALENDAR_ANSWER = {(200, "text/calendar"): OpenApiTypes.BINARY}


@extend_schema_view(
    get=extend_schema(
        tags=["leagues"],
        operation_id="competition_calendar",
        description="The competition's round starts as an iCalendar file (one event per "
        "round with a start time; its UID stays the same when the time moves).",
        responses={**CALENDAR_ANSWER, **READ_ERRORS},
    )
)
class CompetitionCalendarView(CalendarView):
    def get(self, request: Request, competition_id: str) -> HttpResponse:
        filename, text = calendars.competition_calendar(competition_id, _origin(request))
        return _ics(text, filename)


@extend_schema_view(
    get=extend_schema(
        tags=["leagues"],
        operation_id="my_calendar",
        description="The round starts of every unfinished competition you are in, as an "
        "iCalendar file (sign in: the API token).",
        responses={**CALENDAR_ANSWER, 401: PROBLEM},
    )
)
class MyCalendarView(CalendarView):
    def get(self, request: Request) -> HttpResponse:
        if not request.user.is_authenticated:
            raise LeagueError("not_signed_in", "Sign in to see your calendar.")
        return _ics(
            calendars.player_calendar(str(request.user.pk), _origin(request)), "my-rounds.ics"
        )


@extend_schema_view(
    get=extend_schema(
        tags=["leagues"],
        operation_id="my_calendar_feed_status",
        description="Whether you have a secret calendar address (its secret is never shown again).",
        responses={200: OpenApiTypes.OBJECT, 401: PROBLEM},
    ),
    post=extend_schema(
        tags=["leagues"],
        operation_id="my_calendar_feed_issue",
        description="A new secret calendar address for calendar apps that subscribe "
        "without a token; shown once; the old one stops working.",
        request=None,
        responses={201: OpenApiTypes.OBJECT, 401: PROBLEM, 429: PROBLEM},
    ),
    delete=extend_schema(
        tags=["leagues"],
        operation_id="my_calendar_feed_revoke",
        description="Your secret calendar address stops working.",
        responses={204: None, 401: PROBLEM},
    ),
)
class MyCalendarFeedView(LeaguesView):
    def get(self, request: Request) -> Response:
        return Response({"active": calendar_feeds.has_feed(request.user)})

    def post(self, request: Request) -> Response:
        secret = calendar_feeds.issue_feed(request.user)
        path = f"/api/calendar.ics?key={secret}"
        body = {"secret": secret, "path": path, "url": f"{_origin(request)}{path}"}
        return Response(body, status=201, headers={"Cache-Control": "no-store"})

    def delete(self, request: Request) -> Response:
        calendar_feeds.revoke_feed(request.user)
        return Response(status=204)


@extend_schema_view(
    get=extend_schema(
        tags=["leagues"],
        operation_id="calendar_feed",
        description="A player's round starts by their secret calendar address (no token): "
        "`?key=` carries the secret.",
        parameters=[OpenApiParameter("key", str, required=True)],
        responses={**CALENDAR_ANSWER, 404: PROBLEM},
    )
)
class CalendarFeedView(CalendarView):
    authentication_classes: list[type] = []

    def get(self, request: Request) -> HttpResponse:
        player = calendar_feeds.feed_owner(request.query_params.get("key", ""))
        if player is None:
            raise LeagueError("unknown_calendar", "There is no such calendar address.")
        return _ics(calendars.player_calendar(player, _origin(request)), "my-rounds.ics")


@extend_schema_view(
    post=extend_schema(
        tags=["leagues"],
        operation_id="competition_entrants_import",
        description='Register entrants from a CSV file (`text/csv`, or JSON `{"csv"}`): '
        "every line is checked first; one refused line and nothing is written (400 "
        "`invalid_lines`, each line with its reason). Each entrant's players are invited "
        "and accept as for a registration.",
        request={
            "text/csv": OpenApiTypes.STR,
            "application/json": bodies.EntrantImportSerializer,
        },
        responses={
            201: bodies.EntrantImportResultSerializer,
            400: bodies.EntrantImportRefusalSerializer,
            **{k: v for k, v in WRITE_ERRORS.items() if k != 400},
        },
    )
)
class EntrantImportView(LeaguesView):
    parser_classes = [SafeJSONParser, CsvParser]
    max_upload_bytes = MAX_IMPORT_BYTES

    def post(self, request: Request, competition_id: str) -> Response:
        data: Any = request.data
        if isinstance(data, bytes) or request.content_type.startswith("text/csv"):
            raw = data if isinstance(data, bytes) else b""  # DRF reads no empty body
        else:
            body = bodies.EntrantImportSerializer(data=data)
            if not body.is_valid():
                raise LeagueError(
                    "invalid",
                    f'Send the file as text/csv, or JSON {{"csv": text of at most '
                    f"{MAX_IMPORT_BYTES // 1024} KiB}}.",
                )
            raw = body.validated_data["csv"].encode("utf-8", "surrogatepass")
        try:
            state, imported = entrant_import.import_entrants(request.user, competition_id, raw)
        except ImportRefused as refused:
            raise ApiProblem(
                status_code=400,
                code=refused.code,
                message=refused.message,
                lines=[r.as_dict() for r in refused.refusals],
            ) from None
        body_out = {"imported": imported, "competition": reads.overview(state.competition_id)}
        return Response(body_out, status=201)


# ---------------------------------------------------------------- duplicate


@read(
    "competition_duplicate",
    "A duplicate competition: its standings by matchpoints or IMPs (`scale`: a what-if "
    "on the other scale) over the revealed boards, and each round's boards.",
    parameters=[OpenApiParameter("scale", str, enum=list(DUPLICATE_SCALES), required=False)],
)
class DuplicateView(LeaguesView):
    def get_throttles(self) -> list[Any]:
        return [WhatIfThrottle()] if "scale" in self.request.query_params else []

    def get(self, request: Request, competition_id: str) -> Response:
        answer = duplicate_reads.standings(competition_id, request.query_params.get("scale"))
        return Response(answer)


@read(
    "competition_round_boards",
    "A duplicate round's boards: number, dealer and commitment; once every table has "
    "finished them and they are revealed, each board's seed, deck and par.",
)
class RoundBoardsView(LeaguesView):
    def get(self, request: Request, competition_id: str, number: int) -> Response:
        return Response(duplicate_reads.round_boards(competition_id, number))


@read(
    "competition_board_traveller",
    "A board's traveller: every table's bids, tricks and score, matchpoints and IMPs, and "
    "par (409 `board_open` while any table of the round may still play it).",
)
class TravellerView(LeaguesView):
    def get(self, request: Request, competition_id: str, number: int, board: int) -> Response:
        return Response(duplicate_reads.board_traveller(competition_id, number, board))


@write(
    "competition_board_correct",
    "An organiser corrects one table's result on a revealed board (bids and tricks by "
    "seat, and a reason): `BoardResultCorrected`, re-scored under the pinned preset; 201 "
    "the board's traveller (409 `board_open` before the reveal, `no_change`; 404 "
    "`unknown_table`; 400 `invalid` for bids or tricks a board cannot have).",
)
class BoardCorrectionView(CommandView):
    body = BoardCorrectionSerializer
    creates = True

    def run(self, user: Any, body: Any, competition_id: str, number: int, board: int) -> Any:
        return duplicate_services.correct_board(user, competition_id, number, board, body)

    def render(self, outcome: Any, **path: Any) -> Any:
        return duplicate_reads.board_traveller(
            path["competition_id"], path["number"], path["board"]
        )


@write(
    "competition_board_again",
    "Play this board again: a new table dealing this revealed board (one hand) with the "
    "caller at `seat` and computer players at the others (201 the table: `table_id`); "
    "409 `board_open` before the board is revealed, nothing created.",
)
class BoardAgainView(CommandView):
    body = BoardAgainSerializer
    creates = True

    def run(
        self, user: Any, seat: Any, competition_id: str, number: int, board: int
    ) -> dict[str, Any]:
        try:
            result = board_again.play_board_again(
                user, competition_id, number, board, seat, command_id_from(self.request)
            )
        except CommandRejected as refused:
            raise ApiProblem(
                status_code=refused.status, code=refused.code, message=refused.message
            ) from None
        return {
            "table_id": str(result.table_id),
            "round": number,
            "board": board,
            "seat": seat,
            "level": board_again.LEVEL,
        }

    def render(self, outcome: Any, **path: Any) -> Any:
        return outcome


@read(
    "competition_board_again_result",
    "Where a board played again would have ranked among the round's tables on it: "
    "matchpoints, IMPs against the field and against par, and the place (`finished` "
    "false while its hand is played).",
)
class BoardAgainResultView(LeaguesView):
    def get(
        self, request: Request, competition_id: str, number: int, board: int, table_id: str
    ) -> Response:
        answer = duplicate_reads.board_again_result(competition_id, number, board, table_id)
        return Response(answer)


@read(
    "competition_board_par_play",
    "Par play `play` (from 1) of a revealed board, played again on the server from the "
    "board's revealed seed and the play's seed by the recorded bot version and checked "
    "against its recorded score: `{board, play, bot_version, hand, result}` in a replay's "
    "shape (409 `board_open` before the reveal; 404 `unknown_par`; throttled as a what-if).",
)
class ParPlayView(LeaguesView):
    def get_throttles(self) -> list[Any]:
        return [WhatIfThrottle()]

    def get(
        self, request: Request, competition_id: str, number: int, board: int, play: int
    ) -> Response:
        return Response(duplicate_services.replay_par_play(competition_id, number, board, play))
