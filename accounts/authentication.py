"""DRF's token authentication, refusing tokens past their lifetime (``accounts.tokens``),
answered from this process's recent resolutions when it can (``accounts.token_cache``:
the bound on how long a revoked token may still pass is stated there)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _
from rest_framework import exceptions
from rest_framework.authentication import TokenAuthentication

from accounts.token_cache import tokens_seen
from accounts.tokens import is_expired


class ExpiringTokenAuthentication(TokenAuthentication):
    """``Authorization: Token KEY``; an expired key answers 401 ``token_expired``."""

    def authenticate_credentials(self, key: str) -> tuple[Any, Any]:
        found = tokens_seen.found(key)
        if found is None:
            generation = tokens_seen.begin()
            user, token = super().authenticate_credentials(key)
            tokens_seen.keep(key, token, generation)
        else:
            user, token = found
            if not user.is_active:  # as DRF's own check (only active users are kept)
                raise exceptions.AuthenticationFailed(_("User inactive or deleted."))
        if is_expired(token):
            raise exceptions.AuthenticationFailed(
                "The token has expired; log in again (POST /api/auth/token) for a new one.",
                code="token_expired",
            )
        return user, token
