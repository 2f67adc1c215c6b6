"""Fixtures for the REST API tests: real PostgreSQL, requests through Django's test client."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

import pytest
from django.apps import apps
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from eventstore.models import Event
from tests.factories import AdminFactory, UserFactory

PASSWORD = "correct horse battery staple"


@pytest.fixture(autouse=True)
def fast_password_hashing(settings: Any) -> None:
    """PBKDF2 costs ~0.3 s a user; these tests are about the API, not password storage."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def token_client(user: Any) -> APIClient:
    """A client authenticated by ``user``'s API token (made when missing)."""
    token, _ = Token.objects.get_or_create(user=user)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    return client


@pytest.fixture
def anonymous() -> APIClient:
    """A client without credentials: a spectator."""
    return APIClient()


@pytest.fixture
def make_client(db: Any) -> Callable[..., APIClient]:
    """A client authenticated by token as a new user named ``username``."""

    def make(username: str, *, staff: bool = False) -> APIClient:
        factory = AdminFactory if staff else UserFactory
        user = factory(username=username, password=PASSWORD)
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


SEATS = ("north", "east", "south", "west")


def event_count() -> int:
    """Every stored event, all streams: the "nothing written" probe."""
    return Event.objects.count()


@pytest.fixture
def players(make_client: Callable[..., APIClient]) -> dict[str, APIClient]:
    """Four signed-in players, one per seat name."""
    return {seat: make_client(f"player_{seat}") for seat in SEATS}


@pytest.fixture
def new_table(alice: APIClient) -> Callable[..., dict[str, Any]]:
    """Create a table through the API as alice; returns the command result."""

    def create(**body: Any) -> dict[str, Any]:
        response = alice.post("/api/tables", body, format="json")
        assert response.status_code == 201, response.content
        return response.json()

    return create


@pytest.fixture
def started_table(
    new_table: Callable[..., dict[str, Any]], players: dict[str, APIClient]
) -> dict[str, Any]:
    """A started game with a human player at each seat; returns the table view (north's)."""
    table_id = new_table()["table_id"]
    for seat, client in players.items():
        response = client.post(f"/api/tables/{table_id}/seats/{seat}/take", {}, format="json")
        assert response.status_code == 200, response.content
    response = players["north"].post(f"/api/tables/{table_id}/start", {}, format="json")
    assert response.status_code == 200, response.content
    return response.json()["table"]


def table_as(client: APIClient, table_id: str) -> dict[str, Any]:
    response = client.get(f"/api/tables/{table_id}")
    assert response.status_code == 200, response.content
    return response.json()


@pytest.fixture
def builtin_presets(transactional_db: Any) -> None:
    """The presets migration ``scoring/0002`` seeds, for transactional tests.

    Another transactional test's teardown flush empties every table. A serialized
    rollback would restore the presets, but it also re-inserts the content types, which
    the flush's ``post_migrate`` has already re-created whenever that test was not itself
    serialized: a UniqueViolation that depended on the order tests ran in. So these tests
    seed the presets again, the migration's way (get_or_create, so idempotent).
    """
    importlib.import_module("scoring.migrations.0002_seed_presets").seed(apps, None)
