"""The competitions' and leagues' refusals over HTTP speak words: the organiser's pages
show the message as it comes, so it names fields as a person does and groups large
numbers, while the code a program tests stays the same, and nothing is written."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import event_count
from .test_verify_and_api import client_for

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize(
    ("spec", "code", "said"),
    [
        (
            {"name": "Club", "fixed_hands": 101},
            "invalid",
            "Hands per match is a whole number from 1 to 100.",
        ),
        (
            {"name": "Club", "spectator_delay_tricks": 14},
            "invalid",
            "Spectators' delay in tricks is a whole number from 0 to 13.",
        ),
        (
            {"name": "Club", "rules": {"target_score": 10_001}},
            "bad_rules",
            "Target score must be at most 10,000",
        ),
        (
            # The create page reads the stage and the field from this sentence
            # (competitions/settings.js stageRefusal) to mark the field.
            {"name": "Club", "stages": [{"kind": "swiss", "rounds": 65}]},
            "invalid",
            "Stage 1 rounds is a whole number from 0 to 64.",
        ),
        (
            {"name": "Club", "bots_for_no_shows": "yes"},
            "invalid",
            "Computer players for no-shows is true or false.",
        ),
    ],
)
def test_a_competition_refused_in_words(
    organiser: Any, spec: dict[str, Any], code: str, said: str
) -> None:
    before = event_count()

    response = client_for(organiser).post("/api/competitions", spec, format="json")

    assert response.status_code == 400, response.content
    body = response.json()
    assert body["code"] == code
    assert body["message"].startswith(said), body
    for raw in ("fixed_hands", "spectator_delay_tricks", "target_score", "bots_for_no_shows"):
        assert raw not in body["message"]
    assert event_count() == before


def test_an_unknown_field_keeps_the_known_ones_as_sent(organiser: Any) -> None:
    response = client_for(organiser).post(
        "/api/competitions", {"name": "Club", "colour": "red"}, format="json"
    )

    assert response.status_code == 400
    message = response.json()["message"]
    assert message.startswith("Unknown field 'colour'; known: ")
    assert "fixed_hands" in message and "spectator_delay_tricks" in message


def test_a_substitution_refused_in_words(organiser: Any, swiss: Any) -> None:
    cid = swiss(4)

    response = client_for(organiser).post(
        f"/api/competitions/{cid}/entrants/e1/substitute", {}, format="json"
    )

    assert response.status_code == 400
    assert response.json() == {
        "code": "invalid",
        "message": "Incoming player (a user id) or incoming player's username is required.",
    }
