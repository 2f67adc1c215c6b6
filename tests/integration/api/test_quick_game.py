"""POST /api/tables/quick: one request makes a started table, or writes nothing."""

from __future__ import annotations

from typing import Any

from rest_framework.test import APIClient

from games.models import Table
from games.services import seated_table
from games.services.errors import CommandRejected
from tests.integration.api.conftest import event_count

BOTS = {
    "north": {"kind": "bot", "level": "normal"},
    "east": {"kind": "bot", "level": "easy"},
    "west": {"kind": "bot", "level": "easy"},
}


def test_a_quick_game_is_in_play_with_the_caller_seated(alice: APIClient) -> None:
    response = alice.post(
        "/api/tables/quick", {"preset": "easy", "seats": BOTS, "seat": "south"}, format="json"
    )

    assert response.status_code == 201, response.content
    table = response.json()["table"]
    assert table["status"] == "playing"
    assert table["your_seat"] == "south"
    assert table["preset"]["name"] == "easy"


def test_a_retried_quick_game_answers_with_the_same_table(alice: APIClient) -> None:
    body: dict[str, Any] = {"seats": BOTS}
    first = alice.post("/api/tables/quick", body, format="json", HTTP_IDEMPOTENCY_KEY="q-1")
    count = event_count()
    again = alice.post("/api/tables/quick", body, format="json", HTTP_IDEMPOTENCY_KEY="q-1")

    assert first.status_code == again.status_code == 201
    assert again.json()["table_id"] == first.json()["table_id"]
    assert again.json()["duplicate"] is True
    assert event_count() == count


def test_a_refused_quick_game_leaves_no_half_made_table(alice: APIClient) -> None:
    before = event_count()
    # The rules are fine, but a seat left for a human makes the start impossible: nothing
    # of the table may stay behind.
    human_east = {**BOTS, "east": {"kind": "human"}}
    refused = alice.post("/api/tables/quick", {"seats": human_east}, format="json")
    bad_rules = alice.post(
        "/api/tables/quick", {"seats": BOTS, "rules": {"preset": "nope"}}, format="json"
    )

    assert refused.status_code == 400
    assert refused.json()["code"] == "bad_seats"
    assert bad_rules.status_code == 400
    assert event_count() == before
    assert alice.get("/api/tables?mine=true").json()["count"] == 0


def test_a_quick_game_needs_a_signed_in_player(anonymous: APIClient) -> None:
    response = anonymous.post("/api/tables/quick", {"seats": BOTS}, format="json")

    assert response.status_code == 401


def test_a_start_that_fails_takes_the_new_table_with_it(alice: APIClient, monkeypatch: Any) -> None:

    def failing_start(*args: Any, **kwargs: Any) -> None:
        raise CommandRejected("cannot_start", "The game cannot start.", 409)

    # The table is created and the seat taken before the start fails: all of it goes.
    monkeypatch.setattr(seated_table, "start_game", failing_start)
    before = event_count()
    response = alice.post("/api/tables/quick", {"seats": BOTS}, format="json")

    assert response.status_code == 409
    assert event_count() == before
    assert not Table.objects.exists()
