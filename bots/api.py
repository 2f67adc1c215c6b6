"""The bid suggestion endpoint: the browser client's one JSON helper the REST API does not
have (``GET /api/tables/<id>/suggestion``)."""

from __future__ import annotations

from uuid import UUID

from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from bots.selectors import bid_suggestion
from games.api.errors import DomainErrorsMixin
from services.api.schema import PROBLEM

SUGGESTION = inline_serializer(
    "BidSuggestion",
    {
        "version": serializers.IntegerField(),
        "seat": serializers.CharField(),
        "bid": serializers.JSONField(help_text='0-13 or "nil"'),
        "counted": serializers.ListField(child=serializers.CharField()),
        "marks": serializers.ChoiceField(
            choices=["counted", "best_chance", "none"],
            help_text="what the cards in counted are: the cards counted towards the bid, "
            "the card most likely to take a trick (nothing counted), or none (nil)",
        ),
        "reason": serializers.CharField(help_text="why this bid, in words"),
    },
)


class BidSuggestionView(DomainErrorsMixin, APIView):
    """Normal's bid for the caller's seat and the cards it counted (caller's turn only)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        operation_id="tables_bid_suggestion",
        responses={200: SUGGESTION, 401: PROBLEM, 403: PROBLEM, 404: PROBLEM, 409: PROBLEM},
        tags=["tables"],
    )
    def get(self, request: Request, table_id: UUID) -> Response:
        return Response(bid_suggestion(table_id, request.user))
