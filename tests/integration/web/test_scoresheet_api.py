"""``POST /api/scoresheet``: the calculator's scoring, a thin edge over score_scoresheet."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

EXAMPLE_2 = {
    "bids": {"north": 4, "east": "nil", "south": 3, "west": 5},
    "tricks": {"north": 5, "east": 0, "south": 4, "west": 4},
}


def post(document: Any) -> Any:
    return APIClient().post("/api/scoresheet", document, format="json")


def test_seed_example_2_nil_made_partner_set() -> None:
    response = post({"rules": "standard", "hands": [EXAMPLE_2]})

    assert response.status_code == 200
    body = response.json()
    east_west = body["hands"][0]["east_west"]
    assert east_west["hand_score"] == 50
    assert east_west["breakdown"]["nil_points"] == 100
    assert east_west["breakdown"]["contract_points"] == -50
    assert body["hands"][0]["north_south"]["hand_score"] == 72
    assert body["totals"] == {"north_south": 72, "east_west": 50}
    assert body["winner"] is None


def test_seed_example_1_bags_bite() -> None:
    # North-South arrive with 8 bags, then bid 7 and take 9: 72 - 100 = -28.
    eight_bags = {
        "bids": {"north": 1, "east": 1, "south": 1, "west": 1},
        "tricks": {"north": 6, "east": 2, "south": 4, "west": 1},
    }
    bite = {
        "bids": {"north": 4, "east": 2, "south": 3, "west": 2},
        "tricks": {"north": 5, "east": 2, "south": 4, "west": 2},
    }
    body = post({"rules": "standard", "hands": [eight_bags, bite]}).json()

    assert body["hands"][0]["north_south"]["bags"] == 8
    assert body["hands"][1]["north_south"]["hand_score"] == -28
    assert body["hands"][1]["north_south"]["bags"] == 0


def test_rules_with_options_object() -> None:
    document = {"rules": {"preset": "standard", "set_penalty": "zero"}, "hands": [EXAMPLE_2]}

    body = post(document).json()

    assert body["hands"][0]["east_west"]["hand_score"] == 100  # a set scores 0


@pytest.mark.parametrize(
    ("document", "words"),
    [
        (
            {"hands": [{**EXAMPLE_2, "tricks": {**EXAMPLE_2["tricks"], "west": 3}}]},
            "Hand 1: the tricks add up to 12, not 13",
        ),
        (
            {"hands": [EXAMPLE_2, {**EXAMPLE_2, "bids": {**EXAMPLE_2["bids"], "west": 14}}]},
            "Hand 2: west bid 14",
        ),
        ({"rules": "poker", "hands": [EXAMPLE_2]}, "rules:"),
        ({"hands": []}, '"hands" must be a list'),
        (["not", "an", "object"], "A scoresheet is an object"),
    ],
)
def test_problems_answer_400_naming_the_hand(document: Any, words: str) -> None:
    response = post(document)

    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "bad_scoresheet"
    assert words in body["message"]


def test_malformed_json_is_400() -> None:
    response = APIClient().post(
        "/api/scoresheet", data="{not json", content_type="application/json"
    )

    assert response.status_code == 400
    assert response.json()["code"] == "parse_error"


def test_too_many_hands_is_refused() -> None:
    response = post({"hands": [EXAMPLE_2] * 201})

    assert response.status_code == 400
    assert "at most 200 hands" in response.json()["message"]
