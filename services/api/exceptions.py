"""Every API error is JSON, including unexpected exceptions."""

from __future__ import annotations

import logging
from typing import Any

from django.http import JsonResponse
from rest_framework import status
from rest_framework.response import Response
from rest_framework.views import exception_handler

logger = logging.getLogger(__name__)


def json_exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    response = exception_handler(exc, context)
    if response is not None:
        return response
    logger.exception("Unhandled API error", exc_info=exc)
    return Response(
        {"detail": "Internal server error.", "code": "server_error"},
        status=status.HTTP_500_INTERNAL_SERVER_ERROR,
    )


def _is_api(request: Any) -> bool:
    return str(getattr(request, "path", "")).startswith("/api/")


def api_aware_404(request: Any, exception: Exception | None = None) -> Any:
    if _is_api(request):
        return JsonResponse(
            {"detail": "Not found.", "code": "not_found", "message": "Not found."}, status=404
        )
    from django.views.defaults import page_not_found

    return page_not_found(request, exception)


def api_aware_500(request: Any) -> Any:
    if _is_api(request):
        return JsonResponse(
            {
                "detail": "Internal server error.",
                "code": "server_error",
                "message": "Internal server error.",
            },
            status=500,
        )
    from django.views.defaults import server_error

    return server_error(request)
