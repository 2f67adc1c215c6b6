"""An organiser's correction of one table's result on one board, without a database
(docs/leagues.md, "Correcting a board"): the request bounded and refused in words, the
decision refused before the board is shown, for an unknown table, for bids and tricks a
board cannot have and for no change; a correction is a new event re-scored under the
pinned preset, and the fold's result on that board (what the standings, travellers and
the export read) is the correction's while the recorded event stays; the competition
file carries ``corrected`` and reads it back."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine.rules import rules_from_spec
from leagues.core.competition_file import (
    CompetitionFileError,
    competition_document,
    read_competition,
)
from leagues.core.duplicate.board_scoring import score_board
from leagues.core.duplicate.session import BoardResult
from leagues.domain import events as ev
from leagues.domain.decisions import duplicate as dup

from .test_domain import ORGANISER, Stream, refusal
from .test_duplicate_domain import SEED, paired, played, started
from .test_duplicate_stage_file import played as stage_played

RULES = rules_from_spec({"preset": "standard"})
GOOD = {
    "table": 1,
    "bids": {"north": 4, "east": 3, "south": "nil", "west": 3},
    "tricks": {"north": 5, "east": 4, "south": 0, "west": 4},
    "reason": "Arbiter: table 1 misclaimed a trick.",
}


def recorded(reveal: bool = True) -> Stream:
    """A two-table round with both tables' boards recorded, revealed if ``reveal``."""
    stream = started(paired())
    for table, seed in ((1, 0), (2, 1)):
        stream.append(
            dup.decide_board_results(
                stream.state,
                round_number=1,
                table=table,
                table_id=f"t{table}",
                rules=RULES,
                boards=played(seed),
                actor=ORGANISER,
            )
        )
    if reveal:
        stream.append(
            dup.decide_reveal(stream.state, round_number=1, round_seed=SEED, actor=ORGANISER)
        )
    return stream


def correct(stream: Stream, body: Any = None, board: int = 1, round_number: int = 1) -> list[Any]:
    return dup.decide_board_correction(
        stream.state,
        round_number=round_number,
        board=board,
        request=dup.BoardCorrectionRequest.parse(GOOD if body is None else body),
        rules=RULES,
        organiser=1,
        actor=ORGANISER,
    )


@pytest.mark.parametrize(
    ("body", "named"),
    [
        ({**GOOD, "table": 0}, "table"),
        ({**GOOD, "table": "1"}, "table"),
        ({k: v for k, v in GOOD.items() if k != "reason"}, "reason"),
        ({**GOOD, "reason": ""}, "reason"),
        ({**GOOD, "reason": "x" * 501}, "reason"),
        ({**GOOD, "bids": [4, 3, 0, 3]}, "bids"),
        ({k: v for k, v in GOOD.items() if k != "tricks"}, "tricks"),
        ({**GOOD, "score": {"north_south": 1, "east_west": 2}}, "score"),
    ],
)
def test_a_bad_request_is_refused_in_words(body: Any, named: str) -> None:
    error = refusal(lambda: dup.BoardCorrectionRequest.parse(body))
    assert error.code == "invalid" and named in error.message, error.message


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"tricks": {"north": 5, "east": 4, "south": 0, "west": 5}}, "add up to 14"),
        ({"tricks": {"north": 5, "east": 4, "south": 4}}, "west"),
        ({"tricks": {"north": 14, "east": 0, "south": 0, "west": 0}}, "0 to 13"),
        ({"bids": {"north": 14, "east": 3, "south": 3, "west": 3}}, "0 to 13"),
        ({"bids": {"north": "blind_nil", "east": 3, "south": 3, "west": 3}}, "blind nil"),
        ({"bids": {"north": "pass", "east": 3, "south": 3, "west": 3}}, "not a bid"),
        ({"bids": {"north": 3, "east": 3, "south": 3, "west": 3, "centre": 1}}, "not a seat"),
    ],
)
def test_bids_and_tricks_a_board_cannot_have_are_refused(change: Any, words: str) -> None:
    stream = recorded()
    before = stream.state.version
    error = refusal(lambda: correct(stream, {**GOOD, **change}))
    assert error.code == "invalid" and words in error.message, error.message
    assert "table 1" in error.message and "Hand" not in error.message
    assert stream.state.version == before


def test_only_a_shown_board_of_a_table_that_played_it_is_corrected() -> None:
    assert refusal(lambda: correct(recorded(reveal=False))).code == "board_open"
    open_round = started(paired())
    assert refusal(lambda: correct(open_round)).code == "board_open"
    stream = recorded()
    assert refusal(lambda: correct(stream, board=3)).code == "unknown_board"
    assert refusal(lambda: correct(stream, round_number=2)).code == "unknown_round"
    assert refusal(lambda: correct(stream, {**GOOD, "table": 3})).code == "unknown_table"
    # The very result recorded: nothing to correct.
    same = {
        **GOOD,
        "bids": {"north": 3, "east": 3, "south": 3, "west": 3},
        "tricks": {"north": 4, "east": 3, "south": 3, "west": 3},
    }
    assert refusal(lambda: correct(stream, same)).code == "no_change"
    assert refusal(lambda: correct(Stream(), board=1)).code == "not_duplicate"


def test_a_correction_is_a_new_event_rescored_and_the_fold_uses_it() -> None:
    stream = recorded()
    original = next(
        r for r in stream.state.duplicate[1].results if (r["table"], r["board"]) == (1, 1)
    )
    events = correct(stream)
    assert [e.type for e in events] == [ev.BOARD_RESULT_CORRECTED]
    data = events[0].data
    scored = score_board(RULES, [4, 3, 0, 3], [False] * 4, [5, 4, 0, 4])
    assert data["score"] == {
        "north_south": scored.north_south.points,
        "east_west": scored.east_west.points,
    }
    assert (data["bids"], data["tricks"], data["correction"]) == ([4, 3, 0, 3], [5, 4, 0, 4], 1)
    assert (data["north_south"], data["east_west"], data["table_id"]) == (
        original["north_south"],
        original["east_west"],
        "t1",
    )
    stream.append(events)
    found = stream.state.duplicate[1]
    lines = [r for r in found.results if (r["table"], r["board"]) == (1, 1)]
    assert len(lines) == 1 and lines[0]["score"] == data["score"]
    assert lines[0]["corrected"]["correction"] == 1 and lines[0]["corrected"]["organiser"] == 1
    assert found.corrections == 1 and len(found.results) == 4
    # A second correction of the same line replaces the first; the count goes on.
    again = correct(stream, {**GOOD, "tricks": {"north": 4, "east": 5, "south": 0, "west": 4}})
    assert again[0].data["correction"] == 2
    stream.append(again)
    assert [r["tricks"] for r in found.results if (r["table"], r["board"]) == (1, 1)] == [
        [4, 5, 0, 4]
    ]


SEATS = ("north", "east", "south", "west")


@st.composite
def boards(draw: Any) -> dict[str, Any]:
    bids = [draw(st.integers(0, 13)) for _ in SEATS]
    cuts = sorted(draw(st.lists(st.integers(0, 13), min_size=3, max_size=3)))
    tricks = [cuts[0], cuts[1] - cuts[0], cuts[2] - cuts[1], 13 - cuts[2]]
    return {
        **GOOD,
        "bids": {seat: "nil" if bid == 0 else bid for seat, bid in zip(SEATS, bids, strict=True)},
        "tricks": dict(zip(SEATS, tricks, strict=True)),
        "table": draw(st.sampled_from([1, 2])),
    }


@settings(max_examples=60, deadline=None)
@given(body=boards(), board=st.sampled_from([1, 2]))
def test_any_board_a_table_can_have_is_scored_as_score_board_scores_it(
    body: dict[str, Any], board: int
) -> None:
    stream = recorded()
    bids = [0 if b == "nil" else b for b in body["bids"].values()]
    tricks = list(body["tricks"].values())
    current = next(
        r
        for r in stream.state.duplicate[1].results
        if (r["table"], r["board"]) == (body["table"], board)
    )
    if (current["bids"], current["tricks"]) == (bids, tricks):
        assert refusal(lambda: correct(stream, body, board)).code == "no_change"
        return
    stream.append(correct(stream, body, board))
    line = next(
        r
        for r in stream.state.duplicate[1].results
        if (r["table"], r["board"]) == (body["table"], board)
    )
    scored = score_board(RULES, bids, [False] * 4, tricks)
    assert line["score"] == {
        "north_south": scored.north_south.points,
        "east_west": scored.east_west.points,
    }


def test_the_file_carries_corrected_and_reads_it_back() -> None:
    plain = BoardResult(1, 1, 1, "e1", "e2", (3, 3, 3, 3), (False,) * 4, (4, 3, 3, 3), 31, 29)
    assert "corrected" not in plain.as_dict()  # a file without corrections is unchanged
    document = stage_played(random.Random(5), 4, 2, 1)
    document["board_results"][1]["corrected"] = True
    competition = read_competition(json.dumps(document))
    assert competition.duplicate is not None
    assert [r.corrected for r in competition.duplicate.results] == [False, True, False, False]
    written = competition_document(competition)
    assert written["board_results"][1]["corrected"] is True
    assert "corrected" not in written["board_results"][0]
    assert read_competition(json.dumps(written)).duplicate == competition.duplicate
    document["board_results"][1]["corrected"] = "yes"
    with pytest.raises(CompetitionFileError) as refused:
        read_competition(json.dumps(document))
    assert "board_results[1].corrected" in str(refused.value)
