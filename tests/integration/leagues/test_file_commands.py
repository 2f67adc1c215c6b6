"""``manage.py standings FILE`` and ``manage.py pair FILE`` run without a database: in a
subprocess whose DATABASE_URL points at a closed port, a good file gives standings and
pairings, a bad one is refused as ``FILE:LINE: reason`` (with the JSON path), exit 1, the
line alone: no ``CommandError:`` before it (docs/formats.md, "Competition files")."""

from __future__ import annotations

import copy
import json
import os
import subprocess
import sys
import uuid
from pathlib import Path
from typing import Any

import pytest

from services.testing import LOCAL_ONLY_SECRET_KEY
from services.testing.processes import free_port, port_open
from tests.unit.leagues.test_competition_file import GOOD

ROOT = Path(__file__).resolve().parents[3]


def run(*args: str) -> subprocess.CompletedProcess[str]:
    port = free_port()
    assert not port_open(port)
    dead = f"postgresql://nobody:nothing@127.0.0.1:{port}/nowhere"
    env = {
        **os.environ,
        "DATABASE_URL": dead,
        "DATABASE_OWNER_URL": dead,
        "SECRET_KEY": LOCAL_ONLY_SECRET_KEY,
        "DJANGO_SETTINGS_MODULE": "services.settings",
    }
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.fixture
def good_file(tmp_path: Path) -> Path:
    path = tmp_path / "club.json"
    path.write_text(json.dumps(GOOD, indent=2))
    return path


def test_the_database_really_is_out_of_reach() -> None:
    """The probe the other tests rely on: a command that needs the database fails."""
    result = run("verify_pairings", str(uuid.uuid4()))
    assert result.returncode != 0
    assert "connect" in result.stderr.lower() or "connection" in result.stderr.lower()


def test_standings_and_pair_of_a_good_file_need_no_database(good_file: Path) -> None:
    table = run("standings", str(good_file))
    assert table.returncode == 0, table.stderr
    assert [line.split()[1] for line in table.stdout.splitlines()[1:]] == ["C", "A", "B"]
    as_json = run("standings", str(good_file), "--format", "json", "--tiebreaks", "wins")
    assert as_json.returncode == 0, as_json.stderr
    assert json.loads(as_json.stdout)["tiebreaks"] == ["wins", "lots"]
    paired = run("pair", str(good_file), "--seed", "fixed-seed")
    assert paired.returncode == 0, paired.stderr
    document = json.loads(paired.stdout)
    assert document["round"] == 2 and document["seed"] == "fixed-seed"
    # C had the bye in round 1: three entrants, one match and one bye, and not C's again.
    [match] = document["matches"]
    assert len(document["byes"]) == 1 and document["byes"] != ["C"]
    assert sorted([match["north_south"], match["east_west"], *document["byes"]]) == ["A", "B", "C"]
    assert len(document["commitment"]) == 64


def refused(path: Path, command: str, *extra: str) -> str:
    result = run(command, str(path), *extra)
    assert result.returncode == 1, (result.stdout, result.stderr)
    assert result.stdout == ""
    [message] = [line for line in result.stderr.splitlines() if line.strip()]
    return message


@pytest.mark.parametrize("command", ["standings", "pair"])
def test_a_bad_file_is_refused_with_the_line_and_the_reason(tmp_path: Path, command: str) -> None:
    not_json = tmp_path / "broken.json"
    not_json.write_text('{\n  "format": "spades-competition",\n  "version": 1,,\n}')
    assert refused(not_json, command).startswith(f"{not_json}:3: column 16: not JSON: ")

    document: dict[str, Any] = copy.deepcopy(GOOD)
    document["results"][0]["east_west"] = "Z"
    unknown = tmp_path / "unknown.json"
    text = json.dumps(document, indent=2)
    unknown.write_text(text)
    line = 1 + text.splitlines().index('      "east_west": "Z",')
    assert refused(unknown, command) == (
        f"{unknown}:{line}: $.results[0].east_west: 'Z' is not an entrant of this competition."
    )
    # A missing field: the line of the object it is missing from.
    del document["rounds"][0]["matches"][0]["board"]
    missing_field = tmp_path / "missing_field.json"
    text = json.dumps(document, indent=2)
    missing_field.write_text(text)
    line = 1 + text.splitlines().index('  "rounds": [') + 4
    assert refused(missing_field, command).startswith(
        f"{missing_field}:{line}: $.rounds[0].matches[0].board: "
    )
    missing = tmp_path / "missing.json"
    assert refused(missing, command) == (
        f"{missing}: file: cannot be read: No such file or directory."
    )


def test_a_bad_tiebreak_name_is_refused(good_file: Path) -> None:
    message = refused(good_file, "standings", "--tiebreaks", "buchholtz")
    assert message.startswith("--tiebreaks: ")
    assert "buchholtz" in message


def test_the_table_shows_each_declared_tiebreak_column(good_file: Path) -> None:
    """The table an organiser reads says why tied entrants are ordered as they are: a
    column per declared tie-break (lots, the last, has no value to show), the same
    values as the JSON."""
    table = run("standings", str(good_file), "--tiebreaks", "wins,buchholz")
    assert table.returncode == 0, table.stderr
    header, *lines = table.stdout.splitlines()
    assert header.split()[-2:] == ["wins", "buchholz"] and "lots" not in header
    as_json = run("standings", str(good_file), "--format", "json", "--tiebreaks", "wins,buchholz")
    rows = json.loads(as_json.stdout)["rows"]
    shown = [line.split()[-2:] for line in lines]
    expected = [[str(row["tiebreaks"][name]) for name in ("wins", "buchholz")] for row in rows]
    assert shown == expected
