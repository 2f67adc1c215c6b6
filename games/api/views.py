"""``/api/tables``: create, list, read, and one endpoint per command.

Each view parses the request with a serializer, calls one service or selector and renders
its result; rules and permissions to act for a seat live in ``games.services``.
"""

from __future__ import annotations

from typing import Any, ClassVar
from uuid import UUID

from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.exceptions import NotAuthenticated
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.api import presenters
from games.api.errors import DomainErrorsMixin
from games.api.idempotency import command_id_from
from games.api.serializers import (
    BidSerializer,
    CommandResultSerializer,
    CommandSerializer,
    CreateTableSerializer,
    EventsPageSerializer,
    EventsQuerySerializer,
    GameRecordSerializer,
    HandToBotSerializer,
    LookSerializer,
    PassSerializer,
    PlaySerializer,
    SeatInvitationsSerializer,
    TableViewSerializer,
    TakeSeatSerializer,
)
from games.selectors import invitations as seat_invitations
from games.selectors import tables as table_listing
from games.selectors import visibility as table_selectors
from games.services import table_commands
from games.services.errors import CommandRejected
from games.services.export import export_table
from services.api.etags import conditional_read
from services.api.schema import IDEMPOTENCY_KEY, PROBLEM
from services.api.throttles import CommandThrottle, InvitationGuessThrottle

COMMAND_ERRORS = {code: PROBLEM for code in (400, 401, 403, 404, 409, 429)}
READ_ERRORS = {400: PROBLEM, 404: PROBLEM}


def viewer_of(request: Request) -> Any:
    """The user a view is filtered for; None for an anonymous spectator."""
    return request.user if request.user.is_authenticated else None


class TableListView(DomainErrorsMixin, APIView):
    """``GET`` lists tables (newest first, paged); ``POST`` creates one."""

    def get_permissions(self) -> list[Any]:
        return [AllowAny()] if self.request.method == "GET" else [IsAuthenticated()]

    @extend_schema(
        operation_id="tables_list",
        parameters=[presenters.TableListQuerySerializer],
        responses={200: presenters.TablePageSerializer, 400: PROBLEM, 401: PROBLEM},
        tags=["tables"],
    )
    def get(self, request: Request) -> Response:
        query = presenters.TableListQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        player_id = None
        if query.validated_data["mine"]:
            if not request.user.is_authenticated:
                raise NotAuthenticated("Log in to list your own tables.")
            player_id = request.user.id
        page = table_listing.table_page(
            page=query.validated_data["page"],
            status=query.validated_data.get("status"),
            player_id=player_id,
        )
        return Response(presenters.table_page(page, viewer_of(request)))

    @extend_schema(
        operation_id="tables_create",
        request=CreateTableSerializer,
        parameters=[IDEMPOTENCY_KEY],
        responses={201: CommandResultSerializer, **COMMAND_ERRORS, 429: PROBLEM},
        tags=["tables"],
    )
    def post(self, request: Request) -> Response:
        serializer = CreateTableSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        result = table_commands.create_table(
            actor=request.user,
            command_id=command_id_from(request),
            **serializer.table_options(),
        )
        return Response(
            presenters.command_result(result, viewer_of(request)), status=status.HTTP_201_CREATED
        )


class TableDetailView(DomainErrorsMixin, APIView):
    """The table as the viewer may see it, with its version."""

    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="tables_retrieve",
        responses={200: TableViewSerializer, **READ_ERRORS},
        tags=["tables"],
    )
    def get(self, request: Request, table_id: UUID) -> Response:
        viewer = viewer_of(request)
        # The version this viewer is shown (a delayed spectator's prefix, never the live
        # one): a poll while it has not moved is answered 304 without building the view.
        return conditional_read(
            request,
            table_selectors.visible_version(table_id, viewer),
            lambda: table_selectors.table_view(table_id, viewer),
        )


class TableEventsView(DomainErrorsMixin, APIView):
    """The table's events as the viewer may see them, oldest first, paged by version."""

    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="tables_events",
        parameters=[EventsQuerySerializer],
        responses={200: EventsPageSerializer, **READ_ERRORS},
        tags=["tables"],
    )
    def get(self, request: Request, table_id: UUID) -> Response:
        query = EventsQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        limit = query.validated_data["limit"]
        events = table_selectors.events_for_viewer(
            table_id,
            viewer_of(request),
            after_version=query.validated_data["after"],
            limit=limit + 1,
        )
        return Response(presenters.events_page(events, limit))


class TableExportView(DomainErrorsMixin, APIView):
    """The game record of the table's complete hands, ending with the stream's head hash."""

    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="tables_export",
        responses={200: GameRecordSerializer, **READ_ERRORS},
        tags=["tables"],
    )
    def get(self, request: Request, table_id: UUID) -> Response:
        viewer = viewer_of(request)
        return Response(
            export_table(table_id, up_to=table_selectors.visible_version(table_id, viewer))
        )


class CommandView(DomainErrorsMixin, APIView):
    """One table command: ``command`` is its dataclass in ``games.services.table_commands``."""

    permission_classes = [IsAuthenticated]
    throttle_classes = [CommandThrottle]
    command: ClassVar[type[table_commands.TableCommand]]
    request_serializer: ClassVar[type[CommandSerializer]] = CommandSerializer

    def post(self, request: Request, table_id: UUID, seat: int | None = None) -> Response:
        serializer = self.request_serializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        arguments = dict(serializer.validated_data)
        expected_version = arguments.pop("expected_version", None)
        if seat is not None:
            arguments["seat"] = seat
        try:
            result = table_commands.execute(
                type(self).command(table_id=table_id, **arguments),
                request.user,
                expected_version=expected_version,
                command_id=command_id_from(request),
            )
        except CommandRejected as refused:
            if refused.code == "invitation_required":
                InvitationGuessThrottle().record_refusal(request, self)
            raise
        return Response(presenters.command_result(result, viewer_of(request)))


def command_view(
    command: type[table_commands.TableCommand],
    serializer: type[CommandSerializer],
    summary: str,
    throttles: list[Any] | None = None,
) -> type[CommandView]:
    """A :class:`CommandView` for ``command`` with its own OpenAPI operation."""

    # A fresh function per view: extend_schema annotates the function object itself.
    def post(
        self: CommandView, request: Request, table_id: UUID, seat: int | None = None
    ) -> Response:
        return CommandView.post(self, request, table_id, seat)

    documented_post = extend_schema(
        operation_id=f"tables_{command.name}",
        summary=summary,
        request=serializer,
        parameters=[IDEMPOTENCY_KEY],
        responses={200: CommandResultSerializer, **COMMAND_ERRORS},
        tags=["commands"],
    )(post)
    name = "".join(part.title() for part in command.name.split("_")) + "View"
    return type(
        name,
        (CommandView,),
        {
            "command": command,
            "request_serializer": serializer,
            "throttle_classes": throttles or CommandView.throttle_classes,
            "post": documented_post,
            "__doc__": summary,
            "__module__": __name__,
        },
    )


# Refused takes of a seat kept for a friend are counted per user (InvitationGuessThrottle)
# and, over the limit, answered 429 before anything is checked.
TakeSeatView = command_view(
    table_commands.TakeSeat,
    TakeSeatSerializer,
    "Sit down at a free human seat (a seat kept for a friend: with its invitation secret).",
    throttles=[CommandThrottle, InvitationGuessThrottle],
)


ReserveSeatView = command_view(
    table_commands.ReserveSeat,
    CommandSerializer,
    "Keep a free human seat for a friend (the table's creator): only its invite link seats.",
)
ReissueInvitationView = command_view(
    table_commands.ReissueInvitation,
    CommandSerializer,
    "Issue a new invite link for a kept seat (the creator): the old link stops working.",
)
RevokeInvitationView = command_view(
    table_commands.RevokeInvitation,
    CommandSerializer,
    "Revoke a kept seat's invite link (the creator): the seat stays kept, with no link.",
)


class SeatInvitationsView(DomainErrorsMixin, APIView):
    """The invite links of a table's kept seats: for its creator alone."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        operation_id="tables_invitations",
        responses={200: SeatInvitationsSerializer, 401: PROBLEM, **READ_ERRORS, 403: PROBLEM},
        tags=["tables"],
    )
    def get(self, request: Request, table_id: UUID) -> Response:
        response = Response(seat_invitations.seat_invitations(table_id, request.user))
        # Secrets: no cache along the way may keep them.
        response["Cache-Control"] = "no-store"
        return response


LeaveSeatView = command_view(
    table_commands.LeaveSeat, CommandSerializer, "Stand up before the game starts."
)
StartGameView = command_view(
    table_commands.StartGame, CommandSerializer, "Start the game once every seat is filled."
)
LookView = command_view(
    table_commands.LookAtCards, LookSerializer, "Look at your cards (gives up a blind nil bid)."
)
BidView = command_view(table_commands.PlaceBid, BidSerializer, "Bid 0-13, 'nil' or 'blind_nil'.")
PassView = command_view(
    table_commands.PassCards, PassSerializer, "Pass two cards to partner after a blind nil bid."
)
PlayView = command_view(
    table_commands.PlayCard, PlaySerializer, "Play a card to the current trick."
)
HandToBotView = command_view(
    table_commands.HandSeatToBot, HandToBotSerializer, "Let a bot play your seat from now on."
)
AbandonView = command_view(
    table_commands.AbandonTable,
    CommandSerializer,
    "Give the table up (its creator, while no other player sits at it).",
)
ReclaimView = command_view(
    table_commands.TakeSeatBack, CommandSerializer, "Play your seat yourself again."
)
