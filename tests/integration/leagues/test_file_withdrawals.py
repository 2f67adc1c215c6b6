"""``manage.py standings`` and ``pair`` refuse a file whose withdrawn entrant plays after
leaving, wins by forfeit after leaving, or is paired though it left before round 1: one
line ``FILE:LINE: $.path: reason``, exit 1 (the checks are
``leagues.core.withdrawals``, shared with the API)."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from tests.integration.leagues.test_file_commands import refused
from tests.unit.leagues.test_competition_file import (
    WITHDRAWAL,
    played_after_leaving,
    withdrawn_before_round_one,
)


@pytest.mark.parametrize("command", ["standings", "pair"])
def test_a_withdrawn_entrant_playing_after_it_left_is_refused_in_one_line(
    tmp_path: Path, command: str
) -> None:
    document = copy.deepcopy(WITHDRAWAL)
    played_after_leaving(document)
    path = tmp_path / "played.json"
    text = json.dumps(document, indent=2)
    path.write_text(text)
    lines = text.splitlines()
    results = lines.index('  "results": [')
    line = 1 + next(n for n in range(results, len(lines)) if lines[n] == '      "id": "r3",') - 1
    assert refused(path, command).removeprefix("CommandError: ") == (
        f"{path}:{line}: $.results[2]: Entrant 'C' withdrew after round 1: its match in "
        "round 3 cannot be played; only its forfeit can be recorded."
    )

    document = copy.deepcopy(WITHDRAWAL)
    withdrawn_before_round_one(document)
    path = tmp_path / "paired.json"
    text = json.dumps(document, indent=2)
    path.write_text(text)
    line = 1 + text.splitlines().index('          "east_west": "C"')
    assert refused(path, command).removeprefix("CommandError: ") == (
        f"{path}:{line}: $.rounds[0].matches[0].east_west: Entrant 'C' withdrew before "
        "round 1, so round 1 cannot pair it."
    )
