"""Rescoring over HTTP: one table by query, many by body; nothing is written."""

from __future__ import annotations

import json
import uuid
from typing import Any
from urllib.parse import quote

import pytest
from rest_framework.test import APIClient

from scoring.models import LedgerHand, RulePreset

from .conftest import event_count
from .test_reads import NO_TABLE, play_first_hand

pytestmark = pytest.mark.django_db

Players = dict[str, APIClient]


@pytest.fixture
def played_table(started_table: dict[str, Any], players: Players) -> str:
    play_first_hand(started_table["id"], players)
    return str(started_table["id"])


def written() -> tuple[int, int, int]:
    return event_count(), LedgerHand.objects.count(), RulePreset.objects.count()


def test_rescore_one_table_under_a_named_preset(played_table: str, anonymous: APIClient) -> None:
    before = written()

    response = anonymous.get(f"/api/tables/{played_table}/rescore?rules=bicycle")

    assert response.status_code == 200, response.content
    body = response.json()
    assert body["table_id"] == played_table
    assert body["preset"]["name"] == "bicycle"
    assert [hand["hand_number"] for hand in body["hands"]] == [1]
    assert set(body["original"]) >= {"totals", "winner"}
    assert written() == before


def test_rescore_under_custom_json_rules(played_table: str, anonymous: APIClient) -> None:
    rules = quote(json.dumps({"preset": "standard", "nil_points": 50}))

    response = anonymous.get(f"/api/tables/{played_table}/rescore?rules={rules}")

    assert response.status_code == 200, response.content
    assert response.json()["rules"]["nil_points"] == 50


@pytest.mark.parametrize(
    ("query", "code"),
    [
        ("", "invalid"),
        ("rules=", "invalid"),
        ("rules=%7Bnot-json", "invalid"),
        ("rules=no-such-preset", "bad_rules"),
        (f"rules={quote(json.dumps({'target_score': 'x'}))}", "bad_rules"),
    ],
)
def test_rescore_refuses_bad_rules(
    new_table: Any, anonymous: APIClient, query: str, code: str
) -> None:
    table_id = new_table()["table_id"]

    response = anonymous.get(f"/api/tables/{table_id}/rescore?{query}")

    assert response.status_code == 400, response.content
    assert response.json()["code"] == code
    assert response.json()["message"]


def test_rescore_an_unknown_table_is_a_404(anonymous: APIClient) -> None:
    response = anonymous.get(f"/api/tables/{NO_TABLE}/rescore?rules=standard")

    assert response.status_code == 404


def test_rescore_many_tables(played_table: str, new_table: Any, alice: APIClient) -> None:
    lobby = new_table()["table_id"]
    before = written()

    response = alice.post(
        "/api/rescore", {"table_ids": [played_table, lobby], "rules": "easy"}, format="json"
    )

    assert response.status_code == 200, response.content
    body = response.json()
    assert [ledger["table_id"] for ledger in body] == [played_table, lobby]
    assert body[1]["hands"] == []
    assert written() == before


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"rules": "easy"}, "table_ids"),
        ({"table_ids": [], "rules": "easy"}, "table_ids"),
        ({"table_ids": ["nope"], "rules": "easy"}, "table_ids"),
        ({"table_ids": [NO_TABLE]}, "rules"),
        ({"table_ids": [NO_TABLE], "rules": 5}, "rules"),
    ],
)
def test_rescore_many_refuses_bad_bodies(
    alice: APIClient, body: dict[str, Any], field: str
) -> None:
    response = alice.post("/api/rescore", body, format="json")

    assert response.status_code == 400
    assert field in response.json()["fields"]


def test_rescore_many_with_an_unknown_table_is_a_404(alice: APIClient) -> None:
    response = alice.post("/api/rescore", {"table_ids": [NO_TABLE], "rules": "easy"}, format="json")

    assert response.status_code == 404


def test_rescore_many_needs_a_signed_in_user(anonymous: APIClient) -> None:
    response = anonymous.post(
        "/api/rescore", {"table_ids": [NO_TABLE], "rules": "easy"}, format="json"
    )

    assert response.status_code == 401


def test_rescore_many_takes_at_most_50_tables(alice: APIClient) -> None:
    fifty_one = [str(uuid.UUID(int=n)) for n in range(1, 52)]

    response = alice.post("/api/rescore", {"table_ids": fifty_one, "rules": "easy"}, format="json")

    assert response.status_code == 400, response.content
    body = response.json()
    assert "table_ids" in body["fields"] and "50" in body["message"]
    # Fifty is allowed (then the unknown tables are the problem, not the count).
    response = alice.post(
        "/api/rescore", {"table_ids": fifty_one[:50], "rules": "easy"}, format="json"
    )
    assert response.status_code == 404, response.content
