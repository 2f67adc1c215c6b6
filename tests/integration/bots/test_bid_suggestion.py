"""``GET /api/tables/<id>/suggestion``: Normal's bid for the caller's own bidding turn."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from bots.suggestion import suggest_bid
from games.engine.cards import card_name
from games.engine.view import seat_view
from games.services import table_state
from games.services.table_commands import LookAtCards, StartGame, TakeSeat, create_table, execute
from tests.factories import UserFactory

BOTS = {seat: {"kind": "bot", "level": "easy"} for seat in ("north", "east", "west")}


@pytest.fixture(autouse=True)
def fresh_state_cache() -> Iterator[None]:
    table_state.forget()
    yield
    table_state.forget()


def client_for(user: Any) -> APIClient:
    token, _ = Token.objects.get_or_create(user=user)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    return client


def table_with_south(user: Any, first_dealer: str, rules: Any = "standard") -> str:
    """A started table: ``user`` in south, Easy bots elsewhere (no worker runs here)."""
    table_id = str(create_table(actor=user, rules=rules, seats=BOTS).table_id)
    execute(TakeSeat(table_id, "south"), user)
    execute(StartGame(table_id, first_dealer=first_dealer), user)
    return table_id


@pytest.mark.django_db
def test_suggestion_is_normals_bid_from_the_players_view() -> None:
    player = UserFactory()
    table_id = table_with_south(player, first_dealer="east")  # south bids first

    response = client_for(player).get(f"/api/tables/{table_id}/suggestion")

    assert response.status_code == 200
    body = response.json()
    with table_state.reading_state(table_id) as state:
        view = seat_view(state.hand, 2, state.team_totals(), state.team_bags())
        own_cards = {card_name(card) for card in range(52) if state.hand.dealt[2] >> card & 1}
    expected = suggest_bid(view)
    assert body["seat"] == "south"
    assert body["bid"] == ("nil" if expected.bid == 0 else expected.bid)
    assert body["counted"] == [card_name(card) for card in expected.counted]
    assert body["marks"] == expected.marks and body["reason"] == expected.reason
    assert body["reason"]
    assert set(body["counted"]) <= own_cards


@pytest.mark.django_db
def test_refused_outside_the_players_bidding_turn() -> None:
    player = UserFactory()
    table_id = table_with_south(player, first_dealer="north")  # east bids first

    response = client_for(player).get(f"/api/tables/{table_id}/suggestion")

    assert response.status_code == 409
    assert response.json()["code"] == "not_your_bid"


@pytest.mark.django_db
def test_spectators_anonymous_and_unknown_tables_are_refused() -> None:
    player = UserFactory()
    table_id = table_with_south(player, first_dealer="east")

    spectator = client_for(UserFactory()).get(f"/api/tables/{table_id}/suggestion")
    anonymous = APIClient().get(f"/api/tables/{table_id}/suggestion")
    unknown = client_for(player).get("/api/tables/00000000-0000-0000-0000-000000000000/suggestion")

    assert spectator.status_code == 403
    assert spectator.json()["code"] == "not_seated"
    assert anonymous.status_code == 401
    assert unknown.status_code == 404


@pytest.mark.django_db
def test_a_player_who_may_still_bid_blind_nil_must_look_first() -> None:
    player = UserFactory()
    rules = {"preset": "standard", "blind_nil": True, "blind_nil_min_deficit": 0}
    table_id = table_with_south(player, first_dealer="east", rules=rules)
    client = client_for(player)

    before = client.get(f"/api/tables/{table_id}/suggestion")
    execute(LookAtCards(table_id, "south"), player)
    after = client.get(f"/api/tables/{table_id}/suggestion")

    assert before.status_code == 409
    assert before.json()["code"] == "not_looked"
    assert after.status_code == 200
