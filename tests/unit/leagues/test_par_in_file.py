"""A revealed board's par in the competition file (docs/formats.md, "Par"): written by the
export as ``BoardPar.as_dict`` (the method, the bot version, each play's seed and scores,
the totals and the averages as exact fractions), read back to the same values, refused in
words where it is not what the board's seed and its plays give, and shown by
``standings`` as IMPs against par (per traveller line and per entrant), checked against
an independent sum here. Re-playing the plays offline is ``par.verify_par`` with the bots
(``tests/integration/leagues/test_board_correction.py`` does it on an exported file)."""

from __future__ import annotations

import copy
import io
import json
import random
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from filetools.cli import TOOLS
from filetools.errors import ToolError
from filetools.standings import duplicate_table_text
from leagues.core.competition_file import (
    CompetitionFileError,
    competition_document,
    read_competition,
)
from leagues.core.duplicate.board_scoring import imps
from leagues.core.duplicate.par import BoardPar, ParMethod, play_seed
from leagues.core.duplicate.session import duplicate_standings, travellers

from .test_competition_file import GOOD
from .test_duplicate_stage_file import played

VERSION = "hard-2"


def with_par(document: dict[str, Any], rng: random.Random, plays: int = 2) -> dict[str, Any]:
    """Every revealed board given a par of ``plays`` plays (scores drawn at random: the
    reader cannot replay them, only check they are the plays of this board's seeds)."""
    for written in document["rounds"]:
        for board in written["boards"]:
            if board["seed"] is None:
                continue
            par = BoardPar(
                ParMethod("hard", VERSION, plays),
                VERSION,
                tuple(
                    (
                        str(play_seed(board["seed"], i)),
                        rng.randint(-200, 200),
                        rng.randint(-200, 200),
                    )
                    for i in range(1, plays + 1)
                ),
            )
            board["par"] = par.as_dict()
    return document


def read(document: dict[str, Any]) -> Any:
    return read_competition(json.dumps(document))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10**6),
    plays=st.integers(1, 4),
    scale=st.sampled_from(["matchpoints", "imps"]),
)
def test_par_round_trips_and_standings_show_imps_against_it(
    seed: int, plays: int, scale: str
) -> None:
    rng = random.Random(seed)
    document = with_par(played(rng, 4, 2, 2), rng, plays)
    competition = read(document)
    state = competition.duplicate
    assert state is not None
    pars = {(r.number, b.board): b.par for r in state.rounds for b in r.boards}
    assert all(par is not None for par in pars.values())
    written = competition_document(competition)
    assert [b["par"] for r in written["rounds"] for b in r["boards"]] == [
        b["par"] for r in document["rounds"] for b in r["boards"]
    ]
    assert read(written).duplicate == state
    # Exact fractions in text: the average of the plays.
    first = written["rounds"][0]["boards"][0]["par"]
    ns = Fraction(sum(p["north_south"] for p in first["plays"]), plays)
    ew = Fraction(sum(p["east_west"] for p in first["plays"]), plays)
    assert Fraction(first["net"]) == ns - ew and Fraction(first["north_south"]) == ns

    # IMPs against par, independently: per line from North-South, per entrant its side's.
    expected: dict[str, int] = {e.id: 0 for e in competition.entrants}
    for r in document["board_results"]:
        par = pars[(r["round"], r["board"])]
        assert par is not None
        result = next(
            x
            for x in state.results
            if (x.round, x.table, x.board) == (r["round"], r["table"], r["board"])
        )
        against = imps(result.net - par.net)
        expected[r["north_south"]] += against
        expected[r["east_west"]] -= against
    table = duplicate_standings(state, [e.id for e in competition.entrants], "lots", scale)
    assert {row.entrant: row.par_imps for row in table.rows} == expected
    assert all("imps_against_par" in row.as_dict() for row in table.rows)
    lines = [line for board in travellers(state) for line in board["lines"]]
    assert all(isinstance(line["imps_against_par"], int) for line in lines)
    assert " par" in duplicate_table_text(table).splitlines()[0]


def test_a_file_without_par_is_as_it_was() -> None:
    document = played(random.Random(1), 4, 2, 1)
    competition = read(document)
    written = competition_document(competition)
    assert all("par" not in b for r in written["rounds"] for b in r["boards"])
    table = duplicate_standings(competition.duplicate, [e.id for e in competition.entrants], "lots")
    assert all("imps_against_par" not in row.as_dict() for row in table.rows)
    assert " par" not in duplicate_table_text(table).splitlines()[0]


def refusal(document: dict[str, Any], change: Any) -> str:
    changed = copy.deepcopy(document)
    change(changed["rounds"][0]["boards"][0]["par"], changed["rounds"][0]["boards"][0])
    with pytest.raises(CompetitionFileError) as refused:
        read(changed)
    return str(refused.value)


def test_a_par_that_is_not_the_boards_is_refused_in_words() -> None:
    document = with_par(played(random.Random(2), 4, 2, 1), random.Random(3))
    at = "rounds[0].boards[0].par"

    def set_(key: str, value: Any) -> Any:
        return lambda par, board: par.__setitem__(key, value)

    def play(key: str, value: Any) -> Any:
        return lambda par, board: par["plays"][0].__setitem__(key, value)

    assert f"{at}.plays[0].seed" in refusal(document, play("seed", "12345"))
    assert "from the board's seed" in refusal(document, play("seed", "12345"))
    assert f"{at}.north_south_total" in refusal(document, set_("north_south_total", 1))
    assert f"{at}.net" in refusal(document, set_("net", "1/3"))
    assert f"{at}.bot_version" in refusal(document, set_("bot_version", "hard-1"))
    assert f"{at}.plays" in refusal(document, lambda par, board: par["plays"].pop())
    assert f"{at}.method.plays" in refusal(
        document, lambda par, board: par["method"].__setitem__("plays", 0)
    )
    assert "unknown field" in refusal(document, set_("comment", "x")).lower()
    assert f"{at}.plays[0].east_west" in refusal(document, play("east_west", 1.5))

    changed = copy.deepcopy(document)
    for written in changed["rounds"]:
        written["seed"] = written["boards_seed"] = None
        for board in written["boards"]:
            board["seed"] = None
    changed["board_results"] = []
    changed["results"] = []
    with pytest.raises(CompetitionFileError) as refused:
        read(changed)
    assert "published with its seed" in str(refused.value)


def test_the_par_tool_refuses_in_one_line_what_it_cannot_replay(tmp_path: Path) -> None:
    def refused(document: dict[str, Any]) -> str:
        path = tmp_path / "file.json"
        path.write_text(json.dumps(document))
        with pytest.raises(ToolError) as refusal:
            TOOLS["par"].run({"file": str(path)}, io.StringIO(), None)
        assert "\n" not in refusal.value.message
        return refusal.value.message

    assert "not a duplicate competition" in refused(GOOD)
    plain = played(random.Random(5), 4, 1, 1)
    assert "no board of this file carries a par" in refused(plain)
    document = with_par(copy.deepcopy(plain), random.Random(6), plays=1)
    par = document["rounds"][0]["boards"][0]["par"]
    par["method"]["version"] = par["bot_version"] = "hard-9"
    message = refused(document)
    assert "round 1 board 1: played by hard-9, which this code does not keep" in message
