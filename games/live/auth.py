"""WebSocket authentication by DRF token: ``ws/tables/<id>/?token=KEY``.

Browsers cannot set an ``Authorization`` header on a WebSocket, so the token travels in the
query string. Sits inside Channels' ``AuthMiddlewareStack`` (session login): a valid token
replaces the session user; an invalid one leaves the connection anonymous and records
``scope["auth_error"]`` so the consumer refuses it with a clear reason (a bad credential is
never silently downgraded to the session).
"""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qs

from channels.db import database_sync_to_async
from channels.middleware import BaseMiddleware
from django.contrib.auth.models import AnonymousUser
from rest_framework.authtoken.models import Token

from accounts.tokens import is_expired


def query_parameters(scope: dict[str, Any]) -> dict[str, list[str]]:
    """The connection's query string, decoded (repeated keys keep every value)."""
    raw = scope.get("query_string", b"")
    return parse_qs(raw.decode("latin-1"), keep_blank_values=True)


@database_sync_to_async
def user_for_token(key: str) -> Any:
    """The active user owning DRF token ``key``, or None (also once it expired or was
    revoked by logging out: ``accounts.tokens``)."""
    token = Token.objects.select_related("user").filter(key=key).first()
    if token is None or not token.user.is_active or is_expired(token):
        return None
    return token.user


class TokenAuthMiddleware(BaseMiddleware):
    """Authenticate ``?token=`` (DRF token) on WebSocket connections."""

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        tokens = query_parameters(scope).get("token")
        if tokens is not None:
            scope = dict(scope)
            key = tokens[-1].strip()
            user = await user_for_token(key) if 0 < len(key) <= 64 else None
            if user is None:
                scope["user"] = AnonymousUser()
                scope["auth_error"] = "The token is not valid."
            else:
                scope["user"] = user
        return await super().__call__(scope, receive, send)
