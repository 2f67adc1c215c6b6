"""The web's token cache (``accounts.token_cache``): a kept resolution answers without a
query, and a revoked token is refused within the documented bound: at once by the process
that revoked it, within ``API_TOKEN_CACHE_SECONDS`` by the others."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.db import connection
from rest_framework.authtoken.models import Token
from rest_framework.exceptions import AuthenticationFailed
from rest_framework.test import APIClient

from accounts.authentication import ExpiringTokenAuthentication
from accounts.token_cache import tokens_seen

pytestmark = pytest.mark.django_db


class Clock:
    """The cache's clock, moved by the test (no sleeping for the bound to pass)."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Iterator[Clock]:
    fake = Clock()
    monkeypatch.setattr(tokens_seen, "clock", fake)
    yield fake


def key_of(client: APIClient) -> str:
    return str(Token.objects.get(user=client.user).key)  # type: ignore[attr-defined]


def deleted_elsewhere(key: str) -> None:
    """The token row deleted as another web process would: no signal reaches this one."""
    with connection.cursor() as cursor:
        cursor.execute("DELETE FROM authtoken_token WHERE key = %s", [key])


def test_a_kept_token_answers_without_a_query_with_a_fresh_user(
    make_client: Callable[..., APIClient], django_assert_num_queries: Any, clock: Clock
) -> None:
    alice = make_client("alice")
    key = key_of(alice)
    auth = ExpiringTokenAuthentication()
    first_user, first_token = auth.authenticate_credentials(key)

    with django_assert_num_queries(0):
        user, token = auth.authenticate_credentials(key)

    assert (user.pk, user.username, user.is_active) == (first_user.pk, "alice", True)
    assert user is not first_user  # no two requests share a mutable User
    assert (token.key, token.user_id, token.created) == (key, user.pk, first_token.created)
    assert token.user is user
    assert alice.get("/api/auth/me").json()["username"] == "alice"


def test_logout_refuses_the_token_at_once_in_this_process(
    make_client: Callable[..., APIClient], clock: Clock
) -> None:
    alice = make_client("alice")
    assert alice.get("/api/auth/me").status_code == 200  # kept

    assert alice.post("/api/auth/logout").status_code == 204

    # No time passes: the signal of the deletion forgot the key.
    assert alice.get("/api/auth/me").status_code == 401


def test_a_deactivated_or_changed_user_is_read_again_at_once(
    make_client: Callable[..., APIClient], clock: Clock
) -> None:
    alice = make_client("alice")
    assert alice.get("/api/auth/me").status_code == 200
    user = alice.user  # type: ignore[attr-defined]

    user.username = "alicia"
    user.save()
    assert alice.get("/api/auth/me").json()["username"] == "alicia"

    user.is_active = False
    user.save()
    assert alice.get("/api/auth/me").status_code == 401


def test_a_token_revoked_by_another_process_is_refused_within_the_bound(
    make_client: Callable[..., APIClient], settings: Any, clock: Clock
) -> None:
    settings.API_TOKEN_CACHE_SECONDS = 30
    alice = make_client("alice")
    key = key_of(alice)
    assert alice.get("/api/auth/me").status_code == 200  # kept at clock 1000

    deleted_elsewhere(key)

    # Within the bound this process may still accept it (what docs/api.md states) ...
    clock.now += 29.9
    assert alice.get("/api/auth/me").status_code == 200
    # ... and from the bound on never: the kept answer lapses, the row is gone.
    clock.now += 0.1
    assert alice.get("/api/auth/me").status_code == 401
    assert alice.get("/api/auth/me").status_code == 401


def test_use_never_extends_the_bound(
    make_client: Callable[..., APIClient], settings: Any, clock: Clock
) -> None:
    settings.API_TOKEN_CACHE_SECONDS = 30
    alice = make_client("alice")
    key = key_of(alice)
    assert alice.get("/api/auth/me").status_code == 200
    deleted_elsewhere(key)
    for _ in range(5):  # used every 5 s: a sliding lifetime would keep it forever
        clock.now += 5
        assert alice.get("/api/auth/me").status_code == 200
    clock.now += 5
    assert alice.get("/api/auth/me").status_code == 401


def test_with_the_cache_off_a_revocation_elsewhere_is_refused_at_once(
    make_client: Callable[..., APIClient], settings: Any, clock: Clock
) -> None:
    settings.API_TOKEN_CACHE_SECONDS = 0
    alice = make_client("alice")
    assert alice.get("/api/auth/me").status_code == 200

    deleted_elsewhere(key_of(alice))

    assert alice.get("/api/auth/me").status_code == 401


def test_a_read_that_began_before_a_revocation_is_not_kept(
    make_client: Callable[..., APIClient], clock: Clock
) -> None:
    alice = make_client("alice")
    key = key_of(alice)
    token = Token.objects.select_related("user").get(key=key)
    generation = tokens_seen.begin()  # a request read the row ...
    Token.objects.filter(key=key).delete()  # ... while a logout deleted it

    tokens_seen.keep(key, token, generation)

    assert tokens_seen.found(key) is None
    with pytest.raises(AuthenticationFailed):
        ExpiringTokenAuthentication().authenticate_credentials(key)


def test_the_cache_is_bounded_and_still_answers_right(
    make_client: Callable[..., APIClient], settings: Any, clock: Clock
) -> None:
    settings.API_TOKEN_CACHE_SIZE = 2
    clients = [make_client(name) for name in ("alice", "bob", "carol")]
    for _ in range(2):
        for client in clients:
            assert client.get("/api/auth/me").json()["username"] == client.user.username  # type: ignore[attr-defined]
    assert len(tokens_seen.entries) <= 2
    assert sum(len(keys) for keys in tokens_seen.keys_of_user.values()) <= 2
