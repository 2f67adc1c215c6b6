"""/api/tables: create, list, detail, seats, start; viewer filtering of the state."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from rest_framework.test import APIClient

from .conftest import event_count, table_as

pytestmark = pytest.mark.django_db


def test_create_table_returns_the_table_and_its_version(alice: APIClient) -> None:
    response = alice.post(
        "/api/tables",
        {
            "rules": {"preset": "standard", "target_score": 300},
            "seats": {"east": {"kind": "bot", "level": "hard"}, "west": {"kind": "bot"}},
            "turn_timer_seconds": 60,
        },
        format="json",
    )

    assert response.status_code == 201, response.content
    body = response.json()
    assert body["duplicate"] is False
    assert body["version"] == 1
    assert [event["type"] for event in body["events"]] == ["TableCreated"]
    table = body["table"]
    assert table["id"] == body["table_id"]
    assert table["version"] == 1
    assert table["status"] == "lobby"
    assert table["rules"]["target_score"] == 300
    assert table["turn_timer_seconds"] == 60
    kinds = {row["seat"]: (row["kind"], row["level"]) for row in table["seats"]}
    assert kinds["east"] == ("bot", "hard")
    assert kinds["west"] == ("bot", "normal")
    assert kinds["north"][0] == "human"


def test_create_table_from_a_stored_preset_pins_it(alice: APIClient) -> None:
    response = alice.post("/api/tables", {"preset": "easy"}, format="json")

    assert response.status_code == 201, response.content
    table = response.json()["table"]
    assert table["preset"]["name"] == "easy"
    assert table["rules"]["target_score"] == 200


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"rules": 12}, "rules"),
        ({"seats": {"north": {"kind": "robot"}}}, "seats"),
        ({"seats": {"up": {"kind": "bot"}}}, "seats"),
        ({"seats": {"north": {"kind": "human", "level": "hard"}}}, "seats"),
        ({"turn_timer_seconds": 1}, "turn_timer_seconds"),
        ({"turn_timer_seconds": "soon"}, "turn_timer_seconds"),
        ({"rules": "standard", "preset": "easy"}, "rules"),
        ({"colour": "green"}, "non_field_errors"),
    ],
)
def test_create_table_refuses_bad_fields_and_writes_nothing(
    alice: APIClient, body: dict[str, Any], field: str
) -> None:
    before = event_count()

    response = alice.post("/api/tables", body, format="json")

    assert response.status_code == 400, response.content
    problem = response.json()
    assert problem["code"] == "invalid"
    assert field in problem["fields"]
    assert event_count() == before


@pytest.mark.parametrize(
    "rules",
    ["no-such-preset", {"preset": "standard", "target_score": "high"}, {"bogus_rule": True}],
)
def test_create_table_refuses_bad_rules_with_the_engines_sentence(
    alice: APIClient, rules: Any
) -> None:
    before = event_count()

    response = alice.post("/api/tables", {"rules": rules}, format="json")

    assert response.status_code == 400, response.content
    problem = response.json()
    assert problem["code"] == "bad_rules"
    assert problem["message"]
    assert event_count() == before


def test_create_table_refuses_malformed_json(alice: APIClient) -> None:
    before = event_count()

    response = alice.post("/api/tables", data="{", content_type="application/json")

    assert response.status_code == 400
    assert response.json()["code"] == "parse_error"
    assert event_count() == before


def test_create_table_needs_a_signed_in_user(anonymous: APIClient) -> None:
    before = event_count()

    response = anonymous.post("/api/tables", {}, format="json")

    assert response.status_code == 401
    assert response.json()["code"] == "not_authenticated"
    assert event_count() == before


def test_create_table_is_idempotent_per_key(alice: APIClient) -> None:
    first = alice.post("/api/tables", {}, format="json", HTTP_IDEMPOTENCY_KEY="create-1")
    before = event_count()
    again = alice.post("/api/tables", {}, format="json", HTTP_IDEMPOTENCY_KEY="create-1")

    assert first.status_code == again.status_code == 201
    assert again.json()["table_id"] == first.json()["table_id"]
    assert again.json()["version"] == first.json()["version"]
    assert again.json()["events"] == first.json()["events"]
    assert again.json()["duplicate"] is True
    assert event_count() == before


def test_idempotency_keys_of_different_users_do_not_collide(
    alice: APIClient, make_client: Callable[..., APIClient]
) -> None:
    bob = make_client("bob")

    first = alice.post("/api/tables", {}, format="json", HTTP_IDEMPOTENCY_KEY="same-key")
    second = bob.post("/api/tables", {}, format="json", HTTP_IDEMPOTENCY_KEY="same-key")

    assert second.json()["duplicate"] is False
    assert second.json()["table_id"] != first.json()["table_id"]


@pytest.mark.parametrize("key", ["", "has space", "x" * 101, "naïve"])
def test_a_bad_idempotency_key_is_refused(alice: APIClient, key: str) -> None:
    before = event_count()

    response = alice.post("/api/tables", {}, format="json", HTTP_IDEMPOTENCY_KEY=key)

    assert response.status_code == 400, response.content
    assert "Idempotency-Key" in response.json()["message"]
    assert event_count() == before


def test_list_tables_is_public_and_paged(
    anonymous: APIClient, new_table: Callable[..., dict[str, Any]]
) -> None:
    ids = [new_table()["table_id"] for _ in range(3)]

    response = anonymous.get("/api/tables")

    assert response.status_code == 200
    body = response.json()
    assert body["count"] == 3
    assert body["page"] == 1
    assert body["pages"] == 1
    assert [row["id"] for row in body["results"]] == ids[::-1]
    assert body["results"][0]["status"] == "lobby"


def test_list_tables_filters_by_status(
    anonymous: APIClient, new_table: Callable[..., dict[str, Any]], started_table: dict[str, Any]
) -> None:
    new_table()

    playing = anonymous.get("/api/tables?status=playing").json()
    lobby = anonymous.get("/api/tables?status=lobby").json()

    assert [row["id"] for row in playing["results"]] == [started_table["id"]]
    assert lobby["count"] == 1


@pytest.mark.parametrize("query", ["page=0", "page=x", "status=sleeping"])
def test_list_tables_refuses_bad_queries(anonymous: APIClient, query: str) -> None:
    response = anonymous.get(f"/api/tables?{query}")

    assert response.status_code == 400
    assert response.json()["code"] == "invalid"


def test_a_page_past_the_end_is_the_last_page(
    anonymous: APIClient, new_table: Callable[..., dict[str, Any]]
) -> None:
    new_table()

    body = anonymous.get("/api/tables?page=99").json()

    assert body["page"] == 1
    assert len(body["results"]) == 1


def test_table_detail_is_public(
    anonymous: APIClient, new_table: Callable[..., dict[str, Any]]
) -> None:
    table_id = new_table()["table_id"]

    body = table_as(anonymous, table_id)

    assert body["id"] == table_id
    assert body["version"] == 1
    assert body["your_seat"] is None


@pytest.mark.parametrize(
    "path",
    [
        "/api/tables/00000000-0000-0000-0000-000000000000",
        "/api/tables/not-a-uuid",
        "/api/tables/00000000-0000-0000-0000-000000000000/events",
    ],
)
def test_unknown_table_is_a_404(anonymous: APIClient, path: str) -> None:
    response = anonymous.get(path)

    assert response.status_code == 404
    assert response.json()["code"] in {"not_found", "no_such_table"}


def test_players_see_their_own_cards_and_spectators_none(
    started_table: dict[str, Any], players: dict[str, APIClient], anonymous: APIClient
) -> None:
    table_id = started_table["id"]

    spectator = table_as(anonymous, table_id)
    north = table_as(players["north"], table_id)
    east = table_as(players["east"], table_id)

    assert spectator["status"] == "playing"
    assert "you" not in spectator["hand"]
    assert north["your_seat"] == "north"
    assert east["your_seat"] == "east"
    north_cards = north["hand"]["you"]["cards"]
    east_cards = east["hand"]["you"]["cards"]
    assert len(north_cards) == len(east_cards) == 13
    assert not set(north_cards) & set(east_cards)
    assert spectator["hand"]["revealed"] is None
    dumped = str(spectator)
    assert not any(
        f"'{card}'" in dumped for card in north_cards if card not in str(spectator["hand"]["plays"])
    )


def test_list_my_tables_only_those_where_i_have_a_seat(
    anonymous: APIClient, players: dict[str, APIClient], new_table: Callable[..., dict[str, Any]]
) -> None:
    mine = new_table()["table_id"]
    new_table()  # nobody's seat
    north = players["north"]
    assert north.post(f"/api/tables/{mine}/seats/north/take", {}, format="json").status_code == 200

    body = north.get("/api/tables?mine=true").json()
    others = players["east"].get("/api/tables?mine=true").json()
    refused = anonymous.get("/api/tables?mine=true")

    assert [row["id"] for row in body["results"]] == [mine]
    assert others["count"] == 0
    assert refused.status_code == 401
    assert refused.json()["code"] == "not_authenticated"
