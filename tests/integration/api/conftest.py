"""Fixtures for the REST API tests: real PostgreSQL, requests through Django's test client."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

PASSWORD = "correct horse battery staple"


@pytest.fixture
def anonymous() -> APIClient:
    """A client without credentials: a spectator."""
    return APIClient()


@pytest.fixture
def make_client(db: Any) -> Callable[..., APIClient]:
    """A client authenticated by token as a new user named ``username``."""

    def make(username: str, *, staff: bool = False) -> APIClient:
        user = get_user_model().objects.create_user(
            username=username, password=PASSWORD, is_staff=staff
        )
        token, _ = Token.objects.get_or_create(user=user)
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
        client.user = user  # type: ignore[attr-defined]
        return client

    return make


@pytest.fixture
def alice(make_client: Callable[..., APIClient]) -> APIClient:
    return make_client("alice")


@pytest.fixture
def admin_client(make_client: Callable[..., APIClient]) -> APIClient:
    return make_client("admin", staff=True)
