"""``/api/tables/<id>/replay`` and ``/api/tables/<id>/verification``: the auditor's reads.

Public, like every read of a table: the replay holds finished hands only (their cards are
public), the verification says whether the stored history holds. Each view calls one
selector and renders it; its routes are included from ``games.api.urls``.
"""

from __future__ import annotations

from uuid import UUID

from django.urls import path
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.api.errors import DomainErrorsMixin
from games.api.views import viewer_of
from games.selectors.replay import table_replay
from games.selectors.verification import table_verification
from services.api.schema import PROBLEM

REPLAY = inline_serializer(
    "TableReplay",
    {
        "record": serializers.JSONField(help_text="the export: the game record of finished hands"),
        "hands": serializers.ListField(
            child=serializers.JSONField(),
            help_text="per record hand: number, tricks, trick_winners and each team's result",
        ),
        "seats": serializers.ListField(child=serializers.JSONField()),
        "hand_in_play": serializers.IntegerField(allow_null=True),
        "totals": serializers.JSONField(),
        "winner": serializers.CharField(allow_null=True),
    },
)
VERIFICATION = inline_serializer(
    "TableVerification",
    {
        "verified": serializers.BooleanField(),
        "checks": serializers.ListField(
            child=serializers.JSONField(), help_text="{name, status: passed|failed|pending, detail}"
        ),
        "problem": serializers.JSONField(allow_null=True),
        "version": serializers.IntegerField(),
        "head_hash": serializers.CharField(),
    },
)


class TableReplayView(DomainErrorsMixin, APIView):
    """The table's finished hands, face up, with trick winners and score breakdowns."""

    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="tables_replay",
        responses={200: REPLAY, 404: PROBLEM, 409: PROBLEM},
        tags=["tables"],
    )
    def get(self, request: Request, table_id: UUID) -> Response:
        return Response(table_replay(table_id, viewer_of(request)))


class TableVerificationView(DomainErrorsMixin, APIView):
    """Whether the table's hash chain holds and every deal matches its commitment."""

    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="tables_verification",
        responses={200: VERIFICATION, 404: PROBLEM},
        tags=["tables"],
    )
    def get(self, request: Request, table_id: UUID) -> Response:
        return Response(table_verification(table_id, viewer_of(request)))


urlpatterns = [
    path("tables/<uuid:table_id>/replay", TableReplayView.as_view(), name="table-replay"),
    path(
        "tables/<uuid:table_id>/verification",
        TableVerificationView.as_view(),
        name="table-verification",
    ),
]
