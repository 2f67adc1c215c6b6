"""The OpenAPI schema: valid, warning-free, and listing every endpoint of docs/api.md."""

from __future__ import annotations

from io import StringIO

import pytest
import yaml
from django.core.management import call_command
from rest_framework.test import APIClient

ENDPOINTS = {
    "/api/auth/register": {"post"},
    "/api/auth/token": {"post"},
    "/api/auth/me": {"get"},
    "/api/tables": {"get", "post"},
    "/api/tables/{table_id}": {"get"},
    "/api/tables/{table_id}/events": {"get"},
    "/api/tables/{table_id}/start": {"post"},
    "/api/tables/{table_id}/look": {"post"},
    "/api/tables/{table_id}/bid": {"post"},
    "/api/tables/{table_id}/pass": {"post"},
    "/api/tables/{table_id}/play": {"post"},
    "/api/tables/{table_id}/seats/{seat}/take": {"post"},
    "/api/tables/{table_id}/seats/{seat}/leave": {"post"},
    "/api/tables/{table_id}/seats/{seat}/bot": {"post"},
    "/api/tables/{table_id}/seats/{seat}/reclaim": {"post"},
    "/api/tables/{table_id}/ledger": {"get"},
    "/api/tables/{table_id}/rescore": {"get"},
    "/api/tables/{table_id}/export": {"get"},
    "/api/tables/{table_id}/replay": {"get"},
    "/api/tables/{table_id}/verification": {"get"},
    "/api/rescore": {"post"},
    "/api/presets": {"get", "post"},
    "/api/presets/{name}": {"get", "put"},
    "/api/presets/{name}/versions": {"get"},
    "/api/audit/digest": {"get"},
}


def test_spectacular_validates_without_warnings() -> None:
    out = StringIO()

    call_command("spectacular", "--validate", "--fail-on-warn", stdout=out)

    schema = yaml.safe_load(out.getvalue())
    assert schema["openapi"].startswith("3.")


@pytest.mark.django_db
def test_schema_lists_every_endpoint_with_its_methods(anonymous: APIClient) -> None:
    response = anonymous.get("/api/schema/?format=json")

    assert response.status_code == 200
    paths = response.json()["paths"]
    for path, methods in ENDPOINTS.items():
        assert path in paths, path
        assert methods <= set(paths[path]), (path, set(paths[path]))


@pytest.mark.django_db
def test_commands_document_the_idempotency_key_and_their_errors(anonymous: APIClient) -> None:
    paths = anonymous.get("/api/schema/?format=json").json()["paths"]

    bid = paths["/api/tables/{table_id}/bid"]["post"]

    assert "Idempotency-Key" in {p["name"] for p in bid["parameters"] if p["in"] == "header"}
    assert {"200", "400", "401", "403", "404", "409"} <= set(bid["responses"])


def test_the_swagger_ui_is_served(anonymous: APIClient) -> None:
    response = anonymous.get("/api/docs/")

    assert response.status_code == 200
    assert b"swagger" in response.content.lower()
