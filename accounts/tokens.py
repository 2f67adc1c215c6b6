"""API tokens: issued at login or registration, valid ``API_TOKEN_TTL_DAYS``, revocable.

One token per user (DRF's ``authtoken``), dated by its ``created`` field. A token past its
lifetime authenticates nothing (REST: 401 ``token_expired``; WebSocket: refused as not
authenticated) and the next login replaces it; logging out deletes it.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from rest_framework.authtoken.models import Token


def token_lifetime() -> timedelta:
    return timedelta(days=settings.API_TOKEN_TTL_DAYS)


def is_expired(token: Token) -> bool:
    """Whether ``token`` is past its lifetime."""
    return bool(token.created + token_lifetime() <= timezone.now())


def active_token(user: Any) -> str:
    """The user's API token: the one they have, or a new one if it is missing or expired."""
    with transaction.atomic():
        token = Token.objects.select_for_update().filter(user=user).first()
        if token is not None and is_expired(token):
            token.delete()
            token = None
        if token is None:
            token = Token.objects.create(user=user)
    return str(token.key)


def revoke_token(user: Any) -> bool:
    """Delete the user's API token; whether there was one."""
    deleted, _ = Token.objects.filter(user=user).delete()
    return deleted > 0
