"""Fixtures for the admin pages: a signed-in superuser on Django's test client."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from tests.factories import AdminFactory


@pytest.fixture(autouse=True)
def fast_password_hashing(settings: Any) -> None:
    """PBKDF2 costs ~0.3 s a user; these tests are about the admin, not password storage."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def staff(db: Any) -> Any:
    return AdminFactory(username="preset-admin")


@pytest.fixture
def admin_page(staff: Any) -> Client:
    """A browser-like client signed in as a superuser (CSRF checks on, as in a browser)."""
    client = Client()
    client.force_login(staff)
    return client
