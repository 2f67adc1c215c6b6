"""The CSV export: one file, a ``record`` column, every record the JSON export holds."""

from __future__ import annotations

import csv
import dataclasses
import io
import json

import pytest

from leagues.core.competition_csv import COLUMNS, competition_csv, spreadsheet_text
from leagues.core.competition_file import read_competition
from leagues.core.pairings import Pairing, RoundPairing
from leagues.core.results import Award, MatchResult

from .test_competition_file import GOOD


def exported() -> list[dict[str, str]]:
    competition = read_competition(json.dumps(GOOD))
    forfeit = MatchResult(
        "r1-fix", 1, 1, "A", "B", 0, 0, "north_south", 2, "east_west", True, corrects="r1"
    )
    second = dataclasses.replace(
        competition.rounds[0],
        pairing=RoundPairing(2, (Pairing(1, "C", "A"),), ("B",)),
    )
    late = Award("late-C", 1, "C", "late_join", 3)
    competition = dataclasses.replace(
        competition,
        rounds=(*competition.rounds, second),
        results=(*competition.results, forfeit),
        awards=(*competition.awards, Award("bye:2:B", 2, "B"), late),
    )
    text = competition_csv(competition, competition.standings(), {"a1": "ann", "b3": "bea"})
    assert text.startswith("\ufeffrecord,")  # the byte order mark: spreadsheets read UTF-8
    return list(csv.DictReader(io.StringIO(text.removeprefix("\ufeff"))))


def of(rows: list[dict[str, str]], record: str) -> list[dict[str, str]]:
    return [row for row in rows if row["record"] == record]


def test_one_header_and_every_kind_of_record() -> None:
    rows = exported()
    assert list(rows[0])[: len(COLUMNS)] == list(COLUMNS)
    assert [row["record"] for row in rows][:1] == ["competition"]
    assert {row["record"] for row in rows} == {
        "competition",
        "entrant",
        "pairing",
        "bye",
        "award",
        "result",
        "standing",
    }
    entrants = of(rows, "entrant")
    assert [(e["entrant"], e["player_1"], e["player_2"], e["reserve"]) for e in entrants] == [
        ("A", "a1", "a2", ""),
        ("B", "b1", "b2", "b3"),
        ("C", "c1", "c2", ""),
    ]
    # Usernames beside the player ids (a player without a known username gets none).
    assert [
        (e["player_1_username"], e["player_2_username"], e["reserve_username"]) for e in entrants
    ] == [("ann", "", ""), ("", "", "bea"), ("", "", "")]


def test_pairings_without_a_result_and_the_results_match_points_and_flags() -> None:
    rows = exported()
    pairings = {(p["round"], p["board"]): p for p in of(rows, "pairing")}
    assert pairings[("1", "1")]["result_id"] == "r1-fix"  # the effective result
    assert pairings[("2", "1")]["result_id"] == ""  # paired, not played yet
    results = {r["result_id"]: r for r in of(rows, "result")}
    assert (results["r1"]["ns_match_points"], results["r1"]["ew_match_points"]) == ("2", "0")
    assert results["r1"]["ns_game_points"] == "500" and results["r1"]["no_show"] == "0"
    fix = results["r1-fix"]
    assert (fix["forfeited_by"], fix["no_show"], fix["corrects"]) == ("east_west", "1", "r1")
    assert (fix["ns_match_points"], fix["ew_match_points"]) == ("2", "0")
    byes = of(rows, "bye")
    assert [(b["round"], b["entrant"], b["match_points"]) for b in byes] == [
        ("1", "C", "2"),
        ("2", "B", "2"),
    ]
    assert [(a["round"], a["entrant"]) for a in of(rows, "award")] == [("1", "C")]


def test_the_standings_carry_every_declared_tiebreak() -> None:
    rows = exported()
    standings = of(rows, "standing")
    assert [s["rank"] for s in standings] == ["1", "2", "3"]
    assert "tb_buchholz" in standings[0] and "tb_head_to_head" in standings[0]
    assert all(s["tb_buchholz"] != "" for s in standings)
    assert "tb_lots" not in standings[0]


def test_entrant_names_stand_beside_every_entrant_id() -> None:
    document = json.loads(json.dumps(GOOD))
    for entrant, name in zip(document["entrants"], ["Aces", "Kings", "Queens"], strict=True):
        entrant["name"] = name
    competition = read_competition(json.dumps(document))
    text = competition_csv(competition, competition.standings())
    rows = list(csv.DictReader(io.StringIO(text.removeprefix("\ufeff"))))
    [pairing] = of(rows, "pairing")
    assert (pairing["north_south_name"], pairing["east_west_name"]) == ("Aces", "Kings")
    [result] = of(rows, "result")
    assert (result["north_south_name"], result["east_west_name"]) == ("Aces", "Kings")
    assert [(s["entrant"], s["name"]) for s in of(rows, "standing")] == [
        ("C", "Queens"),
        ("A", "Aces"),
        ("B", "Kings"),
    ]
    assert [(b["entrant"], b["name"]) for b in of(rows, "bye")] == [("C", "Queens")]


@pytest.mark.parametrize("start", ["=", "+", "-", "@", "\t", "\r"])
def test_a_text_cell_a_spreadsheet_would_run_is_neutralised(start: str) -> None:
    # Every text cell that starts like a formula gets a leading apostrophe: names, ids,
    # usernames. A number is never touched: a negative score stays a number.
    hostile = start + 'HYPERLINK("http://attacker.example","x")'
    document = json.loads(json.dumps(GOOD))
    document["competition"]["name"] = hostile
    document["entrants"][0]["name"] = hostile
    document["results"][0]["points"] = {"north_south": 120, "east_west": -40}
    competition = read_competition(json.dumps(document))
    text = competition_csv(competition, competition.standings(), {"a1": hostile})
    rows = list(csv.DictReader(io.StringIO(text.removeprefix("\ufeff"))))
    assert of(rows, "competition")[0]["name"] == "'" + hostile
    entrant = of(rows, "entrant")[0]
    assert (entrant["name"], entrant["player_1_username"]) == ("'" + hostile, "'" + hostile)
    assert of(rows, "result")[0]["north_south_name"] == "'" + hostile
    assert of(rows, "result")[0]["ew_game_points"] == "-40"
    cells = [cell for row in rows for cell in row.values()]
    assert not any(cell.startswith(("=", "+", "@", "\t", "\r")) for cell in cells)
    assert all(cell.lstrip("-").isdigit() for cell in cells if cell.startswith("-"))


def test_spreadsheet_text_neutralises_text_never_numbers() -> None:
    assert spreadsheet_text(-40) == "-40"
    assert spreadsheet_text("-40") == "'-40"  # a text that looks like a number is still text
    assert spreadsheet_text("@me") == "'@me"
    assert spreadsheet_text("Aces") == "Aces"
    assert spreadsheet_text(None) == ""
