"""Each HTTP request's access line (services.request_log) in the JSON format: its request
id, and the table, command and competition ids where they apply."""

from __future__ import annotations

import logging
import uuid
from collections.abc import Callable, Iterator
from typing import Any

import orjson
import pytest
from rest_framework.test import APIClient

from telemetry.logs import JsonFormatter

pytestmark = pytest.mark.django_db


class Lines(logging.Handler):
    """The JSON lines of one logger, formatted as they are written."""

    def __init__(self) -> None:
        super().__init__()
        self.setFormatter(JsonFormatter())
        self.lines: list[dict[str, Any]] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(orjson.loads(self.format(record)))


@pytest.fixture
def access_lines() -> Iterator[list[dict[str, Any]]]:
    handler = Lines()
    logger = logging.getLogger("spades.access")
    logger.addHandler(handler)
    try:
        yield handler.lines
    finally:
        logger.removeHandler(handler)


def test_a_command_line_names_its_request_table_and_command(
    alice: APIClient,
    new_table: Callable[..., dict[str, Any]],
    access_lines: list[dict[str, Any]],
) -> None:
    table_id = new_table()["table_id"]

    response = alice.post(
        f"/api/tables/{table_id}/seats/north/take?ignored=query",
        {},
        format="json",
        HTTP_IDEMPOTENCY_KEY="k-1",
    )

    assert response.status_code == 200, response.content
    line = access_lines[-1]
    assert line["request_id"] == response["X-Request-ID"]
    assert len(line["request_id"]) == 16
    assert line["table_id"] == table_id
    assert line["command_id"] == f"user-{alice.user.pk}:k-1"  # type: ignore[attr-defined]
    assert line["message"].startswith(f"127.0.0.1 POST /api/tables/{table_id}/seats/north/take 200")
    assert "query" not in line["message"]
    assert line["logger"] == "spades.access" and line["level"] == "INFO"
    # The next request is a context of its own.
    alice.get("/api/tables")
    assert {"table_id", "command_id"}.isdisjoint(access_lines[-1])
    assert access_lines[-1]["request_id"] != line["request_id"]


def test_a_competition_request_names_its_competition(
    alice: APIClient, access_lines: list[dict[str, Any]]
) -> None:
    competition = str(uuid.uuid4())

    alice.get(f"/api/competitions/{competition}/standings")

    assert access_lines[-1]["competition_id"] == competition


def test_a_proxys_request_id_is_kept_when_well_formed(
    alice: APIClient, access_lines: list[dict[str, Any]]
) -> None:
    kept = alice.get("/api/tables", HTTP_X_REQUEST_ID="edge-42.a")
    replaced = alice.get("/api/tables", HTTP_X_REQUEST_ID="bad id\nwith spaces")

    assert kept["X-Request-ID"] == "edge-42.a" == access_lines[-2]["request_id"]
    assert replaced["X-Request-ID"] != "bad id\nwith spaces"
    assert len(access_lines[-1]["request_id"]) == 16
