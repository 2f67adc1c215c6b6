"""Who may do what: seats act only for their player, spectators read, staff manage presets."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from .conftest import PASSWORD, event_count, table_as

pytestmark = pytest.mark.django_db

Players = dict[str, APIClient]

SEAT_COMMANDS = [
    ("look", {}),
    ("bid", {"bid": 3}),
    ("pass", {"cards": ["2C", "3C"]}),
    ("play", {"card": "2C"}),
]
SEAT_PATH_COMMANDS = ["leave", "bot", "reclaim"]


@pytest.mark.parametrize(("command", "body"), SEAT_COMMANDS)
def test_moves_for_another_players_seat_are_403(
    started_table: dict[str, Any], players: Players, command: str, body: dict[str, Any]
) -> None:
    before = event_count()

    response = players["east"].post(
        f"/api/tables/{started_table['id']}/{command}",
        {"seat": "north", **body},
        format="json",
    )

    assert response.status_code == 403, response.content
    assert response.json()["code"] == "not_your_seat"
    assert event_count() == before


@pytest.mark.parametrize("command", SEAT_PATH_COMMANDS)
def test_seat_commands_for_another_players_seat_are_403(
    started_table: dict[str, Any], players: Players, command: str
) -> None:
    before = event_count()

    response = players["east"].post(
        f"/api/tables/{started_table['id']}/seats/north/{command}", {}, format="json"
    )

    assert response.status_code in {403, 409}, response.content
    if response.status_code == 409:  # leave: the game has started, which is checked first
        assert command == "leave"
    assert event_count() == before


def test_a_stranger_cannot_start_someone_elses_table(new_table: Any, make_client: Any) -> None:
    table_id = new_table()["table_id"]
    before = event_count()

    response = make_client("stranger").post(f"/api/tables/{table_id}/start", {}, format="json")

    assert response.status_code in {403, 409}, response.content
    assert event_count() == before


@pytest.mark.parametrize(
    "path",
    ["", "/events", "/ledger", "/export", "/rescore?rules=easy"],
)
def test_spectators_read_every_public_view(
    started_table: dict[str, Any], anonymous: APIClient, path: str
) -> None:
    response = anonymous.get(f"/api/tables/{started_table['id']}{path}")

    assert response.status_code == 200, response.content


def test_a_seated_player_sees_only_their_own_hand(
    started_table: dict[str, Any], players: Players
) -> None:
    hands = {
        seat: table_as(client, started_table["id"])["hand"] for seat, client in players.items()
    }

    for seat, hand in hands.items():
        assert hand["you"]["seat"] == seat
        for other, other_hand in hands.items():
            if other != seat:
                assert not set(hand["you"]["cards"]) & set(other_hand["you"]["cards"])


def test_session_authentication_needs_the_csrf_token_to_act(new_table: Any) -> None:
    table_id = new_table()["table_id"]
    get_user_model().objects.create_user(username="sessional", password=PASSWORD)
    client = APIClient(enforce_csrf_checks=True)
    assert client.login(username="sessional", password=PASSWORD)
    before = event_count()

    response = client.post(f"/api/tables/{table_id}/seats/north/take", {}, format="json")

    assert response.status_code == 403
    assert "CSRF" in response.json()["message"]
    assert event_count() == before


def test_a_session_authenticated_player_acts(new_table: Any) -> None:
    table_id = new_table()["table_id"]
    get_user_model().objects.create_user(username="sessional", password=PASSWORD)
    client = APIClient()
    assert client.login(username="sessional", password=PASSWORD)

    response = client.post(f"/api/tables/{table_id}/seats/north/take", {}, format="json")

    assert response.status_code == 200, response.content
    assert response.json()["table"]["your_seat"] == "north"
