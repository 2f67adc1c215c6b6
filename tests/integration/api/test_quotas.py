"""Per-user quotas on open tables and all-bot tables (services/settings.py): 429, nothing
written; finished and abandoned tables free their place."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from rest_framework.test import APIClient

from games.models import Table

from .conftest import event_count

pytestmark = pytest.mark.django_db

ALL_BOTS = {seat: {"kind": "bot"} for seat in ("north", "east", "south", "west")}


def create(client: APIClient, **body: Any) -> Any:
    return client.post("/api/tables", body, format="json")


def test_a_user_may_keep_ten_tables_open(
    alice: APIClient, make_client: Callable[..., APIClient]
) -> None:
    for _ in range(10):
        assert create(alice).status_code == 201
    before = event_count()

    refused = create(alice)

    assert refused.status_code == 429, refused.content
    body = refused.json()
    assert body["code"] == "too_many_open_tables"
    assert "10" in body["message"]
    assert event_count() == before and Table.objects.count() == 10
    # Another user is not affected; a finished table frees its place.
    assert create(make_client("bob")).status_code == 201
    Table.objects.filter(pk=Table.objects.filter(created_by=alice.user).first().pk).update(
        status="finished"
    )
    assert create(alice).status_code == 201


def test_a_user_may_keep_two_all_bot_tables_open(alice: APIClient) -> None:
    for _ in range(2):
        assert create(alice, seats=ALL_BOTS).status_code == 201
    before = event_count()

    refused = create(alice, seats=ALL_BOTS)

    assert refused.status_code == 429, refused.content
    assert refused.json()["code"] == "too_many_bot_tables"
    assert refused.json()["message"]
    assert event_count() == before
    # Tables with a human seat still count only against the open-table quota.
    assert create(alice, seats={"north": {"kind": "bot"}}).status_code == 201


def test_the_quotas_come_from_the_settings(alice: APIClient, settings: Any) -> None:
    settings.SPADES_MAX_OPEN_TABLES_PER_USER = 1
    assert create(alice).status_code == 201
    assert create(alice).status_code == 429


def test_a_retried_creation_is_answered_even_at_the_limit(alice: APIClient, settings: Any) -> None:
    settings.SPADES_MAX_OPEN_TABLES_PER_USER = 1
    first = alice.post("/api/tables", {}, format="json", HTTP_IDEMPOTENCY_KEY="create-1")
    again = alice.post("/api/tables", {}, format="json", HTTP_IDEMPOTENCY_KEY="create-1")

    assert (first.status_code, again.status_code) == (201, 201), again.content
    assert again.json()["duplicate"] is True


def test_the_creator_abandons_a_table_over_http(alice: APIClient, anonymous: APIClient) -> None:
    table_id = create(alice, seats=ALL_BOTS).json()["table_id"]

    assert anonymous.post(f"/api/tables/{table_id}/abandon", {}, format="json").status_code == 401
    response = alice.post(f"/api/tables/{table_id}/abandon", {}, format="json")

    assert response.status_code == 200, response.content
    body = response.json()
    assert [event["type"] for event in body["events"]] == ["TableAbandoned"]
    assert body["table"]["status"] == "abandoned"
    again = alice.post(f"/api/tables/{table_id}/abandon", {}, format="json")
    assert again.status_code == 409 and again.json()["code"] == "not_open"
