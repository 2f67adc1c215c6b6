"""``manage.py replay``: files and stdin, formats, re-scoring, every error a non-zero exit.

No ``django_db`` mark: pytest-django would refuse any query, so these also prove the
command works without the database.
"""

from __future__ import annotations

import io
import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from games.engine.record import record_from_game
from games.engine.rules import Rules
from games.engine.seats import EAST, WEST

from .deals import TRUMP_DEAL, scripted_game, suit_per_seat
from .random_play import play_random_game

REPO = Path(__file__).resolve().parents[3]


def one_hand_record() -> dict[str, Any]:
    """West takes all 13 tricks of the suit-per-seat deal: north-south set on 6, 67 east-west."""
    return record_from_game(scripted_game(Rules(), WEST, suit_per_seat(), (2, 3, 4, 3)))


def run(*args: str, stdin: str = "") -> str:
    out = io.StringIO()
    call_command("replay", *args, stdout=out, stdin=io.StringIO(stdin))
    return out.getvalue()


def write(tmp_path: Path, document: Any) -> str:
    path = tmp_path / "record.json"
    path.write_text(document if isinstance(document, str) else json.dumps(document))
    return str(path)


def test_json_from_a_file_and_from_stdin(tmp_path: Path) -> None:
    record = one_hand_record()
    from_file = json.loads(run(write(tmp_path, record), "--format", "json"))
    from_stdin = json.loads(run("-", "--format", "json", stdin=json.dumps(record)))
    assert from_file == from_stdin
    hand = from_file["hands"][0]
    assert hand["tricks"] == {"north": 0, "east": 0, "south": 0, "west": 13}
    assert hand["trick_winners"] == ["west"] * 13
    assert from_file["totals"] == {"north_south": -60, "east_west": 67}


def test_the_table_shows_dealer_bids_tricks_and_scores(tmp_path: Path) -> None:
    table = run(write(tmp_path, one_hand_record()))
    assert "Replay (rules: standard)" in table
    assert "west" in table and "N 2  S 4" in table and "E 0  W 13" in table
    assert "-60 = -60 bid 6 set" in table
    assert "Totals: North-South -60, East-West 67." in table


def test_rules_rescores_with_a_preset_name_or_json(tmp_path: Path) -> None:
    path = write(tmp_path, one_hand_record())
    bicycle = json.loads(run(path, "--rules", "bicycle", "--format", "json"))
    assert bicycle["totals"] == {"north_south": 0, "east_west": 67}
    custom = json.loads(
        run(path, "--rules", '{"preset": "standard", "target_score": 50}', "--format", "json")
    )
    assert (custom["winner"], custom["finished_after_hand"]) == ("east_west", 1)
    assert "rules: bicycle" in run(path, "--rules", "bicycle")


def test_rescoring_that_ends_the_game_sooner_says_which_hands_were_left(tmp_path: Path) -> None:
    game = play_random_game(Rules(), random.Random(7), "sooner", first_dealer=0, max_hands=3)
    path = write(tmp_path, record_from_game(game))
    sooner = '{"target_score": 1, "lose_score": -1}'
    result = json.loads(run(path, "--rules", sooner, "--format", "json"))
    assert result["finished_after_hand"] == 1 and result["hands_after_end"] == 2
    assert (
        "Under these rules the game ended after hand 1; the record's 2 later hand(s) were not"
        in (run(path, "--rules", sooner))
    )


def test_a_play_the_rescoring_rules_forbid_is_reported_as_such(tmp_path: Path) -> None:
    no_break = Rules(breaking_spades=False)
    record = record_from_game(scripted_game(no_break, EAST, TRUMP_DEAL, (3, 3, 3, 3), ("QS",)))
    path = write(tmp_path, record)
    assert run(path, "--format", "json")
    with pytest.raises(CommandError) as caught:
        run(path, "--rules", "standard")
    assert "Hand 1, play 1 (trick 1: south played QS): forbidden under the re-scoring rules" in str(
        caught.value
    )


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda r: r["hands"][0]["plays"].__setitem__(0, "AS"), "Hand 1, play 1 (trick 1: north"),
        (
            lambda r: r["hands"][0]["bids"].__setitem__("east", "lots"),
            "Hand 1: east's bid: A bid is a number from 0 to 13",
        ),
        (lambda r: r["hands"][0]["plays"].pop(), "Hand 1: plays lists 51 cards"),
        (lambda r: r.__setitem__("rules", "nope"), "rules: Unknown preset 'nope'"),
    ],
)
def test_errors_are_command_errors_naming_the_hand(tmp_path: Path, edit: Any, message: str) -> None:
    record = one_hand_record()
    edit(record)
    with pytest.raises(CommandError) as from_file:
        run(write(tmp_path, record))
    assert message in str(from_file.value)
    with pytest.raises(CommandError) as from_stdin:
        run("-", stdin=json.dumps(record))
    assert message in str(from_stdin.value)


def test_bad_json_unreadable_files_and_bad_rules_options(tmp_path: Path) -> None:
    with pytest.raises(CommandError, match=r"standard input is not valid JSON: Expecting value"):
        run("-", stdin="")
    with pytest.raises(CommandError, match=r"Cannot read .*nowhere\.json: No such file"):
        run(str(tmp_path / "nowhere.json"))
    path = write(tmp_path, one_hand_record())
    with pytest.raises(CommandError, match=r"--rules is not valid JSON"):
        run(path, "--rules", "{preset")
    with pytest.raises(CommandError, match=r"Re-scoring rules: Unknown preset 'quick'"):
        run(path, "--rules", "quick")


def test_the_real_command_line_exits_non_zero_with_the_message_on_stderr() -> None:
    record = one_hand_record()
    record["hands"][0]["bids"]["north"] = "blind_nil"
    done = subprocess.run(
        [sys.executable, "manage.py", "replay", "-", "--format", "json"],
        input=json.dumps(record),
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=60,
    )
    assert done.returncode == 1
    assert "Hand 1, bid 1 (north bid blind_nil): Blind nil is not played at this table." in (
        done.stderr
    )
    assert "Traceback" not in done.stderr and done.stdout == ""
