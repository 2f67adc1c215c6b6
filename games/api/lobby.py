"""The lobby's API, one request per use case: a quick game against computer players, and a
table for friends with the caller already seated."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema, extend_schema_view
from rest_framework import serializers, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.api import presenters
from games.api.errors import DomainErrorsMixin
from games.api.idempotency import command_id_from
from games.api.serializers import CommandResultSerializer, CreateTableSerializer
from games.api.views import COMMAND_ERRORS
from games.engine.seats import SEAT_NAMES
from games.services.seated_table import SeatedTable, open_friends_table, start_quick_game
from services.api.schema import IDEMPOTENCY_KEY


class QuickGameSerializer(CreateTableSerializer):
    seat = serializers.ChoiceField(
        choices=SEAT_NAMES, default="south", help_text="Where the caller sits."
    )


class FriendsTableSerializer(QuickGameSerializer):
    invited = serializers.ListField(
        child=serializers.ChoiceField(choices=SEAT_NAMES),
        required=False,
        default=list,
        max_length=3,
        allow_empty=True,
        help_text="Other human seats to keep for friends: each is taken only with the "
        "secret of its invite link (GET /api/tables/{id}/invitations, the creator's).",
    )

    def validate_invited(self, value: list[str]) -> list[str]:
        if len(set(value)) != len(value):
            raise serializers.ValidationError("Name each kept seat once.")
        return value


class _SeatedTableView(DomainErrorsMixin, APIView):
    """POST: one use case of ``games.services.seated_table``, the caller seated."""

    permission_classes = [IsAuthenticated]
    use_case: Any
    serializer: Any = QuickGameSerializer

    def post(self, request: Request) -> Response:
        serializer = type(self).serializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        extra = {}
        if "invited" in serializer.validated_data:
            extra["invited"] = serializer.validated_data["invited"]
        result = type(self).use_case(
            SeatedTable(
                actor=request.user,
                seat=serializer.validated_data["seat"],
                command_id=command_id_from(request),
                **serializer.table_options(),
                **extra,
            )
        )
        return Response(
            presenters.command_result(result, request.user), status=status.HTTP_201_CREATED
        )


def _schema(operation_id: str, request: Any = QuickGameSerializer) -> Any:
    return extend_schema_view(
        post=extend_schema(
            operation_id=operation_id,
            request=request,
            parameters=[IDEMPOTENCY_KEY],
            responses={201: CommandResultSerializer, **COMMAND_ERRORS},
            tags=["tables"],
        )
    )


@_schema("tables_quick_game")
class QuickGameView(_SeatedTableView):
    """Create a table with three computer players, take the caller's seat and start it."""

    use_case = staticmethod(start_quick_game)


@_schema("tables_friends_table", FriendsTableSerializer)
class FriendsTableView(_SeatedTableView):
    """Create a table with seats left for friends and sit the caller, or write nothing."""

    use_case = staticmethod(open_friends_table)
    serializer = FriendsTableSerializer
