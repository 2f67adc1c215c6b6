"""The file tools with nothing but the file (issue 18, point 9): ``scoresheet``,
``replay``, ``standings``, ``pair`` and ``par`` run with an empty environment (``env -i``: no
``SECRET_KEY``, no ``DEBUG``, no database URL, no settings module), both as
``manage.py TOOL`` and as the ``spades-tools`` console script installed with the
project, and the console script imports no Django module at all."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from bots.strategies.selfplay import play_version
from filetools import NAMES
from filetools.cli import TOOLS
from leagues.core.competition_file import competition_document, read_competition
from leagues.core.duplicate.boards import derive_board
from leagues.core.duplicate.par import PAR_METHOD, BoardPar, ParMethod, compute_par
from tests.unit.engine.test_replay_command import one_hand_record
from tests.unit.leagues.test_competition_file import GOOD
from tests.unit.leagues.test_duplicate_stage_file import played
from tests.unit.scoring.test_scoresheet_command import SHEET

ROOT = Path(__file__).resolve().parents[3]
# bin/lib/env.sh installs the project into .venv (pip install -e .), which puts the
# console script beside the interpreter.
CONSOLE_SCRIPT = Path(sys.executable).parent / "spades-tools"


def with_par() -> dict[str, object]:
    """A stage-seated duplicate file of one revealed board, with its par played once by
    this code's Hard (what the platform exports)."""
    competition = read_competition(json.dumps(played(random.Random(7), 4, 1, 1)))
    assert competition.duplicate is not None
    version = PAR_METHOD.version
    document = competition_document(competition)
    board = document["rounds"][0]["boards"][0]
    par = compute_par(
        derive_board(board["seed"], 1),
        competition.duplicate.settings.rules,
        play_version,
        ParMethod("hard", version, 1),
    )
    board["par"] = BoardPar.from_published(par.as_dict(), version).as_dict()
    return document


def files(tmp_path: Path) -> dict[str, Path]:
    documents = {
        "scoresheet": SHEET,
        "replay": one_hand_record(),
        "competition": GOOD,
        "par": with_par(),
    }
    paths = {}
    for name, document in documents.items():
        paths[name] = tmp_path / f"{name}.json"
        paths[name].write_text(json.dumps(document, indent=2))
    return paths


def arguments(tool: str, paths: dict[str, Path]) -> list[str]:
    if tool in ("scoresheet", "replay"):
        return [tool, str(paths[tool]), "--format", "json"]
    if tool == "par":
        return [tool, str(paths["par"])]
    extra = ["--format", "json"] if tool == "standings" else ["--seed", "fixed-seed"]
    return [tool, str(paths["competition"]), *extra]


def run_empty(command: list[str], cwd: Path, *variables: str) -> subprocess.CompletedProcess[str]:
    """``command`` under ``env -i`` (plus ``variables``, NAME=VALUE): nothing inherited."""
    return subprocess.run(
        ["env", "-i", *variables, *command],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
    )


def check_output(tool: str, stdout: str) -> None:
    if tool == "par":
        assert stdout == "round 1 board 1: par holds\n1 par(s) verified\n"
        return
    document = json.loads(stdout)
    if tool == "scoresheet":
        assert document["totals"] == {"north_south": 0, "east_west": 71}
    elif tool == "replay":
        assert document["totals"] == {"north_south": -60, "east_west": 67}
    elif tool == "standings":
        assert [row["entrant"] for row in document["rows"]] == ["C", "A", "B"]
    else:
        assert document["round"] == 2 and document["seed"] == "fixed-seed"


def test_the_console_script_is_installed_and_knows_every_tool() -> None:
    assert CONSOLE_SCRIPT.exists(), (
        f"{CONSOLE_SCRIPT} is missing: bin/test installs the project (pip install -e .)"
    )
    assert tuple(TOOLS) == NAMES


@pytest.mark.parametrize("tool", NAMES)
def test_manage_py_runs_each_tool_with_an_empty_environment(tmp_path: Path, tool: str) -> None:
    result = run_empty([sys.executable, "manage.py", *arguments(tool, files(tmp_path))], cwd=ROOT)
    assert result.returncode == 0, result.stderr
    check_output(tool, result.stdout)


@pytest.mark.parametrize("tool", NAMES)
def test_the_console_script_runs_each_tool_without_importing_django(
    tmp_path: Path, tool: str
) -> None:
    # -X importtime, as an environment variable: every module the process imports, on stderr.
    result = run_empty(
        [str(CONSOLE_SCRIPT), *arguments(tool, files(tmp_path))],
        tmp_path,
        "PYTHONPROFILEIMPORTTIME=1",
    )
    assert result.returncode == 0, result.stderr
    check_output(tool, result.stdout)
    imported = {
        line.rsplit("|", 1)[-1].strip()
        for line in result.stderr.splitlines()
        if line.startswith("import time:") and "|" in line
    }
    # The probe sees the tools' own imports, so it would see Django's too.
    assert {"filetools.cli", f"filetools.{tool}", "rich"} <= imported
    assert not [name for name in imported if name == "django" or name.startswith("django.")]


@pytest.mark.parametrize("command", [["manage.py"], []])
def test_a_refusal_is_one_line_and_exit_1_without_any_prefix(
    tmp_path: Path, command: list[str]
) -> None:
    bad = tmp_path / "sheet.json"
    bad.write_text(json.dumps({"hands": [{**SHEET["hands"][0], "bids": {"north": 14}}]}))
    launcher = [sys.executable, *command] if command else [str(CONSOLE_SCRIPT)]
    cwd = ROOT if command else tmp_path
    result = run_empty([*launcher, "scoresheet", str(bad)], cwd)
    assert result.returncode == 1
    assert result.stdout == ""
    [line] = result.stderr.splitlines()
    assert line.startswith("Hand 1: ") and "Traceback" not in result.stderr

    missing = tmp_path / "nowhere.json"
    result = run_empty([*launcher, "standings", str(missing)], cwd)
    assert result.returncode == 1
    assert result.stderr == f"{missing}: file: cannot be read: No such file or directory.\n"


def test_an_unknown_tool_or_option_is_refused_by_the_command_line(tmp_path: Path) -> None:
    result = run_empty([str(CONSOLE_SCRIPT), "rescore", "x.json"], tmp_path)
    assert result.returncode == 2
    assert "invalid choice: 'rescore'" in result.stderr
    result = run_empty([str(CONSOLE_SCRIPT), "scoresheet", "-", "--format", "csv"], tmp_path)
    assert result.returncode == 2
    assert "invalid choice: 'csv'" in result.stderr
