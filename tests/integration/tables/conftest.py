"""Fixtures for the tables' integration tests (real PostgreSQL; events are never flushed,
so every test works on fresh tables)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from games.services import table_state
from tests.factories import UserFactory


@pytest.fixture(autouse=True)
def fresh_state_cache() -> Iterator[None]:
    table_state.forget()
    yield
    table_state.forget()


@pytest.fixture
def users(db: None) -> dict[int, object]:
    """Four players, by seat index."""
    return {seat: UserFactory() for seat in range(4)}


@pytest.fixture(autouse=True)
def fast_password_hashing(settings: object) -> None:
    # PBKDF2's deliberate slowness costs ~0.5 s per user on a loaded 2-core machine.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # type: ignore[attr-defined]
