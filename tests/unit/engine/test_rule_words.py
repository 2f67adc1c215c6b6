"""The rules' refusals in words: field names as a person says them, numbers grouped."""

from __future__ import annotations

import pytest

from games.engine.rule_words import RULE_WORDS, in_words
from games.engine.rules import FIELD_NAMES, RulesError, rules_from_spec


def test_every_rule_field_has_its_words() -> None:
    assert set(RULE_WORDS) == set(FIELD_NAMES)


@pytest.mark.parametrize(
    ("spec", "said"),
    [
        (
            {"target_score": 10_001},
            "Target score must be at most 10,000 (twenty times the standard 500), not 10,001.",
        ),
        ({"lose_score": -20_000}, "Losing score must be at least -10,000"),
        ({"nil_points": -1}, "Nil points and blind nil points must be 0 or more."),
        ({"target_score": 100, "lose_score": -200, "hands": 0}, "Hands must be 1 or more"),
        ({"set_penalty": "half"}, "Set penalty must be 'minus_bid'"),
        ({"nil_points": 3 * 10**15}, "not a 52-bit number."),
    ],
)
def test_refusals_in_words(spec: dict[str, object], said: str) -> None:
    with pytest.raises(RulesError) as refused:
        rules_from_spec(spec)

    assert in_words(str(refused.value)).startswith(said) or said in in_words(str(refused.value))


def test_the_known_fields_stay_as_a_program_sends_them() -> None:
    with pytest.raises(RulesError) as refused:
        rules_from_spec({"target": 300})

    text = in_words(str(refused.value))
    assert text.startswith("Unknown rule field: target. Known fields: target_score, lose_score")


@pytest.mark.parametrize(
    ("message", "said"),
    [
        ("fixed_hands runs from 1 to 10000.", "Hands per match runs from 1 to 10,000."),
        (
            "spectator_delay_tricks is a whole number from 0 to 13.",
            "Spectators' delay in tricks is a whole number from 0 to 13.",
        ),
        (
            "player_in (a user id) or username_in is required.",
            "Incoming player (a user id) or incoming player's username is required.",
        ),
        ("kind is swiss or round_robin.", "Kind is swiss or round_robin."),
        ("There is no player called '12345'.", "There is no player called '12345'."),
        (
            "Unknown field 'pets'; known: entrant_id, name, players.",
            "Unknown field 'pets'; known: entrant_id, name, players.",
        ),
    ],
)
def test_competition_and_league_refusals_in_words(message: str, said: str) -> None:
    """The same words serve the competitions' and leagues' refusals; values a request
    sends, quoted values and the list of known fields stay as a program spells them."""
    assert in_words(message) == said
