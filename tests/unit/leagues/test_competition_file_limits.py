"""The competition file's documented contract (issue 17, point 5): every limit the reader
enforces is refused one step past it, with the range in the reason, and stated in
docs/formats.md's table of fields, where the knockout's ``match`` field is listed too."""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from leagues.core import competition_file
from leagues.core.competition_file import (
    MAX_RESULTS,
    MAX_ROUNDS,
    CompetitionFileError,
    read_competition,
)
from leagues.core.entrants import MAX_ENTRANTS, MAX_ID_LENGTH, MAX_RATING
from leagues.core.pairings import MAX_FORBIDDEN_PAIRS
from leagues.core.results import MAX_FIXED_HANDS, MAX_GAME_POINTS, MAX_MATCH_POINTS
from leagues.core.stages import MAX_SWISS_ROUNDS

from .test_competition_file import GOOD

DOCS = Path(__file__).resolve().parents[3] / "docs" / "formats.md"

Change = Callable[[dict[str, Any]], None]


def at(path: str, value: Any) -> Change:
    """Set the value at ``a.b[0].c`` of the document."""
    parts = [int(p) if p.isdigit() else p for p in re.findall(r"[^.\[\]]+", path)]

    def change(document: dict[str, Any]) -> None:
        target: Any = document
        for part in parts[:-1]:
            target = target[part]
        target[parts[-1]] = value

    return change


def table_rows() -> dict[str, str]:
    """docs/formats.md's competition file fields: the first cell's field names -> meaning."""
    text = DOCS.read_text()
    section = text[text.index("## Competition files") : text.index("### The CSV export")]
    rows = {}
    for line in section.splitlines():
        if line.startswith("| `"):
            field, meaning = line.strip("|").split("|", 1)
            for name in re.findall(r"`([^`]+)`", field):
                rows[name] = meaning
    return rows


# (JSON path set, value one past the limit, where the refusal points, its reason,
#  the documented row, what the row states)
LIMITS = [
    (
        "results[0].points.north_south",
        MAX_GAME_POINTS + 1,
        "$.results[0].points.north_south",
        f"{MAX_GAME_POINTS + 1} is out of range; expected -{MAX_GAME_POINTS} to {MAX_GAME_POINTS}.",
        "results[]",
        f"-{MAX_GAME_POINTS:,} to {MAX_GAME_POINTS:,}",
    ),
    (
        "results[0].points.east_west",
        -MAX_GAME_POINTS - 1,
        "$.results[0].points.east_west",
        "out of range",
        "results[]",
        "game points, whole numbers",
    ),
    (
        "entrants[0].rating",
        MAX_RATING + 1,
        "$.entrants[0].rating",
        f"expected -{MAX_RATING} to {MAX_RATING}.",
        "entrants[]",
        f"-{MAX_RATING:,} to {MAX_RATING:,}",
    ),
    (
        "rounds",
        [{}] * (MAX_ROUNDS + 1),
        "$.rounds",
        f"at most {MAX_ROUNDS} entries.",
        "rounds[]",
        f"at most {MAX_ROUNDS} rounds",
    ),
    (
        "rounds[0].number",
        MAX_ROUNDS + 1,
        "$.rounds[0].number",
        f"expected 1 to {MAX_ROUNDS}.",
        "rounds[]",
        "numbered 1, 2, ... in order",
    ),
    (
        "results[0].round",
        MAX_ROUNDS + 1,
        "$.results[0].round",
        f"expected 1 to {MAX_ROUNDS}.",
        "results[]",
        f"`round` 1-{MAX_ROUNDS}",
    ),
    (
        "results[0].board",
        MAX_ENTRANTS + 1,
        "$.results[0].board",
        f"expected 1 to {MAX_ENTRANTS}.",
        "results[]",
        f"`board` 1-{MAX_ENTRANTS:,}",
    ),
    (
        "results",
        [{}] * (MAX_RESULTS + 1),
        "$.results",
        f"at most {MAX_RESULTS} entries.",
        "results[]",
        f"at most {MAX_RESULTS:,}",
    ),
    (
        "rounds[0].matches[0].match",
        "W" * 17,
        "$.rounds[0].matches[0].match",
        "at most 16 characters.",
        "rounds[]",
        "in a knockout `match`: the bracket match it is (`W1-1`",
    ),
    (
        "competition.stages[0].rounds",
        MAX_SWISS_ROUNDS + 1,
        "$.competition.stages[0].rounds",
        f"expected 0 to {MAX_SWISS_ROUNDS}.",
        "competition.stages",
        f"`rounds` 1-{MAX_SWISS_ROUNDS}",
    ),
    (
        "competition.stages",
        [{"kind": "swiss", "rounds": 1}] * 9,
        "$.competition.stages",
        "at most 8 entries.",
        "competition.stages",
        "1-8 stages",
    ),
    (
        "competition.fixed_hands",
        MAX_FIXED_HANDS + 1,
        "$.competition.fixed_hands",
        f"expected 1 to {MAX_FIXED_HANDS}.",
        "competition.fixed_hands",
        f"1-{MAX_FIXED_HANDS} hands",
    ),
    (
        "competition.match_points",
        {"win": MAX_MATCH_POINTS + 1},
        "$.competition.match_points.win",
        f"expected 0 to {MAX_MATCH_POINTS}.",
        "competition.match_points",
        f"whole numbers 0-{MAX_MATCH_POINTS}",
    ),
    (
        "competition.tiebreaks",
        ["wins"] * 17,
        "$.competition.tiebreaks",
        "at most 16 entries.",
        "competition.tiebreaks",
        "at most 16 names",
    ),
    (
        "competition.name",
        "n" * 201,
        "$.competition.name",
        "at most 200 characters.",
        "competition.id",
        "`name` 0-200 characters",
    ),
    (
        "entrants[0].id",
        "e" * (MAX_ID_LENGTH + 1),
        "$.entrants[0].id",
        f"at most {MAX_ID_LENGTH} characters.",
        "entrants[]",
        f"`id` 1-{MAX_ID_LENGTH} characters",
    ),
    (
        "entrants[0].joined_round",
        MAX_ROUNDS + 1,
        "$.entrants[0].joined_round",
        f"expected 1 to {MAX_ROUNDS}.",
        "entrants[]",
        f"`joined_round` 1-{MAX_ROUNDS}",
    ),
    (
        "entrants[0].withdrawn_after_round",
        MAX_ROUNDS + 1,
        "$.entrants[0].withdrawn_after_round",
        f"expected 0 to {MAX_ROUNDS}.",
        "entrants[]",
        f"0-{MAX_ROUNDS} (the last round played)",
    ),
    (
        "forbidden_pairs",
        [["A", "B"]] * (MAX_FORBIDDEN_PAIRS + 1),
        "$.forbidden_pairs",
        f"at most {MAX_FORBIDDEN_PAIRS} entries.",
        "forbidden_pairs",
        f"at most {MAX_FORBIDDEN_PAIRS} pairs",
    ),
    (
        "entrants",
        [{}] * (MAX_ENTRANTS + 1),
        "$.entrants",
        f"at most {MAX_ENTRANTS} entries.",
        "entrants[]",
        f"at most {MAX_ENTRANTS:,} entrants",
    ),
]


@pytest.mark.parametrize(
    ("path", "value", "where", "reason", "row", "documented"),
    LIMITS,
    ids=[case[0] for case in LIMITS],
)
def test_one_past_each_limit_is_refused_and_the_limit_is_documented(
    path: str, value: Any, where: str, reason: str, row: str, documented: str
) -> None:
    document = copy.deepcopy(GOOD)
    at(path, value)(document)
    with pytest.raises(CompetitionFileError) as refused:
        read_competition(json.dumps(document))
    assert refused.value.where == where
    assert reason in refused.value.reason
    assert refused.value.line is not None
    assert documented in table_rows()[row], f"docs/formats.md's {row} row: {documented!r}"


def test_the_limit_itself_is_accepted() -> None:
    document = copy.deepcopy(GOOD)
    document["results"][0]["points"] = {"north_south": MAX_GAME_POINTS, "east_west": 0}
    document["entrants"][0]["rating"] = -MAX_RATING
    document["rounds"][0]["matches"][0]["match"] = "W" * 16
    document["competition"]["fixed_hands"] = None
    assert read_competition(json.dumps(document)).results[0].north_south_points == (MAX_GAME_POINTS)


def test_every_field_the_reader_knows_is_in_the_table() -> None:
    """Each top-level field and each competition setting has its row, and each of a
    round's match fields (the knockout's ``match`` included) is named in the rounds row."""
    rows = table_rows()
    for name in competition_file.TOP_KEYS:
        assert {name, f"{name}[]"} & set(rows) or any(r.startswith(f"{name}.") for r in rows)
    for name in competition_file.COMPETITION_KEYS:
        assert f"competition.{name}" in rows or f"`{name}`" in rows["competition.id"], name
    for name in competition_file.MATCH_KEYS:
        assert f"`{name}`" in rows["rounds[]"], f"rounds[].matches[].{name}"
