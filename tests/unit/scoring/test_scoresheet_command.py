"""``manage.py scoresheet``: files and stdin, both formats, every error a non-zero exit.

These run without the database: pytest-django refuses any query from a test without
the ``django_db`` mark, so they also prove the command needs none.
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

REPO = Path(__file__).resolve().parents[3]
SHEET: dict[str, Any] = {
    "rules": "standard",
    "hands": [
        {
            "bids": {"north": 1, "east": 1, "south": 1, "west": 1},
            "tricks": {"north": 5, "east": 2, "south": 5, "west": 1},
        },
        {
            "bids": {"north": 4, "east": "nil", "south": 3, "west": 5},
            "tricks": {"north": 5, "east": 0, "south": 4, "west": 4},
        },
    ],
}


def run(*args: str, stdin: str = "") -> str:
    out = io.StringIO()
    call_command("scoresheet", *args, stdout=out, stdin=io.StringIO(stdin))
    return out.getvalue()


def write(tmp_path: Path, document: Any) -> str:
    path = tmp_path / "sheet.json"
    path.write_text(document if isinstance(document, str) else json.dumps(document))
    return str(path)


def test_json_from_a_file(tmp_path: Path) -> None:
    result = json.loads(run(write(tmp_path, SHEET), "--format", "json"))
    assert result["totals"] == {"north_south": 0, "east_west": 71}
    assert result["hands"][1]["north_south"]["breakdown"]["bag_penalty"] == -100
    assert (result["winner"], result["finished_after_hand"]) == (None, None)


def test_json_from_stdin() -> None:
    result = json.loads(run("-", "--format", "json", stdin=json.dumps(SHEET)))
    assert result["totals"] == {"north_south": 0, "east_west": 71}


def test_the_table_shows_every_hand_its_arithmetic_and_the_totals(tmp_path: Path) -> None:
    table = run(write(tmp_path, SHEET))
    assert "Scoresheet (rules: standard)" in table
    assert "-28 = +70 bid 7 made, +2 bags, -100 for 10 bags" in table
    assert "+50 = -50 bid 5 set, +100 east nil made" in table
    assert "E nil" in table
    assert "Totals: North-South 0, East-West 71." in table
    assert "No winner yet." in table


def test_the_table_names_the_winner(tmp_path: Path) -> None:
    sheet = {**SHEET, "rules": {"target_score": 50}}
    table = run(write(tmp_path, sheet), "--format", "table")
    assert "rules: custom, target_score=50" in table
    assert "East-West won after hand 2." in table


@pytest.mark.parametrize(
    ("document", "message"),
    [
        ("{not json", "is not valid JSON: Expecting property name enclosed in double quotes"),
        (
            {
                "hands": [
                    {**SHEET["hands"][0], "tricks": {"north": 5, "east": 2, "south": 5, "west": 2}}
                ]
            },
            "Hand 1: the tricks add up to 14, not 13",
        ),
        ({"rules": "easy", "hands": SHEET["hands"][1:]}, "Hand 1: east bid nil, but nil is not"),
        ({"rules": "nope", "hands": SHEET["hands"]}, "rules: Unknown preset 'nope'"),
    ],
)
def test_errors_are_command_errors_naming_the_hand(
    tmp_path: Path, document: Any, message: str
) -> None:
    with pytest.raises(CommandError) as from_file:
        run(write(tmp_path, document))
    assert message in str(from_file.value)
    text = document if isinstance(document, str) else json.dumps(document)
    with pytest.raises(CommandError) as from_stdin:
        run("-", stdin=text)
    assert message in str(from_stdin.value)


def test_an_unreadable_file_is_a_command_error(tmp_path: Path) -> None:
    with pytest.raises(CommandError, match=r"Cannot read .*missing\.json: No such file"):
        run(str(tmp_path / "missing.json"))


def test_a_bad_format_is_refused() -> None:
    with pytest.raises(CommandError, match="invalid choice: 'csv'"):
        run("-", "--format", "csv", stdin=json.dumps(SHEET))


def test_the_real_command_line_exits_non_zero_with_the_message_on_stderr() -> None:
    bad = {
        "hands": [{**SHEET["hands"][0], "bids": {"north": 14, "east": 1, "south": 1, "west": 1}}]
    }
    done = subprocess.run(
        [sys.executable, "manage.py", "scoresheet", "-"],
        input=json.dumps(bad),
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=60,
    )
    assert done.returncode == 1
    assert "Hand 1: north bid 14; bids run from 0 to 13." in done.stderr
    assert "Traceback" not in done.stderr
    assert done.stdout == ""
