"""A player's secret calendar address: issue (or replace), revoke, and find whose it is.

The secret is 256 random bits shown once; the row keeps its SHA-256 digest, so a leaked
database gives no working address. Looking a secret up by its digest leaks nothing by
timing: the digest of a guess says nothing about the digests stored.
"""

from __future__ import annotations

import hashlib
import secrets
from typing import Any

from django.db import transaction

from leagues.core.errors import LeagueError
from leagues.models import CalendarFeed

MAX_SECRET_LENGTH = 128


def _digest(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8", "surrogatepass")).hexdigest()


def _signed_in(user: Any) -> Any:
    if user is None or not user.is_authenticated:
        raise LeagueError("not_signed_in", "Sign in to manage your calendar address.")
    return user


def issue_feed(user: Any) -> str:
    """A new secret for the player's calendar address (the old one stops working)."""
    user = _signed_in(user)
    secret = secrets.token_urlsafe(32)
    with transaction.atomic():
        CalendarFeed.objects.update_or_create(user=user, defaults={"digest": _digest(secret)})
    return secret


def revoke_feed(user: Any) -> bool:
    """The player's calendar address stops working; whether there was one."""
    deleted, _ = CalendarFeed.objects.filter(user=_signed_in(user)).delete()
    return deleted > 0


def has_feed(user: Any) -> bool:
    return CalendarFeed.objects.filter(user=_signed_in(user)).exists()


def feed_owner(secret: str) -> str | None:
    """The player id whose calendar address this secret is, if any."""
    if not 0 < len(secret) <= MAX_SECRET_LENGTH:
        return None
    user_id = (
        CalendarFeed.objects.filter(digest=_digest(secret))
        .values_list("user_id", flat=True)
        .first()
    )
    return None if user_id is None else str(user_id)
