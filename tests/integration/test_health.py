"""GET /api/health, /livez and /readyz against the real PostgreSQL test database and the
real Redis."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from django.db import transaction
from django.test import Client, override_settings

from eventstore.recorder import append
from eventstore.records import NewEvent
from eventstore.subscriptions import (
    Projection,
    catch_up,
    lag_of,
    register_projection,
    registered_projections,
    unregister_projection,
)
from tests.integration.live.conftest import wait_until


@pytest.mark.django_db
def test_health_reports_database_and_redis_ok(client: Client) -> None:
    response = client.get("/api/health")

    assert response.status_code == 200, response.content
    body = response.json()
    assert body["status"] == "ok"
    assert body["db"] == {"ok": True, "vendor": "postgresql"}
    assert body["redis"] == {"ok": True}


@pytest.mark.django_db
def test_health_is_503_when_redis_is_unreachable(client: Client) -> None:
    with override_settings(REDIS_URL="redis://127.0.0.1:1/0"):
        response = client.get("/api/health")

    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "degraded"
    assert body["db"]["ok"] is True
    assert body["redis"]["ok"] is False


@pytest.mark.django_db
def test_api_index_links_health_schema_and_docs(client: Client) -> None:
    response = client.get("/api/")

    assert response.status_code == 200
    assert set(response.json()) == {"health", "schema", "docs"}


@pytest.mark.django_db
def test_openapi_schema_is_served(client: Client) -> None:
    response = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")

    assert response.status_code == 200
    assert "/api/health" in response.json()["paths"]


def test_unknown_api_path_is_a_json_404(client: Client) -> None:
    response = client.get("/api/no-such-thing")

    assert response.status_code == 404
    assert response.json()["code"] == "not_found"


# ---------------------------------------------------------------- /livez and /readyz


def test_livez_answers_without_asking_anything() -> None:
    response = Client().get("/livez")

    assert response.status_code == 200
    assert response.json() == {"status": "ok"}


@pytest.mark.django_db
def test_readyz_checks_database_redis_migrations_and_projection_lag(settings: Any) -> None:
    settings.READYZ_MAX_PROJECTION_LAG_SECONDS = 7 * 24 * 3600

    response = Client().get("/readyz")

    assert response.status_code == 200, response.content
    body = response.json()
    assert body["status"] == "ok"
    checks = body["checks"]
    assert set(checks) == {"database", "redis", "migrations", "projections"}
    assert all(check["ok"] for check in checks.values())
    assert checks["migrations"]["ok"] is True
    assert set(checks["projections"]["lag_seconds"]) >= {p.name for p in registered_projections()}


@pytest.mark.django_db
def test_readyz_is_503_when_redis_is_unreachable(settings: Any) -> None:
    settings.REDIS_URL = "redis://127.0.0.1:1/0"

    response = Client().get("/readyz")

    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "unavailable"
    assert body["checks"]["redis"] == {"ok": False, "error": "ConnectionError"}
    assert body["checks"]["database"]["ok"] is True


class Idle(Projection):
    """A projection nobody runs: it falls behind its own stream."""

    def __init__(self, prefix: str) -> None:
        self.name = f"idle-{prefix}"
        self.stream_prefixes = (prefix,)

    def handle(self, event: Any) -> None:
        pass

    def reset(self) -> None:
        pass


@pytest.mark.django_db(transaction=True)
def test_readyz_is_503_while_a_projection_lags_past_the_bound(settings: Any) -> None:
    settings.READYZ_MAX_PROJECTION_LAG_SECONDS = 1
    prefix = f"readyz-{uuid.uuid4().hex[:10]}"
    idle = register_projection(Idle(prefix))
    try:
        with transaction.atomic():
            append(f"{prefix}-1", 0, [NewEvent("Happened", {"n": 1})])

        def behind() -> Any:
            response = Client().get("/readyz")
            lag = response.json()["checks"]["projections"]["lag_seconds"][idle.name]
            return response if lag > 1 else None

        response = wait_until(behind, 10, "the idle projection to lag past one second")

        assert response.status_code == 503
        assert response.json()["checks"]["projections"]["ok"] is False
        events, seconds = lag_of(idle)
        assert events == 1 and seconds > 1
        catch_up(idle)
        assert lag_of(idle) == (0, 0.0)
    finally:
        unregister_projection(idle.name)
