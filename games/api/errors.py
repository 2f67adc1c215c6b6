"""Domain refusals as API problems: the one mapping from service errors to HTTP."""

from __future__ import annotations

from django.core.exceptions import ObjectDoesNotExist
from rest_framework import status
from rest_framework.response import Response

from eventstore.errors import WrongExpectedVersion
from games.engine.errors import IllegalMove
from games.engine.rule_words import in_words
from games.engine.rules import RulesError
from games.services.errors import CommandRejected
from services.api.errors import ApiProblem, ProblemHandlingMixin

STALE_VERSION = "stale_version"


def problem_for(exc: Exception) -> ApiProblem | None:
    """The API problem a domain exception stands for, or None if it is not a domain one."""
    if isinstance(exc, WrongExpectedVersion):
        return ApiProblem(
            status_code=status.HTTP_409_CONFLICT,
            code=STALE_VERSION,
            message=(
                f"The table is at version {exc.current}, not {exc.expected}: "
                "reload it and decide again."
            ),
            current_version=exc.current,
        )
    if isinstance(exc, CommandRejected):
        if exc.current_version is not None and exc.status == status.HTTP_409_CONFLICT:
            # The services' version conflict: one stable code for clients to retry on.
            return ApiProblem(
                status_code=exc.status,
                code=STALE_VERSION,
                message=exc.message,
                current_version=exc.current_version,
            )
        return ApiProblem(status_code=exc.status, code=exc.code, message=exc.message)
    if isinstance(exc, IllegalMove):
        return ApiProblem(
            status_code=int(getattr(exc, "status", 400)), code=exc.code, message=exc.message
        )
    if isinstance(exc, RulesError):
        return ApiProblem(status_code=400, code="bad_rules", message=in_words(str(exc)))
    if isinstance(exc, ObjectDoesNotExist):
        return ApiProblem(status_code=404, code="not_found", message="No such resource.")
    return None


class DomainErrorsMixin(ProblemHandlingMixin):
    """Views whose services raise domain refusals answer them as ``{"code", "message"}``."""

    def handle_exception(self, exc: Exception) -> Response:
        problem = problem_for(exc)
        return super().handle_exception(problem or exc)  # type: ignore[misc]
