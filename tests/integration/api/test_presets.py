"""/api/presets: public reads, staff-only writes, every edit a new version."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from scoring.models import RulePreset

pytestmark = pytest.mark.django_db


def test_seeded_presets_are_listed_publicly(anonymous: APIClient) -> None:
    response = anonymous.get("/api/presets")

    assert response.status_code == 200
    names = {preset["name"] for preset in response.json()}
    assert {"standard", "easy", "bicycle"} <= names


def test_a_preset_is_readable_publicly(anonymous: APIClient) -> None:
    response = anonymous.get("/api/presets/easy")

    assert response.status_code == 200
    body = response.json()
    assert body["name"] == "easy"
    assert body["rules"]["target_score"] == 200
    assert body["version"] >= 1


def test_unknown_preset_is_a_404(anonymous: APIClient) -> None:
    for path in ("/api/presets/nope", "/api/presets/nope/versions"):
        response = anonymous.get(path)
        assert response.status_code == 404
        assert response.json()["code"] == "not_found"


def test_staff_create_a_preset(admin_client: APIClient) -> None:
    response = admin_client.post(
        "/api/presets",
        {"name": "club-night", "rules": {"target_score": 300}, "description": "Fridays"},
        format="json",
    )

    assert response.status_code == 201, response.content
    body = response.json()
    assert (body["name"], body["version"]) == ("club-night", 1)
    assert body["rules"]["target_score"] == 300
    assert body["created_by"] == "admin"


def test_a_table_can_use_a_new_preset(admin_client: APIClient) -> None:
    admin_client.post(
        "/api/presets", {"name": "short", "rules": {"target_score": 150}}, format="json"
    )

    response = admin_client.post("/api/tables", {"preset": "short"}, format="json")

    assert response.status_code == 201, response.content
    table = response.json()["table"]
    assert table["preset"] == {"name": "short", "version": 1}
    assert table["rules"]["target_score"] == 150


def test_editing_adds_a_version_and_pinned_tables_keep_theirs(
    admin_client: APIClient, alice: APIClient
) -> None:
    admin_client.post("/api/presets", {"name": "house", "rules": {}}, format="json")
    pinned = alice.post("/api/tables", {"preset": "house"}, format="json").json()["table"]

    edited = admin_client.put("/api/presets/house", {"rules": {"target_score": 250}}, format="json")
    versions = APIClient().get("/api/presets/house/versions").json()
    later = alice.post("/api/tables", {"preset": "house"}, format="json").json()["table"]

    assert edited.status_code == 200, edited.content
    assert edited.json()["version"] == 2
    assert [(v["version"], v["rules"]["target_score"]) for v in versions] == [(1, 500), (2, 250)]
    assert APIClient().get(f"/api/tables/{pinned['id']}").json()["rules"]["target_score"] == 500
    assert later["preset"]["version"] == 2
    assert later["rules"]["target_score"] == 250


@pytest.mark.parametrize(
    ("body", "code", "field"),
    [
        ({"name": "Bad Name", "rules": {}}, "invalid", "name"),
        ({"name": "ok", "rules": []}, "invalid", "rules"),
        ({"name": "ok"}, "invalid", "rules"),
        ({"name": "ok", "rules": {"target_score": "lots"}}, "bad_rules", None),
        ({"name": "ok", "rules": {"bogus": 1}}, "bad_rules", None),
        ({"name": "ok", "rules": {"nil": False, "blind_nil": True}}, "bad_rules", None),
        ({"name": "standard", "rules": {}}, "bad_rules", None),
        ({"name": "ok", "rules": {}, "extra": 1}, "invalid", "non_field_errors"),
    ],
)
def test_bad_presets_are_refused_and_nothing_is_saved(
    admin_client: APIClient, body: dict[str, Any], code: str, field: str | None
) -> None:
    before = RulePreset.objects.count()

    response = admin_client.post("/api/presets", body, format="json")

    assert response.status_code == 400, response.content
    problem = response.json()
    assert problem["code"] == code
    assert problem["message"]
    if field is not None:
        assert field in problem["fields"]
    assert RulePreset.objects.count() == before


def test_bad_edit_is_refused_with_the_engines_sentence_in_words(admin_client: APIClient) -> None:
    before = RulePreset.objects.count()

    response = admin_client.put(
        "/api/presets/standard", {"rules": {"set_penalty": "maybe"}}, format="json"
    )

    assert response.status_code == 400
    assert response.json()["code"] == "bad_rules"
    # The engine's sentence, its field named as a person would (games.engine.rule_words).
    message = response.json()["message"]
    assert message.startswith("Set penalty must be 'minus_bid'"), message
    assert "not 'maybe'" in message and "set_penalty" not in message
    assert RulePreset.objects.count() == before


def test_editing_an_unknown_preset_is_a_404(admin_client: APIClient) -> None:
    response = admin_client.put("/api/presets/nope", {"rules": {}}, format="json")

    assert response.status_code == 404


@pytest.mark.parametrize("who", ["anonymous", "alice"])
def test_only_staff_write_presets(who: str, anonymous: APIClient, alice: APIClient) -> None:
    client = {"anonymous": anonymous, "alice": alice}[who]
    before = RulePreset.objects.count()

    created = client.post("/api/presets", {"name": "mine", "rules": {}}, format="json")
    edited = client.put("/api/presets/standard", {"rules": {"target_score": 1}}, format="json")

    expected = 401 if who == "anonymous" else 403
    assert created.status_code == edited.status_code == expected
    assert RulePreset.objects.count() == before
