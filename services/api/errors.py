"""The one error format of the player-facing API: ``{"code", "message", ...}``.

``code`` is a stable machine word (``invalid``, ``not_authenticated``, ``stale_version``,
an engine refusal code...), ``message`` a sentence a person can act on. Validation errors
add ``fields`` (DRF's per-field lists, so a client can point at each bad field) and name
the first bad field in ``message``; a rate limit (429 ``throttled``) adds ``retry_after``
(seconds, also in the ``Retry-After`` header). It is the project's DRF exception handler (settings);
:class:`ProblemHandlingMixin` pins it on views that must keep it whatever the settings say.
Unexpected exceptions still go through ``json_exception_handler`` (logged, a JSON 500).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from typing import Any

from django.core.exceptions import RequestDataTooBig, SuspiciousOperation
from rest_framework import exceptions, status
from rest_framework.response import Response

from services.api.exceptions import json_exception_handler


class ApiProblem(exceptions.APIException):
    """A refusal with its own status, code, message and extra JSON members."""

    def __init__(self, *, status_code: int, code: str, message: str, **extra: Any) -> None:
        super().__init__(detail=message, code=code)
        self.status_code = status_code
        self.problem_code = code
        self.message = message
        self.extra = extra


def problem_body(code: str, message: str, **extra: Any) -> dict[str, Any]:
    """An error body in the API's format."""
    return {"code": code, "message": message, **extra}


def _first_problem(detail: Any, path: tuple[str, ...] = ()) -> tuple[tuple[str, ...], str]:
    """The path and text of the first error inside a (nested) DRF validation detail."""
    if isinstance(detail, Mapping):
        for key, value in detail.items():
            return _first_problem(value, (*path, str(key)))
    elif isinstance(detail, list) and detail:
        return _first_problem(detail[0], path)
    return path, str(detail)


def _validation_body(detail: Any) -> dict[str, Any]:
    if not isinstance(detail, Mapping):
        detail = {"non_field_errors": detail if isinstance(detail, list) else [detail]}
    path, text = _first_problem(detail)
    named = [part for part in path if part != "non_field_errors"]
    message = f"{'.'.join(named)}: {text}" if named else text
    return problem_body("invalid", message, fields=detail)


def api_exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """Render any exception raised in an API view in the ``{"code", "message"}`` format."""
    if isinstance(exc, RequestDataTooBig):
        return Response(
            problem_body("request_too_large", "The request body is too large."),
            status=status.HTTP_413_REQUEST_ENTITY_TOO_LARGE,
        )
    if isinstance(exc, SuspiciousOperation):
        return Response(problem_body("bad_request", "Bad request."), status=400)
    if isinstance(exc, ApiProblem):
        return Response(
            problem_body(exc.problem_code, exc.message, **exc.extra), status=exc.status_code
        )
    response = json_exception_handler(exc, context)
    if response is None:
        return None
    if isinstance(exc, exceptions.Throttled):
        wait = max(1, math.ceil(exc.wait or 1))
        response["Retry-After"] = str(wait)
        response.data = problem_body(
            "throttled", f"Too many requests; try again in {wait} s.", retry_after=wait
        )
    elif isinstance(exc, exceptions.ValidationError):
        response.data = _validation_body(exc.detail)
    elif isinstance(exc, exceptions.APIException):
        detail = exc.detail
        code = getattr(detail, "code", None) or exc.default_code
        response.data = problem_body(str(code), str(detail))
    elif response.status_code == status.HTTP_500_INTERNAL_SERVER_ERROR:
        response.data = problem_body("server_error", "Internal server error.")
    return response


class ProblemHandlingMixin:
    """Use :func:`api_exception_handler` for this view's errors."""

    def get_exception_handler(self) -> Callable[[Exception, dict[str, Any]], Response | None]:
        return api_exception_handler
