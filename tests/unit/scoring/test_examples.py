"""The worked examples of the seed documents, from ../shared/rules/examples.json.

CI checks the shared folder out beside the clone; tests/data/examples.json is a copy
for clones without it, and must stay identical while both exist.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from scoring.core.scoresheet import score_scoresheet

REPO = Path(__file__).resolve().parents[3]
SHARED_EXAMPLES = REPO.parent / "shared" / "rules" / "examples.json"
COPIED_EXAMPLES = REPO / "tests" / "data" / "examples.json"
EXAMPLES_FILE = SHARED_EXAMPLES if SHARED_EXAMPLES.exists() else COPIED_EXAMPLES


def load_examples() -> list[dict[str, Any]]:
    examples: list[dict[str, Any]] = json.loads(EXAMPLES_FILE.read_text())["examples"]
    return examples


EXAMPLES = load_examples()


def test_there_are_examples_to_check() -> None:
    assert len(EXAMPLES) >= 7


@pytest.mark.skipif(not SHARED_EXAMPLES.exists(), reason="../shared is not beside this clone")
def test_the_copy_in_tests_data_matches_the_shared_file() -> None:
    assert json.loads(COPIED_EXAMPLES.read_text()) == json.loads(SHARED_EXAMPLES.read_text())


@pytest.mark.parametrize("example", EXAMPLES, ids=[example["name"] for example in EXAMPLES])
def test_seed_worked_example(example: dict[str, Any]) -> None:
    expected = example["expected"]
    result = score_scoresheet(example["scoresheet"]).as_dict()
    assert len(result["hands"]) == len(expected["hands"])
    for number, (got, want) in enumerate(
        zip(result["hands"], expected["hands"], strict=True), start=1
    ):
        for team, figures in want.items():
            for key, value in figures.items():
                assert got[team][key] == value, f"hand {number}, {team}, {key}"
    assert result["totals"] == expected["totals"]
    assert result["winner"] == expected["winner"]
    assert result["finished_after_hand"] == expected["finished_after_hand"]
