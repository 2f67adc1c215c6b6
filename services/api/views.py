"""API index and health check (the checks are ``services.health``'s)."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.reverse import reverse
from rest_framework.views import APIView

from services.health import check_database, check_redis

_check = inline_serializer(
    "HealthCheck",
    fields={"ok": serializers.BooleanField(), "error": serializers.CharField(required=False)},
)


class HealthView(APIView):
    """``GET /api/health``: 200 when PostgreSQL and Redis answer, 503 otherwise (kept for
    API clients; orchestrators ask ``/readyz``, which also checks migrations and the
    projections' lag)."""

    permission_classes = [AllowAny]
    authentication_classes: list[type] = []

    @extend_schema(
        responses={
            200: inline_serializer(
                "Health",
                fields={"status": serializers.CharField(), "db": _check, "redis": _check},
            ),
            503: None,
        }
    )
    def get(self, request: Request) -> Response:
        db = check_database()
        cache = check_redis()
        healthy = db["ok"] and cache["ok"]
        return Response(
            {"status": "ok" if healthy else "degraded", "db": db, "redis": cache},
            status=status.HTTP_200_OK if healthy else status.HTTP_503_SERVICE_UNAVAILABLE,
        )


class ApiIndexView(APIView):
    """``GET /api/``: links to the API's top-level resources."""

    permission_classes = [AllowAny]

    @extend_schema(responses={200: inline_serializer("ApiIndex", fields={})})
    def get(self, request: Request) -> Response:
        return Response(
            {
                "health": reverse("api-health", request=request),
                "schema": reverse("api-schema", request=request),
                "docs": reverse("api-docs", request=request),
            }
        )
