"""Play this board again, through the API: a revealed board opens a table that deals
exactly that board (its deck, its dealer, the board's own commitment) with the caller
seated and three bots; an unrevealed board, a bad seat and a competition that is not
duplicate are refused in words and nothing is created; the ranking read answers
`finished: false` while the hand is played. The round is revealed from recorded results
(``record_round`` with the tables' boards as played: no worker needed here)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest
from django.test import Client

from eventstore.models import Event
from eventstore.reading import read_stream
from games.domain.streams import table_stream_id
from games.models import Table
from games.services.table_state import reading_state
from leagues.services.duplicate import record_round
from leagues.services.streams import load
from tests.factories import UserFactory
from tests.integration.leagues import builders as lg
from tests.integration.leagues.test_duplicate_api import open_round

pytestmark = pytest.mark.django_db

BOARD = {"bids": [3, 4, 3, 3], "blind": [False] * 4, "tricks": [3, 4, 3, 3]}


def reveal_round(cid: str) -> None:
    state = load(cid)
    rows = [
        SimpleNamespace(
            table_id=table_id,
            board=table,
            result={
                "points": {"north_south": 1, "east_west": 0},
                "winner": "north_south",
                "hands": 2,
                "bots": True,
                "boards": [BOARD, {**BOARD, "tricks": [4, 3, 3, 3]}],
            },
        )
        for table, table_id in state.tables[1].items()
    ]
    record_round(cid, 1, rows)
    assert load(cid).duplicate[1].is_revealed


def again(client: Client, cid: str, board: int, body: Any) -> Any:
    return client.post(
        f"/api/competitions/{cid}/rounds/1/boards/{board}/again",
        body,
        content_type="application/json",
    )


def test_an_unrevealed_board_is_refused_and_nothing_is_created() -> None:
    cid, _, _ = open_round()
    client = Client()
    client.force_login(UserFactory())
    tables, events = Table.objects.count(), Event.objects.count()
    answer = again(client, cid, 1, {"seat": "south"})
    assert answer.status_code == 409 and answer.json()["code"] == "board_open"
    assert "still being played" in answer.json()["message"]
    assert (Table.objects.count(), Event.objects.count()) == (tables, events)
    anonymous = again(Client(), cid, 1, {"seat": "south"})
    assert anonymous.status_code == 401


def test_a_revealed_board_deals_exactly_that_board_again() -> None:
    cid, _, _ = open_round()
    reveal_round(cid)
    player = UserFactory()
    client = Client()
    client.force_login(player)
    tables = Table.objects.count()
    for body, code in (({"seat": "middle"}, 400), ({}, 400), ({"seat": "south", "x": 1}, 400)):
        refused = again(client, cid, 2, body)
        assert refused.status_code == code, refused.json()
        assert refused.json()["message"]
    assert again(client, cid, 9, {"seat": "south"}).status_code == 404
    assert Table.objects.count() == tables

    answer = again(client, cid, 2, {"seat": "east"})
    assert answer.status_code == 201, answer.json()
    table_id = answer.json()["table_id"]
    revealed = load(cid).duplicate[1].revealed[2]
    with reading_state(table_id) as state:
        assert state.owner == {"kind": "board_again", "id": cid, "round": 1, "board": 2}
        assert state.seat_kinds == ["bot", "human", "bot", "bot"]
        assert state.players[1] == player.pk
        assert state.rules.hands == 1
        assert state.commitment == revealed["commitment"]
    first = next(e for e in read_stream(table_stream_id(table_id)) if e.type == "HandDealt")
    assert first.data["deck"] == revealed["deck"]
    assert first.data["dealer"] in (1, "east")  # board 2: East deals

    ranking = Client().get(f"/api/competitions/{cid}/rounds/1/boards/2/again/{table_id}")
    assert ranking.status_code == 200 and ranking.json()["finished"] is False
    assert ranking.json()["seat"] == "east"
    other = Client().get(f"/api/competitions/{cid}/rounds/1/boards/1/again/{table_id}")
    assert other.status_code == 404


def test_a_competition_that_is_not_duplicate_is_refused() -> None:
    organiser = UserFactory()
    cid = lg.create_competition(organiser, {"name": "Plain", "rules": "standard"}).competition_id
    client = Client()
    client.force_login(UserFactory())
    answer = again(client, cid, 1, {"seat": "north"})
    assert answer.status_code == 404 and answer.json()["code"] == "not_duplicate"
