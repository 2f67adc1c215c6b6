"""Stage-seated duplicate competitions in the competition file (``duplicate.seating:
"stages"``, docs/formats.md): what the platform exports. The round trip, the standings
from the file alone against an independent scorer (the platform's rule: one field by the
scale's total, ties sharing a place), ``pair`` through the stage engine with the boards
from the round seed, an open round holding commitments only, and the refusals."""

from __future__ import annotations

import copy
import io
import json
import random
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from filetools.cli import TOOLS
from games.engine.deal import seed_commitment
from games.engine.rules import rules_from_spec
from games.engine.seats import SEAT_NAMES
from leagues.core.competition import pair_next_round
from leagues.core.competition_csv import competition_csv
from leagues.core.competition_file import (
    CompetitionFileError,
    competition_document,
    read_competition,
)
from leagues.core.duplicate.board_scoring import imps, score_board
from leagues.core.duplicate.boards import board_seed, dealer_of, round_commitment
from leagues.core.duplicate.session import duplicate_standings, stage_round_boards
from tests.unit.leagues.duplicate_files import played_document, random_hand

BID = {"nil": 0, "blind_nil": 0}


def base(
    entrants: int, boards_per_round: int, scale: str = "matchpoints", movement: str = "mitchell"
) -> dict[str, Any]:
    return {
        "format": "spades-competition",
        "version": 2,
        "competition": {
            "id": "stagedup",
            "lots_seed": "stage-lots",
            "stages": [{"kind": "round_robin"}],
            "fixed_hands": boards_per_round,
            "duplicate": {
                "seating": "stages",
                "movement": movement,
                "boards_per_round": boards_per_round,
                "scale": scale,
                "rules": "standard",
            },
        },
        "entrants": [{"id": f"E{n}", "players": [f"e{n}a", f"e{n}b"]} for n in range(entrants)],
        "rounds": [],
        "results": [],
        "board_results": [],
    }


def read(document: dict[str, Any]) -> Any:
    return read_competition(json.dumps(document))


def add_round(document: dict[str, Any], seed: str) -> dict[str, Any]:
    """Pair the next round with the stage engine; its boards committed from ``seed``."""
    competition = read(document)
    paired = pair_next_round(competition, seed)
    per_round = document["competition"]["duplicate"]["boards_per_round"]
    document["rounds"].append(
        {
            "number": paired.number,
            "stage": paired.stage + 1,
            "input": paired.input,
            "commitment": paired.commitment,
            "seed": None,
            "matches": [p.as_dict() for p in paired.pairing.matches],
            "byes": list(paired.pairing.byes),
            "boards": [{**b.as_dict(), "seed": None} for b in stage_round_boards(seed, per_round)],
            "boards_commitment": round_commitment(seed),
            "boards_seed": None,
        }
    )
    return document


def play_round(document: dict[str, Any], rng: random.Random, seed: str) -> dict[str, Any]:
    """Every table plays every board; the round's match results; then the reveal."""
    last = document["rounds"][-1]
    rules = rules_from_spec("standard")
    for match in last["matches"]:
        totals = [0, 0]
        for board in last["boards"]:
            bids, tricks = random_hand(rng)
            document["board_results"].append(
                {
                    "round": last["number"],
                    "table": match["board"],
                    "board": board["board"],
                    "north_south": match["north_south"],
                    "east_west": match["east_west"],
                    "bids": bids,
                    "tricks": tricks,
                }
            )
            scored = score_board(
                rules,
                [BID.get(bids[s], bids[s]) for s in SEAT_NAMES],
                [False] * 4,
                [tricks[s] for s in SEAT_NAMES],
            )
            totals[0] += scored.north_south.points
            totals[1] += scored.east_west.points
        document["results"].append(
            {
                "id": f"r{last['number']}-{match['board']}",
                "round": last["number"],
                "board": match["board"],
                "north_south": match["north_south"],
                "east_west": match["east_west"],
                "points": {"north_south": totals[0], "east_west": totals[1]},
                "winner": None
                if totals[0] == totals[1]
                else "north_south"
                if totals[0] > totals[1]
                else "east_west",
            }
        )
    last["seed"] = seed
    last["boards_seed"] = seed
    for board in last["boards"]:
        board["seed"] = board_seed(seed, board["board"])
    return document


def played(
    rng: random.Random, entrants: int, per_round: int, rounds: int, movement: str = "mitchell"
) -> dict[str, Any]:
    document = base(entrants, per_round, movement=movement)
    for number in range(1, rounds + 1):
        add_round(document, f"stage-round-{number}")
        play_round(document, rng, f"stage-round-{number}")
    return document


def independent_standings(
    document: dict[str, Any], scale: str
) -> list[tuple[int, str, int, int, int | None]]:
    """(place, entrant, matchpoints, imps, team points) scored here from the bids and
    tricks: a round's tables holding a board are one field, except in teams of four where
    tables 2m-1 and 2m (one team match) are; 2 a net beaten, 1 a tie; IMPs against the
    average of the other tables. In teams of four each match gives team A (open room's
    North-South, closed room's East-West) IMPs(open net - closed net) a board, more IMPs
    win (2 points, 1 each for a draw), and the ranking is by those points first; ties
    share a place, listed by id."""
    rules = rules_from_spec("standard")
    teams = document["competition"]["duplicate"]["movement"] == "teams_of_four"
    nets: dict[tuple[int, int, int], list[tuple[int, str, str, int]]] = {}
    for r in document["board_results"]:
        s = score_board(
            rules,
            [BID.get(r["bids"][seat], r["bids"][seat]) for seat in SEAT_NAMES],
            [r["bids"][seat] == "blind_nil" for seat in SEAT_NAMES],
            [r["tricks"][seat] for seat in SEAT_NAMES],
        )
        group = (r["table"] + 1) // 2 if teams else 0
        nets.setdefault((r["round"], r["board"], group), []).append(
            (r["table"], r["north_south"], r["east_west"], s.net)
        )
    mp = {e["id"]: 0 for e in document["entrants"]}
    im = {e["id"]: 0 for e in document["entrants"]}
    for lines in nets.values():
        for table, ns, ew, net in lines:
            others = [n for t, _, _, n in lines if t != table]
            points = sum(2 * (net > o) + (net == o) for o in others)
            mp[ns] += points
            mp[ew] += 2 * len(others) - points
            if others:
                swing = imps(net - Fraction(sum(others), len(others)))
                im[ns] += swing
                im[ew] -= swing
    team_points: dict[str, int] = {e: 0 for e in mp}
    if teams:
        margins: dict[tuple[int, int], list[int]] = {}
        sides: dict[tuple[int, int], tuple[set[str], set[str]]] = {}
        for (rnd, _board, group), lines in nets.items():
            rooms = {table: (ns, ew, net) for table, ns, ew, net in lines}
            if 2 * group - 1 not in rooms or 2 * group not in rooms:
                continue
            open_ns, open_ew, open_net = rooms[2 * group - 1]
            closed_ns, closed_ew, closed_net = rooms[2 * group]
            margins.setdefault((rnd, group), []).append(imps(open_net - closed_net))
            a, b = sides.setdefault((rnd, group), (set(), set()))
            a.update((open_ns, closed_ew))
            b.update((open_ew, closed_ns))
        for key, boards in margins.items():
            won_a = sum(x for x in boards if x > 0)
            won_b = sum(-x for x in boards if x < 0)
            a, b = sides[key]
            for entrant in a:
                team_points[entrant] += 2 if won_a > won_b else 1 if won_a == won_b else 0
            for entrant in b:
                team_points[entrant] += 2 if won_b > won_a else 1 if won_a == won_b else 0
    total = mp if scale == "matchpoints" else im
    order = sorted(mp, key=lambda e: (-team_points[e], -total[e], e))
    rows: list[tuple[int, str, int, int, int | None]] = []
    for index, entrant in enumerate(order):
        place = index + 1
        previous = order[index - 1] if index else None
        if previous is not None and (team_points[previous], total[previous]) == (
            team_points[entrant],
            total[entrant],
        ):
            place = rows[-1][0]
        rows.append(
            (place, entrant, mp[entrant], im[entrant], team_points[entrant] if teams else None)
        )
    return rows


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    entrants=st.sampled_from([2, 4, 5, 6, 8]),
    movement=st.sampled_from(["mitchell", "mitchell_arrow_switch", "teams_of_four"]),
    per_round=st.integers(1, 3),
    rounds=st.integers(1, 3),
    seed=st.integers(0, 2**32),
    scale=st.sampled_from(["matchpoints", "imps"]),
)
def test_round_trip_and_standings_from_the_file_alone(
    entrants: int, movement: str, per_round: int, rounds: int, seed: int, scale: str
) -> None:
    # A stage-seated round is one field, or in teams of four one group per team match
    # (the platform's rule).
    rounds = min(rounds, entrants - 1 if entrants % 2 == 0 else entrants)
    document = played(random.Random(seed), entrants, per_round, rounds, movement)
    competition = read(document)
    assert competition.duplicate is not None and competition.duplicate.settings.stage_seated
    written = competition_document(competition)
    again = read(written)
    assert again.duplicate == competition.duplicate
    assert again.rounds == competition.rounds and again.results == competition.results
    assert competition_document(again) == written
    assert written["competition"]["duplicate"]["seating"] == "stages"
    assert all("seating" not in r for r in written["rounds"])
    table = duplicate_standings(
        again.duplicate, [e.id for e in again.entrants], again.settings.lots_seed, scale
    )
    got = [
        (row.rank, row.entrant, row.matchpoints, row.imps, row.team and row.team["points"])
        for row in table.rows
    ]
    assert got == independent_standings(document, scale)
    assert all(row.field == "all" for row in table.rows)
    csv_text = competition_csv(again, again.standings())
    assert "stages" in csv_text and csv_text.count("\nboard_result,") == len(
        document["board_results"]
    )


def test_movement_files_are_unchanged_by_the_seating_field() -> None:
    document = played_document(random.Random(3))
    written = competition_document(read(document))
    assert "seating" not in written["competition"]["duplicate"]
    document["competition"]["duplicate"]["seating"] = "movement"
    assert read(document).duplicate == read(written).duplicate


def test_an_open_round_holds_commitments_only() -> None:
    document = played(random.Random(1), 4, 2, 1)
    add_round(document, "stage-round-2")  # paired and started: boards committed, not played
    competition = read(document)
    written = competition_document(competition)
    open_round = written["rounds"][1]
    assert open_round["seed"] is None and open_round["boards_seed"] is None
    assert all(b["seed"] is None for b in open_round["boards"])
    assert [b["seed_hash"] for b in open_round["boards"]] == [
        seed_commitment(board_seed("stage-round-2", n)) for n in (1, 2)
    ]
    assert all(r["round"] == 1 for r in written["board_results"])
    assert all(r["round"] == 1 for r in written["results"])


def run_tool(tmp_path: Path, document: dict[str, Any], *args: str) -> str:
    path = tmp_path / "c.json"
    path.write_text(json.dumps(document))
    tool = TOOLS[args[0]]
    options = {"file": str(path), "tiebreaks": None, "scale": None, "format": "json"}
    if args[1:] == ("--seed", "next-one"):
        options["seed"] = "next-one"
    return tool.run(options, io.StringIO(), None)


def test_pair_uses_the_stage_engine_and_the_round_seed(tmp_path: Path) -> None:
    document = played(random.Random(2), 4, 2, 1)
    answer = json.loads(run_tool(tmp_path, document, "pair", "--seed", "next-one"))
    expected = pair_next_round(read(document), "next-one")
    assert answer["matches"] == [p.as_dict() for p in expected.pairing.matches]
    assert answer["commitment"] == expected.commitment
    assert answer["boards_commitment"] == round_commitment("next-one")
    assert answer["boards"] == [
        {
            "board": n,
            "dealer": SEAT_NAMES[dealer_of(n)],
            "seed_hash": seed_commitment(board_seed("next-one", n)),
        }
        for n in (1, 2)
    ]
    standings = json.loads(run_tool(tmp_path, document, "standings"))
    assert standings["tiebreaks"] == []


def refusal(document: dict[str, Any], change: Callable[[dict[str, Any]], None]) -> str:
    changed = copy.deepcopy(document)
    change(changed)
    with pytest.raises(CompetitionFileError) as refused:
        read(changed)
    return str(refused.value)


def test_refusals_name_the_place_and_the_reason() -> None:
    document = played(random.Random(4), 4, 2, 1)

    def set_(path: str, value: Any) -> Callable[[dict[str, Any]], None]:
        def change(d: dict[str, Any]) -> None:
            *head, last = path.split(".")
            target: Any = d
            for key in head:
                target = target[int(key)] if key.isdigit() else target[key]
            target[int(last) if last.isdigit() else last] = value

        return change

    assert "tables" in refusal(document, set_("competition.duplicate.tables", 2))
    assert "seating" in refusal(document, set_("competition.duplicate.seating", "howell"))
    assert "boards_seed" in refusal(document, set_("rounds.0.boards_seed", "other"))
    assert "rounds[0].boards[0].seed" in refusal(document, set_("rounds.0.boards.0.seed", "0" * 64))
    assert "rounds[0].boards[1].board" in refusal(document, set_("rounds.0.boards.1.board", 3))
    assert "not seating" in refusal(document, set_("rounds.0.seating", []))
    swapped = document["board_results"][0]["east_west"]
    assert "board_results[0]" in refusal(document, set_("board_results.0.north_south", swapped))
    assert "board_results[0].score" in refusal(
        document, set_("board_results.0.score", {"north_south": 1, "east_west": 2})
    )
    assert "no knockout stage" in refusal(
        document, set_("competition.stages", [{"kind": "knockout"}])
    )
    assert "fixed_hands" in refusal(document, set_("competition.fixed_hands", 3))
    plain = copy.deepcopy(document)
    del plain["competition"]["duplicate"]
    del plain["board_results"]
    assert "boards" in refusal(plain, lambda d: None)


def test_a_round_paired_but_not_started_has_no_boards_yet() -> None:
    document = played(random.Random(5), 4, 2, 1)
    add_round(document, "stage-round-2")
    second = document["rounds"][1]
    second["boards"], second["boards_commitment"] = [], ""
    competition = read(document)
    written = competition_document(competition)
    assert written["rounds"][1]["boards"] == [] and written["rounds"][1]["boards_seed"] is None
    assert read(written).duplicate == competition.duplicate
    match = second["matches"][0]
    early = {
        "round": 2,
        "table": 1,
        "board": 1,
        "north_south": match["north_south"],
        "east_west": match["east_west"],
        "bids": {"north": 3, "east": 3, "south": 3, "west": 3},
        "tricks": {"north": 4, "east": 3, "south": 3, "west": 3},
    }
    assert "round 2 has no table 1 for board 1" in refusal(
        document, lambda d: d["board_results"].append(early)
    )
