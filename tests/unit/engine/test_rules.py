from __future__ import annotations

import pytest

from games.engine.rules import FIELD_NAMES, PRESETS, Rules, RulesError, rules_from_spec, rules_name


def test_standard_holds_the_seed_defaults() -> None:
    assert PRESETS["standard"].to_dict() == {
        "target_score": 500,
        "lose_score": None,
        "nil": True,
        "nil_points": 100,
        "blind_nil": False,
        "blind_nil_points": 200,
        "blind_nil_min_deficit": 100,
        "set_penalty": "minus_bid",
        "bag_penalty": True,
        "nil_tricks_count_for_partner": False,
        "first_lead": "left_of_dealer",
        "breaking_spades": True,
    }


def test_easy_turns_nil_off_scores_a_set_zero_and_plays_to_200() -> None:
    easy = PRESETS["easy"]
    assert (easy.nil, easy.set_penalty, easy.target_score) == (False, "zero", 200)
    assert easy.bid_minimum == 1
    assert PRESETS["standard"].bid_minimum == 0


def test_bicycle_differs_from_standard_only_in_the_set_penalty() -> None:
    standard = PRESETS["standard"].to_dict()
    bicycle = PRESETS["bicycle"].to_dict()
    assert {key for key in standard if standard[key] != bicycle[key]} == {"set_penalty"}
    assert bicycle["set_penalty"] == "zero"


def test_a_spec_is_a_name_or_a_preset_with_overrides() -> None:
    assert rules_from_spec("easy") is PRESETS["easy"]
    custom = rules_from_spec({"preset": "easy", "target_score": 300})
    assert (custom.target_score, custom.nil) == (300, False)
    assert rules_from_spec({"lose_score": -200}).lose_score == -200  # over Standard
    assert rules_name(custom) is None
    assert rules_name(rules_from_spec({"preset": "standard"})) == "standard"
    assert rules_from_spec(Rules().to_dict()) == PRESETS["standard"]


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("fast", "Unknown preset 'fast': use one of standard, easy, bicycle"),
        ({"blind_nil": True, "nil": False}, "Blind nil needs nil: turn nil on, or blind nil off."),
        (
            {"target_score": 200, "lose_score": -200, "preset": "easy", "nil": True},
            None,
        ),
        (
            {"target_score": -300, "lose_score": -200},
            "target_score must be above 0",
        ),
        ({"lose_score": 0}, "lose_score must be below 0"),
        ({"bags": False}, "Unknown rule field: bags. Known fields: target_score,"),
        ({"bags": 1, "nils": 2}, "Unknown rule fields: bags, nils."),
        ({"nil": "yes"}, "nil must be true or false, not 'yes'."),
        ({"target_score": 500.0}, "target_score must be a whole number, not 500.0."),
        ({"target_score": True}, "target_score must be a whole number"),
        ({"set_penalty": "half"}, "set_penalty must be 'minus_bid'"),
        ({"first_lead": "dealer"}, "first_lead must be 'left_of_dealer' or 'two_of_clubs'"),
        ({"nil_points": -1}, "nil_points and blind_nil_points must be 0 or more."),
        ({"blind_nil_min_deficit": -5}, "blind_nil_min_deficit must be 0 or more."),
        ({"preset": 3}, "preset must be a name, not 3."),
        (["standard"], "Rules must be a preset name (standard, easy, bicycle) or an object"),
    ],
)
def test_contradictions_and_unknown_fields_are_refused_with_a_clear_message(
    spec: object, message: str | None
) -> None:
    if message is None:
        assert rules_from_spec(spec).lose_score == -200
        return
    with pytest.raises(RulesError) as caught:
        rules_from_spec(spec)
    assert message in str(caught.value)


def test_a_target_at_or_below_the_lose_score_is_refused() -> None:
    with pytest.raises(RulesError, match=r"target_score \(100\) must be above lose_score \(200\)"):
        rules_from_spec({"target_score": 100, "lose_score": 200})
    with pytest.raises(RulesError, match=r"target_score \(200\) must be above lose_score \(200\)"):
        Rules(target_score=200, lose_score=200)


def test_every_field_of_the_issue_is_a_rules_field() -> None:
    assert set(FIELD_NAMES) == {
        "target_score",
        "lose_score",
        "nil",
        "nil_points",
        "blind_nil",
        "blind_nil_points",
        "blind_nil_min_deficit",
        "set_penalty",
        "bag_penalty",
        "nil_tricks_count_for_partner",
        "first_lead",
        "breaking_spades",
        "hands",
        "extra_hands",
    }
