"""/api/auth/: registration, token, me."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from .conftest import PASSWORD

pytestmark = pytest.mark.django_db


def test_register_returns_a_token_that_authenticates(anonymous: APIClient) -> None:
    response = anonymous.post(
        "/api/auth/register",
        {"username": "bob", "password": PASSWORD, "email": "bob@example.org"},
        format="json",
    )

    assert response.status_code == 201, response.content
    body = response.json()
    assert body["user"]["username"] == "bob"
    assert body["user"]["is_staff"] is False
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {body['token']}")
    me = client.get("/api/auth/me")
    assert me.status_code == 200
    assert me.json()["username"] == "bob"


def test_register_without_email(anonymous: APIClient) -> None:
    response = anonymous.post(
        "/api/auth/register", {"username": "carol", "password": PASSWORD}, format="json"
    )

    assert response.status_code == 201, response.content
    assert response.json()["user"]["email"] == ""


@pytest.mark.parametrize(
    ("payload", "field"),
    [
        ({"password": PASSWORD}, "username"),
        ({"username": "dave"}, "password"),
        ({"username": "dave", "password": "123"}, "password"),
        ({"username": "dave", "password": PASSWORD, "email": "not-an-email"}, "email"),
        ({"username": "bad name!", "password": PASSWORD}, "username"),
    ],
)
def test_register_names_the_bad_field_and_creates_nothing(
    anonymous: APIClient, payload: dict[str, str], field: str
) -> None:
    response = anonymous.post("/api/auth/register", payload, format="json")

    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "invalid"
    assert field in body["fields"]
    assert body["message"].startswith(f"{field}: ")
    assert not get_user_model().objects.exists()


def test_register_refuses_a_taken_username_in_any_case(anonymous: APIClient) -> None:
    get_user_model().objects.create_user(username="Erin", password=PASSWORD)

    response = anonymous.post(
        "/api/auth/register", {"username": "erin", "password": PASSWORD}, format="json"
    )

    assert response.status_code == 400
    assert response.json()["fields"]["username"] == ["That username is taken."]
    assert get_user_model().objects.count() == 1


def test_register_refuses_malformed_json(anonymous: APIClient) -> None:
    response = anonymous.post(
        "/api/auth/register", data="{not json", content_type="application/json"
    )

    assert response.status_code == 400
    assert response.json()["code"] == "parse_error"


def test_obtain_token_with_credentials(anonymous: APIClient) -> None:
    user = get_user_model().objects.create_user(username="frank", password=PASSWORD)

    response = anonymous.post(
        "/api/auth/token", {"username": "frank", "password": PASSWORD}, format="json"
    )
    again = anonymous.post(
        "/api/auth/token", {"username": "frank", "password": PASSWORD}, format="json"
    )

    assert response.status_code == 200
    assert response.json()["user"]["id"] == user.pk
    assert response.json()["token"] == again.json()["token"]


def test_obtain_token_with_wrong_password_is_refused(anonymous: APIClient) -> None:
    get_user_model().objects.create_user(username="grace", password=PASSWORD)

    response = anonymous.post(
        "/api/auth/token", {"username": "grace", "password": "wrong"}, format="json"
    )

    assert response.status_code == 400
    assert response.json()["code"] == "invalid_credentials"


def test_me_needs_authentication(anonymous: APIClient) -> None:
    response = anonymous.get("/api/auth/me")

    assert response.status_code == 401
    assert response.json()["code"] == "not_authenticated"


def test_me_rejects_a_bad_token() -> None:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION="Token nope")

    response = client.get("/api/auth/me")

    assert response.status_code == 401
    assert response.json()["code"] == "authentication_failed"


def test_session_authentication_works_for_me(alice: APIClient) -> None:
    client = APIClient()
    assert client.login(username="alice", password=PASSWORD)

    response = client.get("/api/auth/me")

    assert response.status_code == 200
    assert response.json()["username"] == "alice"


@pytest.mark.parametrize(
    "extra",
    [{"is_staff": True}, {"is_superuser": True}, {"nickname": "d"}, {"emial": "d@example.org"}],
)
def test_register_refuses_unknown_fields_and_creates_nothing(
    anonymous: APIClient, extra: dict[str, object]
) -> None:
    payload = {"username": "dave", "password": PASSWORD, **extra}

    response = anonymous.post("/api/auth/register", payload, format="json")

    assert response.status_code == 400, response.content
    body = response.json()
    assert body["code"] == "invalid"
    assert f"Unknown field: {next(iter(extra))}" in body["message"]
    assert not get_user_model().objects.filter(username="dave").exists()
