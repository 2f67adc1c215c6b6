"""DRF's token authentication, refusing tokens past their lifetime (``accounts.tokens``)."""

from __future__ import annotations

from typing import Any

from rest_framework import exceptions
from rest_framework.authentication import TokenAuthentication

from accounts.tokens import is_expired


class ExpiringTokenAuthentication(TokenAuthentication):
    """``Authorization: Token KEY``; an expired key answers 401 ``token_expired``."""

    def authenticate_credentials(self, key: str) -> tuple[Any, Any]:
        user, token = super().authenticate_credentials(key)
        if is_expired(token):
            raise exceptions.AuthenticationFailed(
                "The token has expired; log in again (POST /api/auth/token) for a new one.",
                code="token_expired",
            )
        return user, token
