"""Rule values beyond their bounds (issue 12, item 2) are refused wherever rules come in:
the presets API (create and edit), the presets admin and table creation answer with the
engine's sentence and write nothing."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from rest_framework.test import APIClient

from games.engine.rule_words import in_words
from games.engine.rules import PRESETS, RULE_BOUNDS
from scoring.models import RulePreset
from tests.integration.api.conftest import event_count

pytestmark = pytest.mark.django_db


def beyond(name: str) -> int:
    low, high, _ = RULE_BOUNDS[name]
    return low - 1 if name == "lose_score" else high + 1


OUT_OF_BOUNDS = [
    {"nil_points": 3_000_000_000},  # the value that stalled every ledger
    *({name: beyond(name)} for name in sorted(RULE_BOUNDS)),
    {"blind_nil": True, "blind_nil_points": 2**40},  # below the parser's own limit
]


def assert_refused(response: Any, field: str) -> None:
    assert response.status_code == 400, response.content
    problem = response.json()
    assert problem["code"] == "bad_rules"
    # The refusal speaks words: "Target score must be at most 10,000 ...".
    assert problem["message"].startswith(in_words(f"{field} must be at "))


def bounded_field(rules: dict[str, Any]) -> str:
    return next(name for name in rules if name in RULE_BOUNDS)


@pytest.mark.parametrize("rules", OUT_OF_BOUNDS)
def test_creating_a_preset_beyond_a_bound_is_refused_and_saves_nothing(
    admin_client: APIClient, rules: dict[str, Any]
) -> None:
    before = RulePreset.objects.count()

    response = admin_client.post("/api/presets", {"name": "huge", "rules": rules}, format="json")

    assert_refused(response, bounded_field(rules))
    assert RulePreset.objects.count() == before


@pytest.mark.parametrize("rules", OUT_OF_BOUNDS)
def test_editing_a_preset_beyond_a_bound_is_refused_and_saves_no_version(
    admin_client: APIClient, rules: dict[str, Any]
) -> None:
    before = RulePreset.objects.count()

    response = admin_client.put("/api/presets/standard", {"rules": rules}, format="json")

    assert_refused(response, bounded_field(rules))
    assert RulePreset.objects.count() == before


@pytest.mark.parametrize("rules", OUT_OF_BOUNDS)
def test_a_table_beyond_a_bound_is_refused_and_appends_nothing(
    alice: APIClient, rules: dict[str, Any]
) -> None:
    before = event_count()

    response = alice.post("/api/tables", {"rules": {"preset": "standard", **rules}}, format="json")

    assert_refused(response, bounded_field(rules))
    assert event_count() == before


def test_the_bounds_themselves_are_accepted(admin_client: APIClient) -> None:
    rules = {name: RULE_BOUNDS[name][1] for name in RULE_BOUNDS if name != "lose_score"}
    rules["lose_score"] = RULE_BOUNDS["lose_score"][0]

    response = admin_client.post("/api/presets", {"name": "widest", "rules": rules}, format="json")

    assert response.status_code == 201, response.content
    assert {k: response.json()["rules"][k] for k in rules} == rules


def test_the_presets_admin_refuses_a_value_beyond_its_bound(admin_client: APIClient) -> None:
    client = Client()
    client.force_login(admin_client.user)  # type: ignore[attr-defined]
    before = RulePreset.objects.count()

    response = client.post(
        "/admin/scoring/rulepreset/add/",
        {
            "name": "huge",
            "description": "",
            **{k: v for k, v in PRESETS["standard"].to_dict().items() if v not in (None, False)},
            "nil_points": 3000000000,
        },
    )

    assert response.status_code == 200  # the form again, with the engine's sentence
    assert "Nil points must be at most 1,000" in response.content.decode()
    assert RulePreset.objects.count() == before
