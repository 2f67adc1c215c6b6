"""``scoresheet`` and ``replay`` on hostile JSON (issue 12, item 7): a file nested
thousands deep, or holding an integer of over 4,300 digits, is one line on stderr and
exit 1, as for every other bad file, never a traceback.

No ``django_db`` mark: the commands need no database.
"""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from filetools.errors import ToolError
from filetools.json_input import MAX_DEPTH, parse_json_text

REPO = Path(__file__).resolve().parents[3]
COMMANDS = ("scoresheet", "replay")


def nested(depth: int) -> str:
    return "[" * depth + "]" * depth


HOSTILE = {
    # RecursionError inside the decoder
    "nested_100000": (nested(100_000), "nests arrays and objects more than 32 deep"),
    # decodes, but deeper than any of these files can be
    "nested_500": ('{"rules": "standard", "hands": ' + nested(500) + "}", "more than 32 deep"),
    # ValueError: the interpreter's integer digit limit
    "long_integer": (
        '{"rules": "standard", "hands": [{"bids": {"north": 1' + "0" * 5000 + "}}]}",
        "holds a number of more than 4300 digits",
    ),
}


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize("case", sorted(HOSTILE))
def test_hostile_json_is_a_command_error_from_stdin_and_from_a_file(
    tmp_path: Path, command: str, case: str
) -> None:
    text, message = HOSTILE[case]
    path = tmp_path / "hostile.json"
    path.write_text(text)
    for source, stdin in ((str(path), ""), ("-", text)):
        with pytest.raises(CommandError) as refused:
            call_command(command, source, stdout=io.StringIO(), stdin=io.StringIO(stdin))
        assert message in str(refused.value)


@pytest.mark.parametrize("case", sorted(HOSTILE))
def test_replay_rules_option_is_read_by_the_same_loader(tmp_path: Path, case: str) -> None:
    text, message = HOSTILE[case]
    rules = '{"preset": ' + text + "}"
    path = tmp_path / "record.json"
    path.write_text('{"rules": "standard", "hands": []}')
    with pytest.raises(CommandError) as refused:
        call_command("replay", str(path), "--rules", rules, stdout=io.StringIO())
    assert str(refused.value).startswith("--rules ")
    assert message in str(refused.value)


def test_the_depth_limit_is_exact() -> None:
    assert isinstance(parse_json_text(nested(MAX_DEPTH), "x"), list)
    with pytest.raises(ToolError, match="more than 32 deep"):
        parse_json_text(nested(MAX_DEPTH + 1), "x")
    # Depth counts objects too, and only along one path.
    wide = "[" + ",".join([nested(MAX_DEPTH - 1)] * 50) + "]"
    assert isinstance(parse_json_text(wide, "x"), list)
    with pytest.raises(ToolError, match="more than 32 deep"):
        parse_json_text('{"a": ' * (MAX_DEPTH + 1) + "1" + "}" * (MAX_DEPTH + 1), "x")


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize("case", ["nested_100000", "long_integer"])
def test_the_real_command_line_prints_one_line_and_exits_1(command: str, case: str) -> None:
    text, message = HOSTILE[case]
    done = subprocess.run(
        [sys.executable, "manage.py", command, "-"],
        input=text,
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=60,
    )
    assert done.returncode == 1
    assert "Traceback" not in done.stderr and done.stdout == ""
    assert len(done.stderr.strip().splitlines()) == 1
    assert message in done.stderr
