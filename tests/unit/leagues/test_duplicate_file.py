"""Duplicate competitions in the competition file (version 2): the round trip, the
standings from the file alone against an independent scorer, the next round per the
movement, and the refusals (docs/formats.md, "Duplicate competitions")."""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine.deal import seed_commitment
from leagues.core.competition_csv import competition_csv
from leagues.core.competition_file import (
    CompetitionFileError,
    competition_document,
    read_competition,
)
from leagues.core.duplicate.boards import board_seed, round_commitment
from leagues.core.duplicate.movements import teams_of_four
from leagues.core.duplicate.session import (
    DuplicateSettings,
    duplicate_standings,
    pair_next_duplicate_round,
    session_schedule,
)
from leagues.core.errors import LeagueError
from tests.unit.leagues.duplicate_files import (
    add_round,
    base_document,
    play_round,
    played_document,
)
from tests.unit.leagues.test_competition_file import GOOD

SHAPES = st.sampled_from(
    [
        {"movement": "mitchell", "tables": 2, "rounds": 2, "boards_per_round": 2},
        {"movement": "mitchell", "tables": 3, "rounds": 3, "boards_per_round": 1},
        {"movement": "mitchell_arrow_switch", "tables": 3, "rounds": 2, "boards_per_round": 2},
        {"movement": "mitchell_arrow_switch", "tables": 1, "rounds": 1, "boards_per_round": 3},
        {"movement": "teams_of_four", "tables": 2, "rounds": 2, "boards_per_round": 2},
        {"movement": "teams_of_four", "tables": 4, "rounds": 2, "boards_per_round": 1},
    ]
)


def read(document: dict[str, Any]) -> Any:
    return read_competition(json.dumps(document))


def refusal(document: dict[str, Any], change: Callable[[dict[str, Any]], None]) -> str:
    changed = copy.deepcopy(document)
    change(changed)
    with pytest.raises(CompetitionFileError) as refused:
        read(changed)
    return str(refused.value)


@settings(max_examples=40, deadline=None)
@given(SHAPES, st.integers(0, 3), st.randoms(use_true_random=False))
def test_the_file_round_trips(shape: dict[str, Any], played: int, rng: random.Random) -> None:
    played = min(played, shape["rounds"])
    document = played_document(rng, played, **shape)
    competition = read(document)
    written = competition_document(competition)
    assert written["version"] == 2
    again = read(written)
    assert again == competition
    assert competition_document(again) == written  # a fixed point
    assert len(written["board_results"]) == played * shape["boards_per_round"] * shape["tables"]
    # Every board result carries the score its bids and tricks give.
    for result in written["board_results"]:
        assert set(result["score"]) == {"north_south", "east_west"}


@settings(max_examples=40, deadline=None)
@given(SHAPES, st.randoms(use_true_random=False), st.sampled_from(["matchpoints", "imps"]))
def test_standings_add_up_and_are_ordered(
    shape: dict[str, Any], rng: random.Random, scale: str
) -> None:
    document = played_document(rng, shape["rounds"], scale=scale, **shape)
    competition = read(document)
    table = duplicate_standings(
        competition.duplicate, [e.id for e in competition.entrants], "dup-lots"
    )
    rows = table.rows
    # Both sides of a table share its top; IMPs of the two sides cancel.
    assert sum(r.matchpoints for r in rows) == sum(r.top for r in rows) // 2
    assert sum(r.imps for r in rows) == 0
    # Every entrant plays every board of the session once.
    assert {r.boards for r in rows} == {shape["rounds"] * shape["boards_per_round"]}
    for name in {r.field for r in rows}:
        field = [r for r in rows if r.field == name]
        assert [r.rank for r in field] == list(range(1, len(field) + 1))
        keys = [(getattr(r, scale), *r.tiebreaks.values()) for r in field]
        assert keys == sorted(keys, reverse=True)


def test_standings_against_an_independent_scorer() -> None:
    """Two tables, one board each round, scored by hand from the documented rules."""
    document = base_document("mitchell_arrow_switch", tables=2, rounds=1, boards_per_round=1)
    add_round(document, "hand-scored")
    seating = document["rounds"][0]["seating"]
    hands = [
        # table 1: NS bid 4+4, take 9 (one bag: 80 + 1 - 10 = 71); EW bid 3+2, take 4
        # (set: -50). Net 121.
        ({"north": 4, "east": 3, "south": 4, "west": 2}, [5, 2, 4, 2]),
        # table 2: NS bid 4+4, take 8 (80); EW bid 3+2, take 5 (50). Net 30.
        ({"north": 4, "east": 3, "south": 4, "west": 2}, [4, 3, 4, 2]),
    ]
    for seat, (bids, tricks) in zip(seating, hands, strict=True):
        document["board_results"].append(
            {
                "round": 1,
                **seat,
                "bids": bids,
                "tricks": dict(zip(("north", "east", "south", "west"), tricks, strict=True)),
            }
        )
    competition = read(document)
    written = competition_document(competition)
    assert [r["score"] for r in written["board_results"]] == [
        {"north_south": 71, "east_west": -50},
        {"north_south": 80, "east_west": 50},
    ]
    table = duplicate_standings(competition.duplicate, [e.id for e in competition.entrants], "x")
    by = {row.entrant: row for row in table.rows}
    first, second = seating
    # Matchpoints: top 2; table 1's North-South beat table 2's. IMPs: difference 91 -> 5.
    assert by[first["north_south"]].matchpoints == 2 and by[first["north_south"]].imps == 5
    assert by[first["east_west"]].matchpoints == 0 and by[first["east_west"]].imps == -5
    assert by[second["north_south"]].matchpoints == 0 and by[second["north_south"]].imps == -5
    assert by[second["east_west"]].matchpoints == 2 and by[second["east_west"]].imps == 5
    assert by[first["north_south"]].tops == 1 and float(by[first["north_south"]].percent) == 100
    # What-if: another scale, same results.
    as_imps = duplicate_standings(
        competition.duplicate, [e.id for e in competition.entrants], "x", scale="imps"
    )
    assert as_imps.tiebreaks == ("matchpoints", "tops", "lots")


def test_a_teams_match_compares_the_two_rooms_only() -> None:
    """Four tables of teams of four: a board's group is its match (open and closed room)."""
    document = base_document("teams_of_four", tables=4, rounds=2, boards_per_round=1)
    rng = random.Random(7)
    add_round(document, "teams-1")
    play_round(document, rng)
    competition = read(document)
    assert document["entrants"][0]["id"] == "P1"  # as_listed: P1, P2 are team 1
    first_round = {(s["table"]): s for s in document["rounds"][0]["seating"]}
    planned = {s.table: s for s in teams_of_four(4, 2) if s.round == 1}
    for table, seat in first_round.items():
        assert seat["north_south"] == f"P{planned[table].north_south}"
    table = duplicate_standings(competition.duplicate, [e.id for e in competition.entrants], "x")
    assert {r.top for r in table.rows} == {2}  # two tables in each group, not four


def test_pair_follows_the_movement_from_round_one() -> None:
    rng = random.Random(3)
    document = base_document("mitchell", tables=3, rounds=3, boards_per_round=2)
    add_round(document, "r1")
    play_round(document, rng)
    competition = read(document)
    state = competition.duplicate
    following = pair_next_duplicate_round(state, [e.id for e in competition.entrants], "x", "r2")
    assert following.number == 2
    assert [b.board for b in following.boards] == [3, 4]
    assert following.boards[0].seed_hash == seed_commitment(board_seed("r2", 3))
    assert following.commitment == round_commitment("r2")
    # North-South stay at their tables, East-West move up one.
    first = {s["table"]: s for s in document["rounds"][0]["seating"]}
    second = {s.table: s for s in following.seating}
    for table in (1, 2, 3):
        assert second[table].north_south == first[table]["north_south"]
        assert second[table].east_west == first[table % 3 + 1]["east_west"]
    # Round 2 open: round 3 cannot be paired until its results are in.
    add_round(document, "r2")
    with pytest.raises(LeagueError, match="Round 2 still has boards without a result"):
        state = read(document).duplicate
        pair_next_duplicate_round(state, [e.id for e in competition.entrants], "x", "r3")
    play_round(document, rng)
    add_round(document, "r3")
    play_round(document, rng)
    with pytest.raises(LeagueError, match="Every round of the duplicate movement is paired"):
        state = read(document).duplicate
        pair_next_duplicate_round(state, [e.id for e in competition.entrants], "x", "r4")


def test_revealed_seeds_are_checked() -> None:
    document = played_document(random.Random(2), 1)
    board = document["rounds"][0]["boards"][0]
    round_seed = "round-1"
    board["seed"] = board_seed(round_seed, board["board"])
    document["rounds"][0]["seed"] = round_seed
    read(document)  # the right seeds are accepted
    assert "the round seed does not give this board seed" in refusal(
        document, lambda d: d["rounds"][0]["boards"][0].update(seed="0" * 64)
    )

    def before_the_round_seed(d: dict[str, Any]) -> None:
        d["rounds"][0]["seed"] = None
        d["rounds"][0]["boards"][0]["seed"] = "0" * 64

    assert "does not match the commitment" in refusal(document, before_the_round_seed)
    assert "round seed does not match" in refusal(
        document, lambda d: d["rounds"][0].update(seed="another")
    )


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.update(version=1), "$.competition.duplicate: duplicate data needs"),
        (
            lambda d: d["competition"]["duplicate"].update(movement="howell"),
            "$.competition.duplicate.movement: 'howell' is not one of",
        ),
        (
            lambda d: d["competition"]["duplicate"].update(rounds=3),
            "A Mitchell of 2 tables plays 1 to 2 rounds",
        ),
        (lambda d: d["entrants"].pop(), "seats 4 partnerships; the file has 3 entrants"),
        (
            lambda d: d["rounds"][0]["boards"][0].update(dealer="east"),
            "$.rounds[0].boards[0].dealer: board 1 is dealt by north, not east.",
        ),
        (
            lambda d: d["rounds"][0]["boards"].pop(),
            "$.rounds[0].boards: round 1 plays boards 1-2",
        ),
        (
            lambda d: d["rounds"][1]["seating"][0].update(
                east_west=d["rounds"][1]["seating"][2]["east_west"],
            ),
            "already sits at table 1 for board 3.",
        ),
        (
            lambda d: d["rounds"][1]["seating"][0].update(
                north_south=d["rounds"][1]["seating"][0]["east_west"],
                east_west=d["rounds"][1]["seating"][0]["north_south"],
            ),
            "$.rounds[1].seating[0]: the movement seats",
        ),
        (
            lambda d: d["board_results"][0]["tricks"].update(north=0),
            "the tricks add up to",
        ),
        (
            lambda d: d["board_results"][0].update(score={"north_south": 1, "east_west": 2}),
            "$.board_results[0].score: the bids and tricks score",
        ),
        (
            lambda d: d["board_results"][0].update(table=9),
            "$.board_results[0]: round 1 has no table 9 for board 1.",
        ),
        (
            lambda d: d["board_results"].append(copy.deepcopy(d["board_results"][0])),
            "already has a result",
        ),
        (
            lambda d: d.update(results=GOOD["results"]),
            "$.results: a duplicate competition has board_results, not results.",
        ),
        (
            lambda d: d["board_results"][0]["bids"].update(east="blind_nil"),
            "blind nil is not played under these rules",
        ),
    ],
)
def test_bad_duplicate_files_are_refused(change: Any, message: str) -> None:
    document = played_document(
        random.Random(5), 2, movement="mitchell", tables=2, rounds=2, boards_per_round=2
    )
    assert message in refusal(document, change)


def test_a_seating_that_is_no_movement_is_refused() -> None:
    document = played_document(random.Random(5), 1, tables=2, rounds=2, boards_per_round=2)
    seating = document["rounds"][0]["seating"]
    # Board 2 at table 1 with the East-West pair of table 2: no slot assignment gives it.
    changed = copy.deepcopy(document)
    changed["board_results"] = []
    first, second = seating[1], next(s for s in seating if s["table"] == 2 and s["board"] == 2)
    changed["rounds"][0]["seating"][1] = {**first, "east_west": second["east_west"]}
    changed["rounds"][0]["seating"][seating.index(second)] = {
        **second,
        "east_west": first["east_west"],
    }
    with pytest.raises(CompetitionFileError, match=r"rounds\[0\]\.seating\[1\]: the movement"):
        read(changed)


def test_older_files_stay_readable_and_are_written_as_version_1() -> None:
    competition = read_competition(json.dumps(GOOD))
    assert competition.duplicate is None
    assert competition_document(competition)["version"] == 1
    as_v2 = {**copy.deepcopy(GOOD), "version": 2}
    assert read_competition(json.dumps(as_v2)) == competition
    with pytest.raises(CompetitionFileError, match=r"\$\.rounds\[0\]\.boards: only a duplicate"):
        bad = copy.deepcopy(GOOD)
        bad["rounds"][0]["boards"] = []
        read_competition(json.dumps(bad))


def test_the_csv_carries_boards_seating_and_board_results() -> None:
    document = played_document(random.Random(4), 1)
    competition = read(document)
    text = competition_csv(competition, competition.standings())
    lines = text.lstrip("\ufeff").splitlines()
    header = lines[0].split(",")
    records = [dict(zip(header, line.split(","), strict=True)) for line in lines[1:]]
    kinds = [r["record"] for r in records]
    assert kinds.count("board") == 2 and kinds.count("seating") == 4
    assert kinds.count("board_result") == 4 and kinds.count("standing") == 4
    [settings_row] = [r for r in records if r["record"] == "duplicate"]
    assert settings_row["movement"] == "mitchell_arrow_switch"
    for row in (r for r in records if r["record"] == "board_result"):
        assert int(row["net"]) == int(row["ns_score"]) - int(row["ew_score"])
        assert int(row["ns_imps"]) == -int(row["ew_imps"])


def test_session_schedule_refuses_what_no_movement_gives() -> None:
    with pytest.raises(LeagueError, match="two rounds"):
        session_schedule(DuplicateSettings("teams_of_four", 2, 3, 2))
    with pytest.raises(LeagueError, match="at most 64"):
        session_schedule(DuplicateSettings("mitchell", 8, 8, 9))


@settings(max_examples=25, deadline=None)
@given(SHAPES, st.randoms(use_true_random=False))
def test_standings_do_not_depend_on_the_order_of_the_results(
    shape: dict[str, Any], rng: random.Random
) -> None:
    document = played_document(rng, shape["rounds"], **shape)
    shuffled = copy.deepcopy(document)
    rng.shuffle(shuffled["board_results"])
    ids = [e["id"] for e in document["entrants"]]
    first = duplicate_standings(read(document).duplicate, ids, "dup-lots")
    again = duplicate_standings(read(shuffled).duplicate, ids, "dup-lots")
    assert first == again
