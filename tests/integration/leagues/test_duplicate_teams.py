"""A teams-of-four duplicate competition played by bots through the platform (issue 20,
point 2: "a team-of-four match is scored by the difference on each board"): eight
partnerships, so four tables a round and two team matches (tables 1-2 and 3-4), two
rounds of two boards, through a real Celery worker and projector.

- each board's traveller compares a table with the other room of its match only (top 2,
  IMPs against that one table's net), never with the other match;
- the team matches (``GET .../duplicate`` ``team_matches``) are an independent
  recomputation from the recorded board results: team A the open room's North-South and
  the closed room's East-West partnership, IMPs per board from the documented table on the
  open room's net minus the closed room's, more IMPs win;
- the standings rank by those team results first (2 a win, 1 a draw), then the scale;
- each table's match result (``MatchResultRecorded``, what the official standings count)
  is its team match's IMPs and winner, seen from that table;
- the export read by ``manage.py standings FILE`` with no database in reach gives the same
  rows and the same team matches.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from leagues.core.results import effective_results
from leagues.services.streams import load
from leagues.services.tables import start_round
from tests.integration.leagues import builders as lg
from tests.integration.live.conftest import Processes, new_user, wait_until

from .test_duplicate_export import exported
from .test_end_to_end import closed, projector
from .test_file_commands import run

BOARDS = 2
ROUNDS = 2

# docs/leagues.md's IMP table, written out again (lowest difference, IMPs), best first.
IMP_TABLE = [(450, 12), (350, 11), (280, 10), (220, 9), (170, 8), (130, 7), (100, 6)]
IMP_TABLE += [(70, 5), (50, 4), (30, 3), (20, 2), (10, 1)]


def my_imps(difference: int) -> int:
    value = next((points for lowest, points in IMP_TABLE if abs(difference) >= lowest), 0)
    return value if difference >= 0 else -value


def teams_competition(organiser: Any) -> str:
    cid = lg.create_competition(
        organiser,
        {
            "name": "Teams of four",
            "stages": [{"kind": "round_robin"}],
            "rules": "standard",
            "bot_level": "easy",
            "duplicate": {
                "boards_per_round": BOARDS,
                "movement": "teams_of_four",
                "scale": "imps",
                "par_plays": 1,
            },
        },
    ).competition_id
    for number in range(1, 9):
        a, b = new_user("t"), new_user("t")
        lg.enter(organiser, cid, entrant_id=f"p{number}", players=[str(a.pk), str(b.pk)])
    return cid


def net(result: dict[str, Any]) -> int:
    return int(result["score"]["north_south"]) - int(result["score"]["east_west"])


def expected_matches(cid: str) -> list[dict[str, Any]]:
    """Every team match recomputed here from the recorded board results."""
    state = load(cid)
    out = []
    for number in sorted(state.duplicate):
        rooms = {(int(r["table"]), int(r["board"])): r for r in state.duplicate[number].results}
        tables = max(table for table, _ in rooms)
        for match in range(1, tables // 2 + 1):
            opened, closed_room = 2 * match - 1, 2 * match
            swings = [
                my_imps(net(rooms[(opened, b)]) - net(rooms[(closed_room, b)]))
                for b in range(1, BOARDS + 1)
            ]
            a, b = sum(x for x in swings if x > 0), sum(-x for x in swings if x < 0)
            out.append(
                {
                    "round": number,
                    "match": match,
                    "team_a": [
                        rooms[(opened, 1)]["north_south"],
                        rooms[(closed_room, 1)]["east_west"],
                    ],
                    "team_b": [
                        rooms[(opened, 1)]["east_west"],
                        rooms[(closed_room, 1)]["north_south"],
                    ],
                    "imps": (a, b),
                    "winner": None if a == b else "a" if a > b else "b",
                    "swings": swings,
                }
            )
    return out


def shown_matches(answer: dict[str, Any]) -> list[dict[str, Any]]:
    return [
        {
            "round": m["round"],
            "match": m["match"],
            "team_a": m["team_a"]["entrants"],
            "team_b": m["team_b"]["entrants"],
            "imps": (m["team_a"]["imps"], m["team_b"]["imps"]),
            "winner": m["winner"],
            "swings": [board["imps"] for board in m["boards"]],
        }
        for m in answer["team_matches"]
    ]


def test_a_teams_of_four_competition_scores_its_matches_by_imps_per_board(
    live_db: None,
    processes: Processes,
    client: Any,
    tmp_path: Path,
    room_for_bot_tables: None,
) -> None:
    processes.worker(concurrency=2)
    projector(processes)
    organiser = new_user("organiser")
    cid = teams_competition(organiser)
    for number in range(1, ROUNDS + 1):
        lg.pair_next_round(organiser, cid)
        start_round(organiser, cid, number)
        closed(cid, number, processes)
        wait_until(lambda n=number: load(cid).duplicate[n].is_revealed, 240, "revealed", poll=0.3)

    # Travellers: every table compared with the other room of its match only.
    for number in range(1, ROUNDS + 1):
        for board in range(1, BOARDS + 1):
            answer = client.get(f"/api/competitions/{cid}/rounds/{number}/boards/{board}/traveller")
            assert answer.status_code == 200, answer.content[:300]
            lines = {line["table"]: line for line in answer.json()["tables"]}
            assert sorted(lines) == [1, 2, 3, 4]
            for table, line in lines.items():
                other = lines[table + 1 if table % 2 else table - 1]
                assert line["group"] == (table + 1) // 2
                mine, theirs = net(line), net(other)
                assert line["matchpoints"]["north_south"] == 2 * (mine > theirs) + (mine == theirs)
                assert sum(line["matchpoints"].values()) == 2  # top 2: one other table
                assert line["imps"]["north_south"] == my_imps(mine - theirs)

    # The team matches and the standings they rank first.
    answer = client.get(f"/api/competitions/{cid}/duplicate")
    assert answer.status_code == 200, answer.content[:300]
    platform = answer.json()
    expected = expected_matches(cid)
    assert len(expected) == ROUNDS * 2
    assert shown_matches(platform) == expected
    points = {f"p{n}": 0 for n in range(1, 9)}
    for m in expected:
        for side in ("a", "b"):
            for entrant in m[f"team_{side}"]:
                points[entrant] += 1 if m["winner"] is None else 2 * (m["winner"] == side)
    rows = platform["rows"]
    assert {row["entrant"]: row["team"]["points"] for row in rows} == points
    keys = [(-row["team"]["points"], -row["imps"]) for row in rows]
    assert keys == sorted(keys)
    assert sum(row["team"]["won"] + row["team"]["drawn"] + row["team"]["lost"] for row in rows) == (
        8 * ROUNDS
    )

    # Each table's match result (what the official standings count) is its team
    # match's: the IMPs of the team sitting North-South there and of the other.
    state = load(cid)
    recorded = {(r.round, r.board): r for r in effective_results(state.results)}
    assert len(recorded) == ROUNDS * 4
    for m in expected:
        a, b = m["imps"]
        ahead = {None: None, "a": "north_south", "b": "east_west"}[m["winner"]]
        behind = {None: None, "a": "east_west", "b": "north_south"}[m["winner"]]
        opened = recorded[(m["round"], 2 * m["match"] - 1)]
        closed_room = recorded[(m["round"], 2 * m["match"])]
        assert (opened.north_south_points, opened.east_west_points, opened.winner) == (a, b, ahead)
        assert (closed_room.north_south_points, closed_room.east_west_points) == (b, a)
        assert closed_room.winner == behind
    official = client.get(f"/api/competitions/{cid}/standings").json()["standings"]["rows"]
    assert {row["entrant"]: (row["wins"], row["draws"], row["losses"]) for row in official} == {
        row["entrant"]: (row["team"]["won"], row["team"]["drawn"], row["team"]["lost"])
        for row in rows
    }

    # The export, and manage.py standings on it alone, give the same table and matches.
    _, csv_text, path = exported(client, cid, tmp_path, "teams")
    assert csv_text.count("\nboard_result,") == ROUNDS * 4 * BOARDS
    for scale in ("imps", "matchpoints"):
        shown = client.get(f"/api/competitions/{cid}/duplicate", {"scale": scale}).json()
        done = run("standings", str(path), "--format", "json", "--scale", scale)
        assert done.returncode == 0, done.stderr
        from_file = json.loads(done.stdout)
        assert [
            (r["rank"], r["entrant"], r["matchpoints"], r["imps"], r["boards"], r["team"])
            for r in from_file["rows"]
        ] == [
            (r["place"], r["entrant"], r["matchpoints"], r["imps"], r["boards"], r["team"])
            for r in shown["rows"]
        ]
        assert shown_matches(from_file) == expected
        # The file's travellers compare exactly as the platform's.
        for traveller in from_file["travellers"]:
            url = f"/api/competitions/{cid}/rounds/{traveller['round']}/boards/{traveller['board']}"
            lines = client.get(f"{url}/traveller").json()["tables"]
            assert [
                (line["table"], line["group"], line["matchpoints"], line["imps"])
                for line in traveller["lines"]
            ] == [
                (line["table"], line["group"], line["matchpoints"], line["imps"]) for line in lines
            ]
    text = run("standings", str(path))
    assert text.returncode == 0, text.stderr
    assert "won" in text.stdout.splitlines()[0]
