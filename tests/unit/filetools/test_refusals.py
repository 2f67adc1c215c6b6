"""How ``standings`` and ``pair`` refuse (issue 17, point 5; docs/formats.md): one line
on stderr, exit 1, nothing on stdout, starting ``FILE:LINE:`` or, where no line applies,
``FILE: $:`` (the competition as a whole), ``FILE: file:`` (the file as a whole) or the
option's name."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from filetools.cli import main
from leagues.core.competition_file import MAX_FILE_BYTES
from tests.unit.leagues.test_competition_file import GOOD


def refusal(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    assert main(list(argv)) == 1
    out, err = capsys.readouterr()
    assert out == ""
    [line] = err.splitlines()
    return line


def write(tmp_path: Path, document: Any, name: str = "club.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(document, indent=2))
    return path


def test_a_refusal_of_the_competition_as_a_whole_points_at_the_document(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    open_round = copy.deepcopy(GOOD)
    open_round["results"] = []
    path = write(tmp_path, open_round)
    assert refusal(capsys, "pair", str(path), "--seed", "s") == (
        f"{path}: $: Round 1 still has matches without a result; close it first."
    )
    finished = copy.deepcopy(GOOD)
    finished["competition"]["stages"] = [{"kind": "swiss", "rounds": 1}]
    path = write(tmp_path, finished, "finished.json")
    assert refusal(capsys, "pair", str(path)) == (
        f"{path}: $: Every stage of the competition is complete."
    )


def test_the_file_as_a_whole(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    latin = tmp_path / "latin.json"
    latin.write_bytes(b'{"name": "caf\xe9"}')
    assert refusal(capsys, "standings", str(latin)) == f"{latin}: file: not UTF-8 text."
    huge = tmp_path / "huge.json"
    with huge.open("wb") as handle:  # sparse: no disk is used
        handle.truncate(MAX_FILE_BYTES + 1)
    assert refusal(capsys, "pair", str(huge)) == f"{huge}: file: larger than 64 MiB."
    assert refusal(capsys, "standings", str(tmp_path)) == (
        f"{tmp_path}: file: cannot be read: Is a directory."
    )


def test_options_are_named_by_themselves(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path, GOOD)
    assert refusal(capsys, "pair", str(path), "--seed", "no spaces").startswith(
        "--seed: a seed is 1 to 128 characters"
    )
    assert refusal(capsys, "standings", str(path), "--tiebreaks", "buchholtz").startswith(
        "--tiebreaks: 'buchholtz' is not a tie-break"
    )


def test_a_problem_in_the_file_starts_with_its_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    document = copy.deepcopy(GOOD)
    document["entrants"][1]["rating"] = "high"
    path = write(tmp_path, document)
    line = 1 + path.read_text().splitlines().index('      "rating": "high"')
    assert refusal(capsys, "standings", str(path)) == (
        f"{path}:{line}: $.entrants[1].rating: expected a whole number from "
        "-1000000000 to 1000000000."
    )
