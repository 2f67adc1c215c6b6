"""``POST /api/scoresheet``: score a paper game (the calculator's server side).

The body is a scoresheet document (``docs/formats.md``); the answer is the ledger summary
(each hand's team scores with breakdowns, totals, bags, winner). Nothing is stored.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from scoring.core.scoresheet import ScoresheetError, score_scoresheet
from services.api.errors import ApiProblem, ProblemHandlingMixin
from services.api.schema import PROBLEM

# A paper game is at most a few dozen hands; this keeps one request's work small.
MAX_HANDS = 200


class ScoresheetRequestSerializer(serializers.Serializer[Any]):
    """A scoresheet: rules (a preset name or ``{"preset": NAME, ...}``) and the hands."""

    rules = serializers.JSONField(required=False, help_text='"standard" or {"preset": ...}')
    hands = serializers.ListField(
        child=serializers.DictField(), help_text='[{"bids": {...}, "tricks": {...}}, ...]'
    )


class ScoresheetResultSerializer(serializers.Serializer[Any]):
    """The ledger: per hand both teams' ``hand_score``, ``total``, ``bags``, ``breakdown``."""

    hands = serializers.ListField(child=serializers.DictField())
    totals = serializers.DictField(child=serializers.IntegerField())
    winner = serializers.CharField(allow_null=True)
    finished_after_hand = serializers.IntegerField(allow_null=True)


def _refusal(message: str, hand: int | None) -> ApiProblem:
    return ApiProblem(
        status_code=status.HTTP_400_BAD_REQUEST, code="bad_scoresheet", message=message, hand=hand
    )


class ScoresheetView(ProblemHandlingMixin, APIView):
    """Score a scoresheet; a problem answers 400 with a message naming the hand."""

    permission_classes = [AllowAny]
    authentication_classes: list[type] = []

    @extend_schema(
        operation_id="scoresheet_score",
        request=ScoresheetRequestSerializer,
        responses={200: ScoresheetResultSerializer, 400: PROBLEM},
        tags=["scoring"],
        examples=[
            OpenApiExample(
                "One hand",
                request_only=True,
                value={
                    "rules": "standard",
                    "hands": [
                        {
                            "bids": {"north": 4, "east": "nil", "south": 3, "west": 5},
                            "tricks": {"north": 5, "east": 0, "south": 4, "west": 4},
                        }
                    ],
                },
            )
        ],
    )
    def post(self, request: Request) -> Response:
        document = request.data
        if isinstance(document, dict):
            hands = document.get("hands")
            if isinstance(hands, list) and len(hands) > MAX_HANDS:
                raise _refusal(f"A scoresheet has at most {MAX_HANDS} hands.", None)
        try:
            scored = score_scoresheet(document)
        except ScoresheetError as error:
            raise _refusal(error.message, error.hand) from None
        return Response(scored.as_dict())
