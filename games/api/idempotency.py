"""The ``Idempotency-Key`` header: the client's command id, scoped to the caller."""

from __future__ import annotations

import re

from rest_framework.request import Request

from services.api.errors import ApiProblem

HEADER = "Idempotency-Key"
_KEY = re.compile(r"^[\x21-\x7e]{1,100}$")


def command_id_from(request: Request) -> str | None:
    """The command id for the store, or None when the client sent no key.

    The key is prefixed with the caller's user id so one client can never replay (or
    collide with) another client's command by guessing its key.
    """
    key = request.headers.get(HEADER)
    if key is None:
        return None
    if not _KEY.match(key):
        raise ApiProblem(
            status_code=400,
            code="invalid",
            message=f"{HEADER}: 1 to 100 printable ASCII characters without spaces.",
            fields={HEADER: ["1 to 100 printable ASCII characters without spaces."]},
        )
    return f"user-{request.user.pk}:{key}"
