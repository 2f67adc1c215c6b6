"""Hostile or odd request bodies answer 4xx with the error format, and write nothing."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from .conftest import event_count

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ("[" * 100_000 + "]" * 100_000, 400, "parse_error"),
        ('{"rules": {"target_score": 99999999999999999999999999}}', 400, "parse_error"),
        ('{"turn_timer_seconds": -99999999999999999999}', 400, "parse_error"),
        ('{"rules": {"target_score": NaN}}', 400, "parse_error"),
        ('{"rules": {"target_score": 1e400}}', 400, "bad_rules"),
        ('{"rules": "' + "x" * 3_000_000 + '"}', 413, "request_too_large"),
        ("\ufeff{}", 400, "parse_error"),
        ("", 201, None),
    ],
    ids=["deep", "huge-int", "huge-negative-int", "nan", "inf", "too-large", "bom", "empty"],
)
def test_odd_bodies(alice: APIClient, body: str, status: int, code: str | None) -> None:
    before = event_count()

    response = alice.post("/api/tables", data=body, content_type="application/json")

    assert response.status_code == status, response.content
    if code is not None:
        assert response.json()["code"] == code
        assert response.json()["message"]
        assert event_count() == before


def test_bytes_that_are_not_utf8(alice: APIClient) -> None:
    response = alice.post("/api/tables", data=b"\xff\xfe{", content_type="application/json")

    assert response.status_code == 400
    assert response.json()["code"] == "parse_error"


def test_a_body_that_is_not_json(alice: APIClient) -> None:
    response = alice.post("/api/tables", data="bid=3", content_type="text/plain")

    assert response.status_code == 415
    assert response.json()["code"] == "unsupported_media_type"


def test_a_method_that_is_not_allowed(alice: APIClient) -> None:
    response = alice.delete("/api/tables")

    assert response.status_code == 405
    assert response.json()["code"] == "method_not_allowed"


@pytest.mark.parametrize(
    "rules",
    [
        '{"a":' + "[" * 1990 + "]" * 1990 + "}",
        '{"target_score": 1' + "0" * 40 + "}",
        "{" + '"a":' * 2000,
    ],
    ids=["deep", "huge-int", "unterminated"],
)
def test_odd_rules_in_a_query_string(new_table: Any, anonymous: APIClient, rules: str) -> None:
    table_id = new_table()["table_id"]

    response = anonymous.get(f"/api/tables/{table_id}/rescore", {"rules": rules[:4000]})

    assert response.status_code == 400, response.content
    assert response.json()["message"].startswith("rules: ")


@pytest.mark.parametrize(
    "rules", ["standard\x00", "\x00", '{"preset": "standard\\u0000"}', '{"\\u0000": 1}']
)
def test_nul_characters_in_rules_are_a_400(
    new_table: Any, anonymous: APIClient, rules: str
) -> None:
    table_id = new_table()["table_id"]

    response = anonymous.get(f"/api/tables/{table_id}/rescore", {"rules": rules})

    assert response.status_code == 400, response.content


def test_nul_characters_in_a_body_are_a_400(alice: APIClient) -> None:
    before = event_count()

    response = alice.post(
        "/api/tables",
        data='{"rules": {"preset": "standard\\u0000"}}',
        content_type="application/json",
    )

    assert response.status_code == 400
    assert response.json()["code"] == "parse_error"
    assert event_count() == before


@pytest.mark.parametrize("name", ["%00", "Standard", "a%20b", "-x"])
def test_preset_names_that_cannot_exist_are_a_404(anonymous: APIClient, name: str) -> None:
    response = anonymous.get(f"/api/presets/{name}")

    assert response.status_code == 404
    assert response.json()["code"] == "not_found"


@pytest.mark.parametrize(
    "body",
    [
        '{"rules": "\\ud800"}',
        '{"rules": {"preset": "standard", "name": "a\\udfffb"}}',
        '{"\\udc00": 1}',
        '{"seats": {"north": {"kind": "bot", "level": ["\\ud83d"]}}}',
    ],
    ids=["value", "nested", "key", "in-a-list"],
)
def test_a_lone_surrogate_anywhere_in_a_body_is_a_parse_error(alice: APIClient, body: str) -> None:
    """JSON's escapes can spell half of a surrogate pair, which is no character: the
    parser refuses it for the whole API (services/api/parsers.py), before any view."""
    before = event_count()

    response = alice.post("/api/tables", data=body, content_type="application/json")

    assert response.status_code == 400, response.content
    assert response.json()["code"] == "parse_error"
    assert "lone surrogate" in response.json()["message"]
    assert event_count() == before


def test_a_surrogate_pair_is_one_character(alice: APIClient) -> None:
    response = alice.post(
        "/api/auth/register",
        data='{"username": "smile\\ud83d\\ude00", "password": "correct horse battery staple"}',
        content_type="application/json",
    )

    assert response.status_code != 500 and response.json().get("code") != "parse_error"
