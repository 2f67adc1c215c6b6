"""API tokens expire (``API_TOKEN_TTL_DAYS``) and can be revoked (POST /api/auth/logout)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from tests.integration.api.conftest import PASSWORD

pytestmark = pytest.mark.django_db


def age_token(user: Any, days: float) -> None:
    """Back-date the user's token through the model (as nothing in the platform does: a
    token is issued and deleted, never re-dated), so the web's token cache forgets it like
    any change to the row (``accounts.token_cache``)."""
    token = Token.objects.get(user=user)
    token.created = timezone.now() - timedelta(days=days)
    token.save(update_fields=["created"])


def test_an_expired_token_is_refused_with_401(
    settings: Any, make_client: Callable[..., APIClient]
) -> None:
    settings.API_TOKEN_TTL_DAYS = 30
    alice = make_client("alice")
    age_token(alice.user, 29.9)  # type: ignore[attr-defined]
    assert alice.get("/api/auth/me").status_code == 200

    age_token(alice.user, 30.01)  # type: ignore[attr-defined]
    response = alice.get("/api/auth/me")

    assert response.status_code == 401
    assert response.json()["code"] == "token_expired"
    assert "log in again" in response.json()["message"]
    assert response["WWW-Authenticate"] == "Token"


def test_logging_in_after_expiry_issues_a_new_token(
    make_client: Callable[..., APIClient],
) -> None:
    alice = make_client("alice")
    old = Token.objects.get(user=alice.user).key  # type: ignore[attr-defined]
    age_token(alice.user, 365)  # type: ignore[attr-defined]

    response = APIClient().post(
        "/api/auth/token", {"username": "alice", "password": PASSWORD}, format="json"
    )

    new = response.json()["token"]
    assert response.status_code == 200 and new != old
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {new}")
    assert client.get("/api/auth/me").json()["username"] == "alice"


def test_logout_revokes_the_token(make_client: Callable[..., APIClient]) -> None:
    alice = make_client("alice")

    response = alice.post("/api/auth/logout")

    assert response.status_code == 204
    assert not Token.objects.filter(user=alice.user).exists()  # type: ignore[attr-defined]
    after = alice.get("/api/auth/me")
    assert after.status_code == 401
    assert after.json()["code"] == "authentication_failed"
    # Logging in again gives a fresh token.
    again = APIClient().post(
        "/api/auth/token", {"username": "alice", "password": PASSWORD}, format="json"
    )
    assert again.status_code == 200


def test_logout_needs_authentication(anonymous: APIClient) -> None:
    response = anonymous.post("/api/auth/logout")

    assert response.status_code == 401
    assert response.json()["code"] == "not_authenticated"


def test_logout_ends_a_session_login_too(make_client: Callable[..., APIClient]) -> None:
    make_client("alice")
    client = APIClient(enforce_csrf_checks=False)
    assert client.login(username="alice", password=PASSWORD)

    assert client.post("/api/auth/logout").status_code == 204

    assert client.get("/api/auth/me").status_code in {401, 403}


def test_logout_is_in_the_openapi_schema(anonymous: APIClient) -> None:
    schema = anonymous.get("/api/schema/?format=json").json()

    operation = schema["paths"]["/api/auth/logout"]["post"]
    assert operation["operationId"] == "auth_logout"
    assert set(operation["responses"]) >= {"204", "401"}
    assert "429" in schema["paths"]["/api/auth/token"]["post"]["responses"]
