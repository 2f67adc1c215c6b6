"""POST /api/tables/friends: one request makes a lobby table with the caller seated, or
writes nothing."""

from __future__ import annotations

from typing import Any

from rest_framework.test import APIClient

from games.models import Table
from games.services import seated_table
from games.services.errors import CommandRejected
from tests.integration.api.conftest import event_count

FRIENDS = {
    "north": {"kind": "human"},
    "east": {"kind": "bot", "level": "easy"},
    "west": {"kind": "human"},
}


def test_a_friends_table_waits_in_the_lobby_with_the_caller_seated(alice: APIClient) -> None:
    response = alice.post(
        "/api/tables/friends", {"preset": "easy", "seats": FRIENDS, "seat": "south"}, format="json"
    )

    assert response.status_code == 201, response.content
    table = response.json()["table"]
    assert table["status"] == "lobby"
    assert table["your_seat"] == "south"
    seats = {row["seat"]: row for row in table["seats"]}
    assert seats["south"]["username"] == "alice"
    assert seats["north"]["kind"] == "human" and not seats["north"]["username"]
    assert seats["east"]["kind"] == "bot"
    listed = alice.get("/api/tables?status=lobby").json()["results"]
    assert [row["id"] for row in listed] == [response.json()["table_id"]]


def test_a_retried_friends_table_answers_with_the_same_table(alice: APIClient) -> None:
    body: dict[str, Any] = {"seats": FRIENDS}
    first = alice.post("/api/tables/friends", body, format="json", HTTP_IDEMPOTENCY_KEY="f-1")
    count = event_count()
    again = alice.post("/api/tables/friends", body, format="json", HTTP_IDEMPOTENCY_KEY="f-1")

    assert first.status_code == again.status_code == 201
    assert again.json()["table_id"] == first.json()["table_id"]
    assert again.json()["duplicate"] is True
    assert event_count() == count


def test_refused_friends_tables_write_nothing(alice: APIClient) -> None:
    before = event_count()
    all_bots = {seat: {"kind": "bot", "level": "easy"} for seat in ("north", "east", "west")}
    no_friend = alice.post("/api/tables/friends", {"seats": all_bots}, format="json")
    own_seat = alice.post(
        "/api/tables/friends",
        {"seats": {**FRIENDS, "south": {"kind": "human"}}, "seat": "south"},
        format="json",
    )
    bad_rules = alice.post(
        "/api/tables/friends", {"seats": FRIENDS, "rules": {"preset": "nope"}}, format="json"
    )
    bad_seat = alice.post(
        "/api/tables/friends", {"seats": FRIENDS, "seat": "middle"}, format="json"
    )

    assert no_friend.status_code == 400
    assert no_friend.json()["code"] == "bad_seats"
    assert own_seat.status_code == 400
    assert own_seat.json()["code"] == "bad_seats"
    assert bad_rules.status_code == 400
    assert bad_seat.status_code == 400
    assert all(set(r.json()) >= {"code", "message"} for r in (no_friend, bad_rules, bad_seat))
    assert event_count() == before
    assert alice.get("/api/tables?mine=true").json()["count"] == 0


def test_a_friends_table_needs_a_signed_in_player(anonymous: APIClient, db: Any) -> None:
    response = anonymous.post("/api/tables/friends", {"seats": FRIENDS}, format="json")

    assert response.status_code == 401
    assert event_count() == 0


def test_a_seat_that_fails_takes_the_new_table_with_it(alice: APIClient, monkeypatch: Any) -> None:
    def failing_seat(*args: Any, **kwargs: Any) -> None:
        raise CommandRejected("seat_taken", "That seat is taken.", 409)

    # The table is created before taking the seat fails: it goes too.
    monkeypatch.setattr(seated_table, "take_seat", failing_seat)
    before = event_count()
    response = alice.post("/api/tables/friends", {"seats": FRIENDS}, format="json")

    assert response.status_code == 409
    assert event_count() == before
    assert not Table.objects.exists()
