"""``GET /api/audit/digest``: the public digest over every stream head (no auth)."""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from eventstore.verification import digest

MAX_AS_OF = 2**63 - 1


class DigestQuery(serializers.Serializer[dict[str, int]]):
    as_of = serializers.IntegerField(required=False, min_value=1, max_value=MAX_AS_OF)


class AuditDigestView(APIView):
    """Digest over every stream head; keep it, and compare later with ``?as_of=``."""

    permission_classes = [AllowAny]
    authentication_classes: list[type] = []

    @extend_schema(
        parameters=[
            OpenApiParameter(
                "as_of",
                OpenApiTypes.INT,
                description="Recompute the digest as of an earlier answer's as_of",
            )
        ],
        responses={
            200: inline_serializer(
                "AuditDigest",
                fields={
                    "streams": serializers.IntegerField(),
                    "events": serializers.IntegerField(),
                    "digest": serializers.CharField(),
                    "as_of": serializers.IntegerField(),
                    "algorithm": serializers.CharField(),
                },
            )
        },
    )
    def get(self, request: Request) -> Response:
        query = DigestQuery(data=request.query_params)
        query.is_valid(raise_exception=True)
        return Response(digest(as_of=query.validated_data.get("as_of")))
