"""Competition files: a bad file is refused with the line or JSON path and the reason."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from leagues.core.competition_file import (
    CompetitionFileError,
    competition_document,
    read_competition,
)

GOOD: dict[str, Any] = {
    "format": "spades-competition",
    "version": 1,
    "competition": {
        "id": "club",
        "stages": [{"kind": "swiss", "rounds": 3}],
        "tiebreaks": ["head_to_head", "buchholz"],
    },
    "entrants": [
        {"id": "A", "players": ["a1", "a2"]},
        {"id": "B", "players": ["b1", "b2"], "reserve": "b3"},
        {"id": "C", "players": ["c1", "c2"]},
    ],
    "rounds": [
        {
            "number": 1,
            "matches": [{"board": 1, "north_south": "A", "east_west": "B"}],
            "byes": ["C"],
        },
    ],
    "results": [
        {
            "id": "r1",
            "round": 1,
            "board": 1,
            "north_south": "A",
            "east_west": "B",
            "points": {"north_south": 500, "east_west": 310},
            "winner": "north_south",
        },
    ],
}


def refusal(change: Any, base: dict[str, Any] = GOOD) -> str:
    document = copy.deepcopy(base)
    change(document)
    with pytest.raises(CompetitionFileError) as refused:
        read_competition(json.dumps(document))
    return str(refused.value)


def test_a_good_file_gives_standings_with_the_bye() -> None:
    table = read_competition(json.dumps(GOOD)).standings()
    # A and C both have 2 and never met; Buchholz: A's opponent B has 0, C's bye is a
    # virtual opponent holding C's own 2. So C, A, B.
    assert [(row.entrant, row.match_points) for row in table.rows] == [
        ("C", 2),
        ("A", 2),
        ("B", 0),
    ]
    assert table.tiebreaks == ("head_to_head", "buchholz", "lots")


def test_text_that_is_not_json_names_the_line() -> None:
    with pytest.raises(CompetitionFileError) as refused:
        read_competition('{\n  "format": "spades-competition",\n  "version": 1,,\n}')
    assert str(refused.value).startswith("line 3 column")


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (lambda d: d.update(format="other"), '$.format: expected "spades-competition".'),
        (
            lambda d: d["competition"].update(tiebreaks=["buchholtz"]),
            "$.competition: 'buchholtz' is not a tie-break; the tie-breaks are head_to_head",
        ),
        (
            lambda d: d["entrants"][1].update(players=["b1"]),
            "$.entrants[1].players: a partnership is exactly two players.",
        ),
        (
            lambda d: d["entrants"][2].update(players=["c1", "a2"]),
            "$.entrants: Player 'a2' is in entrants 'A' and 'C'",
        ),
        (
            lambda d: d["results"][0].update(east_west="Z"),
            "$.results[0].east_west: 'Z' is not an entrant of this competition.",
        ),
        (
            lambda d: d["results"][0].update(winner=None),
            "$.results[0]: Result 'r1': a draw is possible only in a fixed-hands match",
        ),
        (
            lambda d: d["results"][0]["points"].update(north_south="500"),
            "$.results[0].points.north_south: expected a whole number",
        ),
        (lambda d: d["results"][0].update(board=2), "$.results[0].board: round 1 has no board 2."),
        (
            lambda d: d["results"].append(dict(d["results"][0], id="r2")),
            "$.results[1]: round 1 board 1 already has result 'r1'; a change is a correction",
        ),
        (
            lambda d: d["results"].append(dict(d["results"][0], id="r2", corrects="nope")),
            "$.results: Result 'r2' corrects 'nope', which is not an earlier result",
        ),
        (
            lambda d: d["rounds"][0].update(byes=["A"]),
            "$.rounds[0].byes[0]: 'A' is already in round 1.",
        ),
        (
            lambda d: d["rounds"][0].update(colour="red"),
            "$.rounds[0]: this object has unknown field 'colour'",
        ),
        (lambda d: d["competition"].update(lots_seed="a b"), "$.competition.lots_seed: a seed is"),
        (lambda d: d["rounds"][0].update(commitment="XYZ"), "$.rounds[0].commitment: expected 64"),
        (
            lambda d: d["competition"]["stages"].append({"kind": "knockout"}),
            "$.competition: stage 1: say how many entrants advance",
        ),
    ],
)
def test_a_bad_file_is_refused_with_the_path_and_the_reason(change: Any, expected: str) -> None:
    assert refusal(change).startswith(expected)


def test_a_correction_in_the_file_replaces_the_result() -> None:
    document = copy.deepcopy(GOOD)
    document["results"].append(
        dict(
            document["results"][0],
            id="r1b",
            corrects="r1",
            winner="east_west",
            points={"north_south": 300, "east_west": 500},
        )
    )
    table = read_competition(json.dumps(document)).standings()
    assert {row.entrant: row.match_points for row in table.rows} == {"A": 0, "B": 2, "C": 2}


def test_a_refusal_names_the_line_of_the_value() -> None:
    document = copy.deepcopy(GOOD)
    document["results"][0]["east_west"] = "Z"
    text = json.dumps(document, indent=2)
    with pytest.raises(CompetitionFileError) as refused:
        read_competition(text.encode())
    assert refused.value.where == "$.results[0].east_west"
    assert text.splitlines()[refused.value.line - 1].strip() == '"east_west": "Z",'  # type: ignore[operator]


def test_the_export_carries_each_results_match_points_and_checks_them_on_reading() -> None:
    competition = read_competition(json.dumps(GOOD))
    exported = competition_document(competition, competition.standings())
    [result] = exported["results"]
    assert result["match_points"] == {"north_south": 2, "east_west": 0}
    assert read_competition(json.dumps(exported)).standings() == competition.standings()
    result["match_points"] = {"north_south": 2, "east_west": 2}
    with pytest.raises(CompetitionFileError) as refused:
        read_competition(json.dumps(exported))
    assert refused.value.where == "$.results[0].match_points"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # Deeper than Python's decoder can go: a refusal, not a RecursionError.
        ("[" * 100_000, "file: nested too deeply to read"),
        # More digits than the interpreter reads (CVE-2020-10735): a refusal, not a ValueError.
        ('{"version": ' + "9" * 5000 + "}", "file: a number of more than"),
    ],
)
def test_text_python_cannot_decode_is_refused_with_the_reason(text: str, expected: str) -> None:
    with pytest.raises(CompetitionFileError) as refused:
        read_competition(text)
    assert str(refused.value).startswith(expected)


# A round robin of three as listed (slots a, b, c and the bye slot): R1 B v C (A's bye),
# R2 A v B (C's slot has the bye), R3 A v C (B's bye). C withdraws after round 1, so its
# R3 match is its forfeit. Match points win 2 / bye 2 / forfeit_loss 1.
WITHDRAWAL: dict[str, Any] = {
    "format": "spades-competition",
    "version": 1,
    "competition": {
        "id": "rr",
        "stages": [{"kind": "round_robin"}],
        "match_points": {"forfeit_loss": 1},
        "round_robin_order": "as_listed",
        "tiebreaks": ["buchholz", "sonneborn_berger"],
    },
    "entrants": [
        {"id": "A", "players": ["a1", "a2"]},
        {"id": "B", "players": ["b1", "b2"]},
        {"id": "C", "players": ["c1", "c2"], "withdrawn_after_round": 1},
    ],
    "rounds": [
        {
            "number": 1,
            "matches": [{"board": 1, "north_south": "B", "east_west": "C"}],
            "byes": ["A"],
        },
        {
            "number": 2,
            "matches": [{"board": 1, "north_south": "A", "east_west": "B"}],
            "byes": ["C"],
        },
        {
            "number": 3,
            "matches": [{"board": 1, "north_south": "A", "east_west": "C"}],
            "byes": ["B"],
        },
    ],
    "results": [
        {
            "id": "r1",
            "round": 1,
            "board": 1,
            "north_south": "B",
            "east_west": "C",
            "points": {"north_south": 500, "east_west": 300},
            "winner": "north_south",
        },
        {
            "id": "r2",
            "round": 2,
            "board": 1,
            "north_south": "A",
            "east_west": "B",
            "points": {"north_south": 500, "east_west": 420},
            "winner": "north_south",
        },
        {
            "id": "r3",
            "round": 3,
            "board": 1,
            "north_south": "A",
            "east_west": "C",
            "points": {"north_south": 0, "east_west": 0},
            "winner": "north_south",
            "forfeited_by": "east_west",
        },
    ],
}


def test_a_withdrawn_entrants_kept_slot_facing_the_bye_is_no_bye() -> None:
    # Match points: A 2 (bye) + 2 + 2 (C forfeits) = 6; B 2 + 0 + 2 (bye) = 4;
    #   C 0 + nothing (its slot's bye in R2 is no bye: it had left) + 1 (forfeit_loss) = 1,
    #   of which it had 0 when it left.
    # Buchholz: A: virtual 6 (bye) + B 4 + virtual 6 (forfeit win) = 16;
    #   B: C 0 (as it left, not 1) + A 6 + virtual 4 (bye) = 10;
    #   C: B 4 + virtual 1 (its forfeit) = 5: round 2 adds nothing, and `byes` is 0.
    # Sonneborn-Berger: B: 2x0 (C) + 0x6 (A) + 2x4 (bye) = 8 (10 if C counted 1).
    table = read_competition(json.dumps(WITHDRAWAL)).standings()
    rows = {row.entrant: row for row in table.rows}
    assert {e: (r.match_points, r.byes) for e, r in rows.items()} == {
        "A": (6, 1),
        "B": (4, 1),
        "C": (1, 0),
    }
    assert {e: r.tiebreaks["buchholz"] for e, r in rows.items()} == {"A": 16, "B": 10, "C": 5}
    assert rows["B"].tiebreaks["sonneborn_berger"] == 8


def played_after_leaving(document: dict[str, Any]) -> None:
    document["results"][2].update(points={"north_south": 500, "east_west": 480}, forfeited_by=None)


def won_by_the_withdrawn_side(document: dict[str, Any]) -> None:
    document["results"][2].update(winner="east_west", forfeited_by="north_south")


def withdrawn_before_round_one(document: dict[str, Any]) -> None:
    document["entrants"][2]["withdrawn_after_round"] = 0


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (
            played_after_leaving,
            "$.results[2]: Entrant 'C' withdrew after round 1: its match in round 3 cannot "
            "be played; only its forfeit can be recorded.",
        ),
        (
            won_by_the_withdrawn_side,
            "$.results[2]: Entrant 'C' withdrew after round 1: its match in round 3 cannot "
            "be won by forfeit; only its forfeit can be recorded.",
        ),
        (
            withdrawn_before_round_one,
            "$.rounds[0].matches[0].east_west: Entrant 'C' withdrew before round 1, so "
            "round 1 cannot pair it.",
        ),
    ],
)
def test_a_result_or_a_pairing_a_withdrawn_entrant_cannot_have_is_refused(
    change: Any, expected: str
) -> None:
    assert refusal(change, WITHDRAWAL) == expected


def test_a_forfeit_by_both_sides_after_a_withdrawal_is_accepted() -> None:
    document = copy.deepcopy(WITHDRAWAL)
    document["results"][2].update(winner=None, forfeited_by="both")
    rows = {row.entrant: row for row in read_competition(json.dumps(document)).standings().rows}
    assert (rows["A"].match_points, rows["C"].match_points) == (5, 1)
