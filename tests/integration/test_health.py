"""GET /api/health against the real PostgreSQL test database and the real Redis."""

from __future__ import annotations

import pytest
from django.test import Client, override_settings


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
