"""Conflicting commands over HTTP at once: exactly one wins, the others get 409 and nothing."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from django.db import connection
from rest_framework.test import APIClient

from .conftest import event_count
from .test_commands import turn_of

# Each thread has its own connection, so the commits must be real (and visible to the others).
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("builtin_presets")]

SENDERS = 6


def test_same_version_bids_from_many_requests_one_wins(
    started_table: dict[str, Any], players: dict[str, APIClient]
) -> None:
    table_id = started_table["id"]
    seat = turn_of(started_table)
    version = started_table["version"]
    token = players[seat]._credentials["HTTP_AUTHORIZATION"]  # type: ignore[attr-defined]
    before = event_count()
    barrier = threading.Barrier(SENDERS)
    answers: list[tuple[int, dict[str, Any]]] = []
    lock = threading.Lock()

    def send(bid: int) -> None:
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=token)
        try:
            barrier.wait()
            response = client.post(
                f"/api/tables/{table_id}/bid",
                {"seat": seat, "bid": bid, "expected_version": version},
                format="json",
            )
            with lock:
                answers.append((response.status_code, response.json()))
        finally:
            connection.close()

    threads = [threading.Thread(target=send, args=(bid,)) for bid in range(1, SENDERS + 1)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    statuses = sorted(status for status, _ in answers)
    assert statuses == [200] + [409] * (SENDERS - 1), answers
    for status, body in answers:
        if status == 409:
            assert body["code"] == "stale_version"
            assert body["current_version"] == version + 1
    assert event_count() == before + 1


def test_the_same_idempotency_key_at_once_appends_once(
    started_table: dict[str, Any], players: dict[str, APIClient]
) -> None:
    table_id = started_table["id"]
    seat = turn_of(started_table)
    token = players[seat]._credentials["HTTP_AUTHORIZATION"]  # type: ignore[attr-defined]
    before = event_count()
    barrier = threading.Barrier(SENDERS)
    answers: list[tuple[int, dict[str, Any]]] = []
    lock = threading.Lock()

    def send() -> None:
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=token)
        try:
            barrier.wait()
            response = client.post(
                f"/api/tables/{table_id}/bid",
                {"seat": seat, "bid": 5},
                format="json",
                HTTP_IDEMPOTENCY_KEY="same-bid",
            )
            with lock:
                answers.append((response.status_code, response.json()))
        finally:
            connection.close()

    threads = [threading.Thread(target=send) for _ in range(SENDERS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert [status for status, _ in answers] == [200] * SENDERS, answers
    assert sorted(body["duplicate"] for _, body in answers) == [False] + [True] * (SENDERS - 1)
    assert len({body["version"] for _, body in answers}) == 1
    assert event_count() == before + 1
