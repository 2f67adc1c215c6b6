"""Sentences for a person name the teams North-South and East-West, never by their ids."""

from __future__ import annotations

import pytest

from games.engine.seats import TEAM_NAMES, TEAM_WORDS, SeatError, parse_team
from scoring.core.scoresheet import ScoresheetError, score_scoresheet


def test_each_team_has_words_for_sentences() -> None:
    assert dict(zip(TEAM_NAMES, TEAM_WORDS, strict=True)) == {
        "north_south": "North-South",
        "east_west": "East-West",
    }


def test_an_unknown_team_names_the_ids_to_type_and_the_teams() -> None:
    with pytest.raises(SeatError) as refused:
        parse_team("northsouth")

    assert str(refused.value) == (
        '\'northsouth\' is not a team: use "north_south" (North-South) or "east_west" (East-West).'
    )


def test_a_scoresheet_refusal_names_the_teams_in_words() -> None:
    sweep = {
        "bids": {"north": 6, "east": 6, "south": 7, "west": 7},
        "tricks": {"north": 6, "east": 0, "south": 7, "west": 0},
    }
    document = {"rules": {"target_score": 130}, "hands": [sweep, sweep]}

    with pytest.raises(ScoresheetError) as refused:
        score_scoresheet(document)

    message = str(refused.value)
    assert "(North-South won)" in message
    assert "north_south" not in message and "east_west" not in message
