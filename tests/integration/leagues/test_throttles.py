"""Rate limits of the leagues API, counted in the real Redis (services/api/throttles.py):
every leagues write per user (or per address without a login), and the what-if
standings per user or address; the official standings and other reads are not limited.
Each test sets small rates of its own; the counts start empty in every test."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest
from django.core.cache import caches
from rest_framework.test import APIClient

from services.api.throttles import THROTTLE_CACHE
from tests.integration.api.test_throttles import assert_throttled

from .conftest import event_count
from .test_verify_and_api import client_for

pytestmark = pytest.mark.django_db

GENEROUS = "1000/min"


@pytest.fixture
def rates(settings: Any) -> Callable[..., None]:
    def set_rates(**small: str) -> None:
        settings.THROTTLE_RATES = {
            scope: small.get(scope, GENEROUS) for scope in settings.THROTTLE_RATES
        }

    return set_rates


def test_leagues_writes_are_limited_per_user(
    rates: Callable[..., None], organiser: Any, players: Any
) -> None:
    rates(leagues_writes="3/min")
    me, other = players(2)
    client = client_for(organiser)

    made = [client.post("/api/competitions", {"name": f"C{n}"}, format="json") for n in range(2)]
    refused = client.post(f"/api/competitions/{made[0].json()['id']}/entrants", {}, format="json")
    before = event_count()
    blocked = client.post("/api/competitions", {"name": "Fourth"}, format="json")

    assert [answer.status_code for answer in made] == [201, 201]
    assert refused.status_code == 400  # a refused write counts too
    assert_throttled(blocked)
    assert event_count() == before
    # Reads are not writes; another user has counts of their own.
    assert client.get(f"/api/competitions/{made[0].json()['id']}").status_code == 200
    assert client.get("/api/competitions").status_code == 200
    assert client_for(me).post("/api/leagues", {"name": "Mine"}, format="json").status_code == 201


def test_the_issues_thirty_proposals_meet_the_limit(
    rates: Callable[..., None], organiser: Any, players: Any, settings: Any
) -> None:
    rates(leagues_writes="5/min")
    settings.SPADES_MAX_OPEN_PROPOSALS_PER_PLAYER = 100  # the rate alone, here
    cid = client_for(organiser).post("/api/competitions", {"name": "Open"}, format="json")
    me, partner = players(2)
    url = f"/api/competitions/{cid.json()['id']}/partnerships"

    statuses = [
        client_for(me).post(url, {"partner": partner.pk}, format="json").status_code
        for _ in range(30)
    ]

    assert statuses[:5] == [201] * 5 and set(statuses[5:]) == {429}


def test_anonymous_writes_count_per_address(rates: Callable[..., None]) -> None:
    rates(leagues_writes="2/min")

    def create(address: str) -> Any:
        return APIClient().post(
            "/api/competitions", {"name": "x"}, format="json", REMOTE_ADDR=address
        )

    assert [create("10.0.2.1").status_code for _ in range(2)] == [401, 401]
    assert_throttled(create("10.0.2.1"))
    assert create("10.0.2.2").status_code == 401


def test_what_if_standings_are_limited_but_official_ones_are_not(
    rates: Callable[..., None], swiss: Any
) -> None:
    rates(whatif="2/min")
    cid = swiss(4)
    url = f"/api/competitions/{cid}/standings"
    client = APIClient()

    assert client.get(url, {"tiebreaks": "wins"}).status_code == 200
    assert client.get(url, {"preset": "standard"}).status_code == 200
    assert_throttled(client.get(url, {"tiebreaks": "lots"}))
    assert [client.get(url).status_code for _ in range(5)] == [200] * 5
    assert client.get(url, {"tiebreaks": "wins"}, REMOTE_ADDR="10.0.3.9").status_code == 200


def test_the_defaults_let_an_organiser_run_a_club_night(settings: Any) -> None:
    """120 writes a minute: registering 40 partnerships and pairing is well inside."""
    assert settings.THROTTLE_RATES["leagues_writes"] == "120/min"
    assert settings.THROTTLE_RATES["whatif"] == "30/min"


def test_every_copy_of_the_throttle_cache_borrows_from_one_pool() -> None:
    """Django makes one cache object per thread (and async context); each used to open
    connections of its own."""
    pools: list[Any] = []

    def borrow() -> None:
        cache: Any = caches[THROTTLE_CACHE]
        cache.set("pool-probe", 1)
        pools.append(cache._cache._get_connection_pool(True))

    threads = [threading.Thread(target=borrow) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    borrow()

    assert len(pools) == 5 and all(pool is pools[0] for pool in pools)
    caches[THROTTLE_CACHE].delete("pool-probe")
