"""``GET /metrics`` in-process: who may read it, and that the API's own counters move
(events appended, command latency, requests, throttled requests). The whole platform's
counters after a bot game played by real processes: tests/integration/live/test_operations.py."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client
from prometheus_client.parser import text_string_to_metric_families
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db

TOKEN = "scrape-token-0123456789"


def scrape(**extra: Any) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """Every sample of ``/metrics`` as ``{(name, labels): value}``."""
    response = Client().get("/metrics", **extra)
    assert response.status_code == 200, response.content
    assert response["Content-Type"].startswith("text/plain; version=")
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(response.content.decode())
        for sample in family.samples
    }


def value(samples: dict[Any, float], name: str, **labels: str) -> float:
    return samples.get((name, tuple(sorted(labels.items()))), 0.0)


def test_metrics_only_for_allowed_addresses_or_the_token(settings: Any) -> None:
    settings.METRICS_TOKEN = TOKEN
    outsider = {"REMOTE_ADDR": "203.0.113.9"}

    refused = Client().get("/metrics", **outsider)
    wrong = Client().get("/metrics", HTTP_AUTHORIZATION="Bearer not-the-token", **outsider)

    assert refused.status_code == wrong.status_code == 403
    assert b"spades_" not in refused.content
    assert value(scrape(), "spades_events_appended_total") == 0  # loopback: allowed
    samples = scrape(HTTP_AUTHORIZATION=f"Bearer {TOKEN}", **outsider)
    assert any(name == "spades_http_request_duration_seconds_count" for name, _ in samples)


def test_an_api_command_moves_the_counters(
    alice: APIClient,
    new_table: Callable[..., dict[str, Any]],
    django_capture_on_commit_callbacks: Any,
) -> None:
    before = scrape()
    with django_capture_on_commit_callbacks(execute=True):
        table_id = new_table()["table_id"]
        taken = alice.post(f"/api/tables/{table_id}/seats/north/take", {}, format="json")
    assert taken.status_code == 200, taken.content
    refused = alice.post(f"/api/tables/{table_id}/seats/north/take", {}, format="json")
    assert refused.status_code == 409, refused.content

    after = scrape()

    def moved(name: str, **labels: str) -> float:
        return value(after, name, **labels) - value(before, name, **labels)

    assert moved("spades_events_appended_total", type="SeatTaken") == 1
    assert moved("spades_command_duration_seconds_count", command="take_seat", outcome="ok") == 1
    assert (
        moved("spades_command_duration_seconds_count", command="take_seat", outcome="refused") == 1
    )
    route = "api/tables/<uuid:table_id>/seats/<seat:seat>/take"
    assert (
        moved(
            "spades_http_request_duration_seconds_count", route=route, method="POST", status="200"
        )
        == 1
    )
    # The platform's figures, read at the scrape.
    assert any(name == "spades_projection_lag_seconds" for name, _ in after)
    assert ("spades_celery_queue_depth", (("queue", "bots"),)) in after


def test_a_throttled_request_is_counted_by_scope(settings: Any) -> None:
    settings.THROTTLE_RATES = {**settings.THROTTLE_RATES, "auth_ip": "1/min"}
    before = value(scrape(), "spades_throttled_requests_total", scope="auth_ip")

    statuses = [
        APIClient()
        .post("/api/auth/token", {"username": "x", "password": "y"}, format="json")
        .status_code
        for _ in range(2)
    ]

    assert statuses == [400, 429]
    assert value(scrape(), "spades_throttled_requests_total", scope="auth_ip") == before + 1
