"""The what-if over tables really played: a bot-seated Swiss whose every table is played
to its end through the games' command services (random legal moves, in this process), its
results appended by the ``league_match_results`` projection, then asked for its standings
under other rules through the API.  Every table is rescored through the rescoring service
with the replay's "flag and go on" mode; each entrant's figures are those the service
gives its tables, and the moves follow from the two tables of ranks.  One what-if policy
with the replay page (``scoring.core.replay.comparability``): a table is not comparable
only where a move it played would be refused under the other rules, and the standings
and the table's own rescoring (the replay page's ``/api/tables/<id>/rescore``) say the
same sentence of it.  Nothing is written.  Real PostgreSQL, committed (the projection
drains after its batch commits).
"""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest
from rest_framework.test import APIClient

from eventstore.subscriptions import catch_up
from games.services.table_state import reading_state
from leagues.projections import drain_pending, match_results
from leagues.services.streams import load
from leagues.services.tables import start_round
from scoring.services.rescoring import rescore
from tests.integration.leagues import builders as lg
from tests.integration.tables.helpers import actor_for, send
from tests.unit.domain.playing import random_move

from .conftest import entrants_of, event_count

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("room_for_bot_tables"),
]

SIDES = ("north_south", "east_west")
# Scoring only against the pinned standard rules: a set contract scores 0 (and the game
# runs to 500), so any set hand changes a table's totals.
SCORING_PRESET = "bicycle"
# No nil bids: a table where a nil was bid cannot be rescored under it.
NO_NIL_PRESET = "easy"
STANDARD = {"preset": "standard", "target_score": 100, "lose_score": -100}


def play_table(table_id: Any, rng: random.Random, nil_first: bool) -> None:
    """Random legal moves to the end (every seat a bot), no nil bid but, with
    ``nil_first``, the table's very first bid: which tables bid nil is then known."""
    first = True
    for _ in range(5000):
        with reading_state(table_id) as state:
            if state.status != "playing":
                return
            move = random_move(state, rng)
            actor = actor_for(state, move.seat, {})
        if move.kind == "bid":
            nil = nil_first and first
            ordinary = move.bid if isinstance(move.bid, int) and move.bid >= 1 else 1
            move = dataclasses.replace(move, bid="nil" if nil else ordinary)
            first = False
        send(table_id, move, actor)
    raise AssertionError(f"table {table_id} did not finish")


def played_swiss(
    organiser: Any, players: Any, count: int, rounds: int, rules: Any = None, nil_at: int = -1
) -> str:
    """A Swiss of bot-seated tables, every round's tables played to their end; the
    ``nil_at``-th table played (0-based) opens with a nil bid, no other table bids one."""
    state = lg.create_competition(
        organiser,
        {
            "name": "Rescored Swiss",
            "stages": [{"kind": "swiss", "rounds": rounds}],
            "rules": rules or STANDARD,
            "bot_level": "easy",
        },
    )
    cid = state.competition_id
    for entrant in entrants_of(players(2 * count)):
        lg.enter(organiser, cid, **entrant)
    rng = random.Random(7)
    played = 0
    for number in range(1, rounds + 1):
        lg.pair_next_round(organiser, cid)
        start_round(organiser, cid, number)
        for table_id in load(cid).tables[number].values():
            play_table(table_id, rng, nil_first=played == nil_at)
            played += 1
        catch_up(match_results)
        drain_pending()
        assert number in load(cid).closed, f"round {number} did not close from its tables"
    assert load(cid).finished
    return cid


def both_surfaces(
    client: APIClient, cid: str, preset: str
) -> tuple[dict[str, Any], dict[str, Any]]:
    """The what-if under ``preset``, and each played table's own rescoring as the replay
    page asks for it, by table id."""
    answer = client.get(f"/api/competitions/{cid}/standings", {"preset": preset})
    assert answer.status_code == 200, answer.content
    state = load(cid)
    tables = {}
    for result in state.results:
        table_id = state.result_info[result.id].table_id
        if table_id:
            rescored = client.get(f"/api/tables/{table_id}/rescore", {"rules": preset})
            assert rescored.status_code == 200, rescored.content
            tables[str(table_id)] = rescored.json()
    return answer.json(), tables


def ranks(document: dict[str, Any]) -> dict[str, int]:
    return {row["entrant"]: row["rank"] for row in document["rows"]}


def test_the_what_if_rescores_played_tables_through_the_rescoring_service(
    organiser: Any, players: Any
) -> None:
    cid = played_swiss(organiser, players, count=4, rounds=2, nil_at=0)
    state = load(cid)
    played = [r for r in state.results if state.result_info[r.id].source == "table"]
    assert len(played) == 4 and all(r.forfeited_by is None for r in played)
    client = APIClient()
    url = f"/api/competitions/{cid}/standings"
    before = event_count()

    official = client.get(url)
    assert official.status_code == 200, official.content
    official_rows = {row["entrant"]: row for row in official.json()["standings"]["rows"]}

    answer = client.get(url, {"preset": SCORING_PRESET})
    assert answer.status_code == 200, answer.content
    what_if = answer.json()
    assert what_if["comparable"] is True and what_if["not_comparable"] == []
    assert what_if["tables_rescored"] == len(played)
    assert "set_penalty" in what_if["rules_changed"]

    # What the rescoring service itself gives each table, summed per entrant.
    game_points = dict.fromkeys(official_rows, 0)
    against = dict.fromkeys(official_rows, 0)
    wins = dict.fromkeys(official_rows, 0)
    changed_tables = 0
    for result in played:
        table_id = state.result_info[result.id].table_id
        [item] = rescore([table_id], SCORING_PRESET)
        totals = item["totals"]
        changed_tables += totals != item["original"]["totals"]
        assert item["original"]["totals"] == {
            "north_south": result.north_south_points,
            "east_west": result.east_west_points,
        }
        for side, other in (SIDES, SIDES[::-1]):
            game_points[result.entrant(side)] += totals[side]
            against[result.entrant(side)] += totals[other]
        # Nobody reaches 500 in games played to 100: the side ahead wins (level: as played).
        winner = item["winner"] or (
            max(SIDES, key=lambda side: totals[side])
            if totals["north_south"] != totals["east_west"]
            else result.winner
        )
        if winner in SIDES:
            wins[result.entrant(winner)] += 1
    # Without a table whose totals change the check below could not tell rescored
    # figures from the official ones.
    assert changed_tables > 0, "no played table scores differently under the preset"

    rows = {row["entrant"]: row for row in what_if["standings"]["rows"]}
    assert rows.keys() == official_rows.keys()
    for entrant, row in rows.items():
        assert row["game_points"] == game_points[entrant], entrant
        assert row["game_points_against"] == against[entrant], entrant
        assert row["point_differential"] == game_points[entrant] - against[entrant], entrant
        assert row["wins"] == wins[entrant], entrant
        assert row["losses"] == row["played"] - wins[entrant] - row["draws"], entrant
        assert row["match_points"] == 2 * wins[entrant] + row["draws"], entrant
    assert any(rows[e]["game_points"] != official_rows[e]["game_points"] for e in rows), (
        "the what-if shows the official game points"
    )

    # Who moves, and by how much, from the two tables of ranks.
    old, new = ranks(official.json()["standings"]), ranks(what_if["standings"])
    expected = {(e, old[e], new[e], old[e] - new[e]) for e in new if old[e] != new[e]}
    moves = what_if["moves"]
    assert {(m["entrant"], m["before"], m["after"], m["change"]) for m in moves["moves"]} == (
        expected
    )
    assert moves["unchanged"] == len(new) - len(expected)
    changes = [abs(m["change"]) for m in moves["moves"]]
    assert changes == sorted(changes, reverse=True)

    # Under no nil, only the table that bid one is not comparable, on both surfaces, in
    # the same words; its result stands as played, every other table is rescored.
    no_nil, tables = both_surfaces(client, cid, NO_NIL_PRESET)
    assert "nil" in no_nil["rules_changed"]
    nil_table = str(next(iter(state.tables[1].values())))  # the first table played
    assert {t for t, item in tables.items() if not item["comparable"]} == {nil_table}
    [named] = no_nil["not_comparable"]
    assert named["table_id"] == nil_table and named["reason"] == tables[nil_table]["reason"]
    assert named["reason"].startswith("Not comparable: hand 1 has a move these rules refuse")
    assert no_nil["comparable"] is False
    assert f"round 1 board {named['board']}" in no_nil["reason"] and named["round"] == 1
    nil_result = next(r for r in played if str(state.result_info[r.id].table_id) == nil_table)
    points = dict.fromkeys(official_rows, 0)
    for result in played:
        table_id = str(state.result_info[result.id].table_id)
        totals = (
            {"north_south": result.north_south_points, "east_west": result.east_west_points}
            if table_id == nil_table
            else tables[table_id]["totals"]
        )
        for side in SIDES:
            points[result.entrant(side)] += totals[side]
    assert {row["entrant"]: row["game_points"] for row in no_nil["standings"]["rows"]} == points
    assert nil_result.north_south_points == tables[nil_table]["original"]["totals"]["north_south"]

    assert event_count() == before


def test_an_easy_competition_compares_under_standard_on_both_surfaces(
    organiser: Any, players: Any
) -> None:
    """Allowing nil makes no move that was played illegal (issue 17: the what-if refused
    every preset, "not comparable: nil", while the replay rescored the same games)."""
    easy = {"preset": "easy", "target_score": 100, "lose_score": -100}
    cid = played_swiss(organiser, players, count=2, rounds=1, rules=easy)
    before = event_count()
    answer, tables = both_surfaces(APIClient(), cid, "standard")
    assert tables and all(item["comparable"] and item["reason"] is None for item in tables.values())
    assert answer["comparable"] is True and answer["not_comparable"] == []
    assert answer["tables_rescored"] == len(tables) and "nil" in answer["rules_changed"]
    assert answer["standings"]["rows"]
    assert event_count() == before
