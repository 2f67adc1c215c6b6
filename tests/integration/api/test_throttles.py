"""Rate limits (services/api/throttles.py), counted in the real Redis: login per username
and address, login per address, registration per address, commands per user. Each test
sets small rates of its own; the counts start empty in every test (tests/conftest.py)."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from services.api.throttles import CommandThrottle, LoginThrottle, clear_throttle_counts
from tests.integration.api.conftest import PASSWORD

pytestmark = pytest.mark.django_db

GENEROUS = "1000/min"


@pytest.fixture
def rates(settings: Any) -> Callable[..., None]:
    def set_rates(**small: str) -> None:
        settings.THROTTLE_RATES = {
            scope: small.get(scope, GENEROUS) for scope in settings.THROTTLE_RATES
        }

    return set_rates


def login(username: str, password: str, address: str = "10.0.0.1", **headers: str) -> Any:
    return APIClient().post(
        "/api/auth/token",
        {"username": username, "password": password},
        format="json",
        REMOTE_ADDR=address,
        **headers,
    )


def assert_throttled(response: Any, window: int = 60) -> None:
    assert response.status_code == 429, response.content
    body = response.json()
    assert body["code"] == "throttled"
    wait = body["retry_after"]
    assert isinstance(wait, int) and 1 <= wait <= window
    assert body["message"] == f"Too many requests; try again in {wait} s."
    assert response["Retry-After"] == str(wait)


def test_password_guesses_for_one_account_are_limited_per_address(
    rates: Callable[..., None],
) -> None:
    rates(auth="3/min")
    get_user_model().objects.create_user(username="victim", password=PASSWORD)

    guesses = [login("victim", f"guess-{n}").status_code for n in range(3)]
    blocked = login("victim", PASSWORD)  # even the right password waits

    assert guesses == [400, 400, 400]
    assert_throttled(blocked)
    # The owner elsewhere, and another account from the guesser's address, still log in.
    assert login("victim", PASSWORD, address="10.0.0.2").status_code == 200
    get_user_model().objects.create_user(username="bystander", password=PASSWORD)
    assert login("bystander", PASSWORD).status_code == 200
    # The username counts whatever its case (usernames are unique case-insensitively).
    assert_throttled(login("VICTIM", PASSWORD))


def test_logins_from_one_address_are_limited_whatever_the_usernames(
    rates: Callable[..., None],
) -> None:
    rates(auth_ip="4/min")

    statuses = [login(f"nobody-{n}", "x").status_code for n in range(4)]

    assert statuses == [400] * 4
    assert_throttled(login("nobody-5", "x"))
    assert login("nobody-5", "x", address="10.0.0.9").status_code == 400


def test_a_forwarded_for_header_does_not_reset_the_count(rates: Callable[..., None]) -> None:
    """With no trusted proxy (the default) the TCP peer is the client: a client cannot
    make up addresses to get more guesses."""
    rates(auth="2/min")

    for n in range(2):
        login("victim", "x", HTTP_X_FORWARDED_FOR=f"192.0.2.{n}")

    assert_throttled(login("victim", "x", HTTP_X_FORWARDED_FOR="192.0.2.99"))


def test_registration_is_limited_per_address(rates: Callable[..., None]) -> None:
    rates(register="2/hour")

    def register(name: str, address: str = "10.0.1.1") -> Any:
        return APIClient().post(
            "/api/auth/register",
            {"username": name, "password": PASSWORD},
            format="json",
            REMOTE_ADDR=address,
        )

    assert [register(f"new-{n}").status_code for n in range(2)] == [201, 201]
    blocked = register("new-3")

    assert_throttled(blocked, window=3600)
    assert not get_user_model().objects.filter(username="new-3").exists()
    assert register("new-3", address="10.0.1.2").status_code == 201


def test_commands_are_limited_per_user(
    rates: Callable[..., None], make_client: Callable[..., APIClient]
) -> None:
    rates(commands="3/min")
    alice, bob = make_client("alice"), make_client("bob")
    url = f"/api/tables/{uuid.uuid4()}/bid"

    statuses = [alice.post(url, {"bid": 3}, format="json").status_code for _ in range(3)]

    # Counted before the request is even parsed or the table looked up.
    assert len(statuses) == 3 and set(statuses) <= {400, 404}
    assert_throttled(alice.post(url, {"bid": 3}, format="json"))
    assert bob.post(url, {"bid": 3}, format="json").status_code in {400, 404}
    # Reads are not commands.
    assert alice.get("/api/tables").status_code == 200


def test_anonymous_commands_are_refused_before_they_count(rates: Callable[..., None]) -> None:
    rates(commands="1/min")
    url = f"/api/tables/{uuid.uuid4()}/play"

    statuses = [APIClient().post(url, {}, format="json").status_code for _ in range(3)]

    assert statuses == [401, 401, 401]


def test_counts_live_in_redis_and_can_be_cleared(rates: Callable[..., None]) -> None:
    rates(auth="1/min")
    login("victim", "x")
    assert_throttled(login("victim", "x"))

    assert clear_throttle_counts() >= 1

    assert login("victim", "x").status_code == 400


def test_default_rates_allow_real_play(settings: Any) -> None:
    """The shipped limits: a guesser gets 10 tries a minute; a player far more commands
    than a hand needs (13 plays and a bid in well under a minute, for several tables)."""
    login_throttle, command_throttle = LoginThrottle(), CommandThrottle()

    assert (login_throttle.num_requests, login_throttle.duration) == (10, 60)
    assert command_throttle.duration == 60 and command_throttle.num_requests >= 120
