"""Reading a table's history over HTTP: events (paged, filtered), ledger, export."""

from __future__ import annotations

import json
from typing import Any

import pytest
from rest_framework.test import APIClient

from eventstore.subscriptions import catch_up
from scoring.projections import score_ledger

from .conftest import table_as
from .test_commands import bid_round, legal_card, post, turn_of

pytestmark = pytest.mark.django_db

Players = dict[str, APIClient]
NO_TABLE = "00000000-0000-0000-0000-000000000000"


def play_first_hand(table_id: str, players: Players) -> None:
    """Bid, then play the first legal card of whoever is to play until hand 1 is over."""
    table = bid_round(table_id, players)["table"]
    while table["hand"]["number"] == 1:
        seat = turn_of(table)
        card = legal_card(players[seat], table_id)
        response = post(players[seat], f"/api/tables/{table_id}/play", {"seat": seat, "card": card})
        assert response.status_code == 200, response.content
        table = response.json()["table"]


def test_events_are_paged_by_version(started_table: dict[str, Any], anonymous: APIClient) -> None:
    table_id = started_table["id"]
    version = started_table["version"]

    first = anonymous.get(f"/api/tables/{table_id}/events?limit=2").json()
    rest = anonymous.get(f"/api/tables/{table_id}/events?after={first['next_after']}").json()

    assert [e["version"] for e in first["events"]] == [1, 2]
    assert first["next_after"] == 2
    assert [e["version"] for e in rest["events"]] == list(range(3, version + 1))
    assert rest["next_after"] is None
    assert first["events"][0]["type"] == "TableCreated"


def test_events_after_the_head_are_empty(
    started_table: dict[str, Any], anonymous: APIClient
) -> None:
    version = started_table["version"]

    body = anonymous.get(f"/api/tables/{started_table['id']}/events?after={version}").json()

    assert body == {"events": [], "next_after": None}


@pytest.mark.parametrize("query", ["after=-1", "after=x", "limit=0", "limit=501"])
def test_events_refuse_bad_queries(
    started_table: dict[str, Any], anonymous: APIClient, query: str
) -> None:
    response = anonymous.get(f"/api/tables/{started_table['id']}/events?{query}")

    assert response.status_code == 400
    assert response.json()["message"].split(":")[0] in {"after", "limit"}


def test_events_hide_the_deck_and_other_hands_until_the_hand_is_over(
    started_table: dict[str, Any], players: Players, anonymous: APIClient
) -> None:
    table_id = started_table["id"]
    north_cards = table_as(players["north"], table_id)["hand"]["you"]["cards"]

    spectator = anonymous.get(f"/api/tables/{table_id}/events").json()["events"]
    east = players["east"].get(f"/api/tables/{table_id}/events").json()["events"]
    north = players["north"].get(f"/api/tables/{table_id}/events").json()["events"]

    for events in (spectator, east):
        shown = json.dumps(events)
        assert all(f'"{card}"' not in shown for card in north_cards)
    dealt = next(e for e in north if e["type"] == "HandDealt")
    assert "deck" not in dealt["data"]
    assert sorted(dealt["data"].get("your_cards", [])) == sorted(north_cards)


def test_after_a_hand_its_deal_is_public(started_table: dict[str, Any], players: Players) -> None:
    table_id = started_table["id"]
    play_first_hand(table_id, players)

    events = APIClient().get(f"/api/tables/{table_id}/events?limit=500").json()["events"]

    dealt = [e for e in events if e["type"] == "HandDealt"]
    assert len(dealt[0]["data"]["deck"]) == 52
    assert "deck" not in dealt[1]["data"]


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("builtin_presets")
def test_ledger_of_a_played_hand(started_table: dict[str, Any], players: Players) -> None:
    table_id = started_table["id"]
    play_first_hand(table_id, players)
    # The projection follows committed events only (hence a transactional test).
    catch_up(score_ledger)

    response = APIClient().get(f"/api/tables/{table_id}/ledger")

    assert response.status_code == 200, response.content
    ledger = response.json()
    assert [hand["hand_number"] for hand in ledger["hands"]] == [1]
    table = table_as(players["north"], table_id)
    assert ledger["totals"] == table["scores"]["totals"]


def test_ledger_of_an_unknown_table_is_a_404(anonymous: APIClient) -> None:
    response = anonymous.get(f"/api/tables/{NO_TABLE}/ledger")

    assert response.status_code == 404
    assert response.json()["code"] == "no_such_table"


def test_export_holds_complete_hands_and_the_head_hash(
    started_table: dict[str, Any], players: Players, anonymous: APIClient
) -> None:
    table_id = started_table["id"]
    before = anonymous.get(f"/api/tables/{table_id}/export").json()
    play_first_hand(table_id, players)

    after = anonymous.get(f"/api/tables/{table_id}/export").json()

    assert before["hands"] == []
    assert len(after["hands"]) == 1
    events = anonymous.get(f"/api/tables/{table_id}/events?limit=500").json()["events"]
    assert after["head_hash"] == events[-1]["hash"]
    assert after["table"]["version"] == events[-1]["version"]


def test_export_of_an_unknown_table_is_a_404(anonymous: APIClient) -> None:
    response = anonymous.get(f"/api/tables/{NO_TABLE}/export")

    assert response.status_code == 404
