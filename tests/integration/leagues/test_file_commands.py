"""``manage.py standings FILE`` and ``manage.py pair FILE`` run without a database: in a
subprocess whose DATABASE_URL points at a closed port, a good file gives standings and
pairings, a bad one is refused as ``FILE:LINE: reason`` (with the JSON path), exit 1, the
line alone: no ``CommandError:`` before it (docs/formats.md, "Competition files")."""

from __future__ import annotations

import copy
import json
import os
import random
import subprocess
import sys
import uuid
from pathlib import Path
from typing import Any

import pytest

from leagues.core.competition_file import read_competition
from leagues.core.duplicate.session import duplicate_standings
from services.testing import LOCAL_ONLY_SECRET_KEY
from services.testing.processes import free_port, port_open
from tests.unit.leagues.duplicate_files import add_round, played_document
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


# --- duplicate competitions (version 2) --------------------------------------------------


@pytest.fixture
def duplicate_file(tmp_path: Path) -> Path:
    """A 2-table arrow-switch Mitchell, round 1 of 2 played."""
    path = tmp_path / "pairs.json"
    path.write_text(json.dumps(played_document(random.Random(11), 1), indent=2))
    return path


def test_duplicate_standings_and_pair_from_the_file_alone(duplicate_file: Path) -> None:
    table = run("standings", str(duplicate_file))
    assert table.returncode == 0, table.stderr
    header, *lines = table.stdout.splitlines()
    assert header.split()[:4] == ["#", "entrant", "field", "boards"]
    assert header.split()[-3:] == ["%", "IMPs", "tops"]  # the figures the tie-breaks read
    assert [line.split()[0] for line in lines] == ["1", "2", "3", "4"]
    as_json = json.loads(run("standings", str(duplicate_file), "--format", "json").stdout)
    assert as_json["scale"] == "matchpoints" and as_json["board_results"] == 4
    document = json.loads(duplicate_file.read_text())
    competition = read_competition(json.dumps(document))
    expected = duplicate_standings(
        competition.duplicate, [e.id for e in competition.entrants], "dup-lots"
    ).as_dict()
    assert as_json["rows"] == expected["rows"]
    assert [t["board"] for t in as_json["travellers"]] == [1, 2]
    what_if = json.loads(
        run("standings", str(duplicate_file), "--format", "json", "--scale", "imps").stdout
    )
    imps = [row["imps"] for row in what_if["rows"]]
    assert what_if["scale"] == "imps" and imps == sorted(imps, reverse=True)

    paired = run("pair", str(duplicate_file), "--seed", "round-two")
    assert paired.returncode == 0, paired.stderr
    following = json.loads(paired.stdout)
    assert following["round"] == 2 and following["seed"] == "round-two"
    assert [b["board"] for b in following["boards"]] == [3, 4]
    assert [b["dealer"] for b in following["boards"]] == ["south", "west"]
    assert len(following["seating"]) == 4 and len(following["commitment"]) == 64


def test_duplicate_refusals_are_one_line(duplicate_file: Path, tmp_path: Path) -> None:
    document = json.loads(duplicate_file.read_text())
    add_round(document, "round-two")  # paired, no results yet
    open_round = tmp_path / "open.json"
    open_round.write_text(json.dumps(document, indent=2))
    assert refused(open_round, "pair", "--seed", "x") == (
        f"{open_round}: $: Round 2 still has boards without a result (table 1 board 3); "
        "close it first."
    )
    document["rounds"][0]["boards"][1]["dealer"] = "west"
    text = json.dumps(document, indent=2)
    bad_dealer = tmp_path / "dealer.json"
    bad_dealer.write_text(text)
    line = 1 + text.splitlines().index('          "dealer": "west",')
    for command in ("standings", "pair"):
        assert refused(bad_dealer, command) == (
            f"{bad_dealer}:{line}: $.rounds[0].boards[1].dealer: board 2 is dealt by east, "
            "not west."
        )
    old = json.loads(duplicate_file.read_text())
    old["version"] = 1
    version_1 = tmp_path / "old.json"
    text = json.dumps(old, indent=2)
    version_1.write_text(text)
    line = 1 + text.splitlines().index('    "duplicate": {')
    assert refused(version_1, "standings") == (
        f"{version_1}:{line}: $.competition.duplicate: duplicate data needs a version 2 file."
    )
    assert refused(duplicate_file, "standings", "--tiebreaks", "matchpoints") == (
        "--tiebreaks: 'matchpoints' is the scale itself; it cannot break its ties."
    )
    assert refused(duplicate_file, "standings", "--tiebreaks", "buchholz").startswith(
        "--tiebreaks: 'buchholz' is not a duplicate tie-break"
    )


def test_scale_is_only_for_duplicate_files(good_file: Path) -> None:
    assert refused(good_file, "standings", "--scale", "imps") == (
        "--scale: only a duplicate competition has a scale."
    )
