"""Registering a player: one user and one API token, in one transaction."""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from rest_framework.authtoken.models import Token

from accounts.tokens import active_token


@dataclass(frozen=True)
class Registration:
    """A freshly registered player and the token they authenticate with."""

    user: AbstractBaseUser
    token: str


def register_player(*, username: str, password: str, email: str = "") -> Registration:
    """Create a non-staff player account and its API token.

    The caller has already validated the username (free, well-formed) and the password
    (Django's password validators); this only writes.
    """
    user_model = get_user_model()
    with transaction.atomic():
        user = user_model._default_manager.create_user(  # type: ignore[attr-defined]
            username=username, password=password, email=email
        )
        token, _ = Token.objects.get_or_create(user=user)
    return Registration(user=user, token=token.key)


def token_for(user: AbstractBaseUser) -> str:
    """The user's API token, created on first use and renewed once it expired."""
    return active_token(user)
