"""The what-if over tables really played: a bot-seated Swiss whose every table is played
to its end through the games' command services (random legal moves, in this process), its
results appended by the ``league_match_results`` projection, then asked for its standings
under another scoring-only preset through the API.  Every table is rescored through the
rescoring service, each entrant's figures are those the service gives its tables, the
moves follow from the two tables of ranks, a preset that changes legality is not
comparable, and nothing is written.  Real PostgreSQL, committed (the projection drains
after its batch commits).
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from rest_framework.test import APIClient

from eventstore.subscriptions import catch_up
from leagues.projections import drain_pending, match_results
from leagues.services.streams import load
from leagues.services.tables import start_round
from scoring.services.rescoring import rescore
from tests.integration.leagues import builders as lg
from tests.integration.tables.helpers import play_moves

from .conftest import entrants_of, event_count

pytestmark = pytest.mark.django_db(transaction=True)

SIDES = ("north_south", "east_west")
# Scoring only against the pinned standard rules: a set contract scores 0 (and the game
# runs to 500), so any set hand changes a table's totals.
SCORING_PRESET = "bicycle"
# No nil bids: which moves are legal changes, so the games cannot be rescored under it.
LEGALITY_PRESET = "easy"


def played_swiss(organiser: Any, players: Any, count: int, rounds: int) -> str:
    """A Swiss of bot-seated tables, every round's tables played to their end."""
    state = lg.create_competition(
        organiser,
        {
            "name": "Rescored Swiss",
            "stages": [{"kind": "swiss", "rounds": rounds}],
            "rules": {"preset": "standard", "target_score": 100, "lose_score": -100},
            "bot_level": "easy",
        },
    )
    cid = state.competition_id
    for entrant in entrants_of(players(2 * count)):
        lg.enter(organiser, cid, **entrant)
    rng = random.Random(7)
    for number in range(1, rounds + 1):
        lg.pair_next_round(organiser, cid)
        start_round(organiser, cid, number)
        for table_id in load(cid).tables[number].values():
            # Every seat is a bot: the helper sends each move as the bot actor.
            play_moves(table_id, {}, rng, limit=5000)
        catch_up(match_results)
        drain_pending()
        assert number in load(cid).closed, f"round {number} did not close from its tables"
    assert load(cid).finished
    return cid


def ranks(document: dict[str, Any]) -> dict[str, int]:
    return {row["entrant"]: row["rank"] for row in document["rows"]}


def test_the_what_if_rescores_played_tables_through_the_rescoring_service(
    organiser: Any, players: Any
) -> None:
    cid = played_swiss(organiser, players, count=4, rounds=2)
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
    assert what_if["comparable"] is True
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

    refused = client.get(url, {"preset": LEGALITY_PRESET})
    assert refused.status_code == 200, refused.content
    body = refused.json()
    assert body["comparable"] is False
    assert "nil" in body["rules_changed"] and "nil" in body["reason"]
    assert "standings" not in body and "moves" not in body

    assert event_count() == before
