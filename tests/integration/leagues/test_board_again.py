"""Play this board again, through the API: a revealed board opens a table that deals
exactly that board (its deck, its dealer, the board's own commitment) with the caller
seated and three bots; an unrevealed board, a bad seat and a competition that is not
duplicate are refused in words and nothing is created; the ranking read answers
`finished: false` while the hand is played. The round is revealed from recorded results
(``record_round`` with the tables' boards as played: no worker needed here)."""

from __future__ import annotations

from fractions import Fraction
from types import SimpleNamespace
from typing import Any

import pytest
from django.test import Client

from bots.turns import bot_seat_due, play_bot_turn
from eventstore.models import Event
from eventstore.reading import read_stream
from games.domain.streams import table_stream_id
from games.engine.cards import card_name
from games.engine.play import legal_cards
from games.models import Table
from games.services.table_commands import PlaceBid, PlayCard, execute
from games.services.table_state import reading_state
from leagues.core.duplicate.board_scoring import score_board, would_rank
from leagues.core.duplicate.par import ParMethod
from leagues.services import duplicate as duplicate_service
from leagues.services.duplicate import compute_round_par, record_round, verify_competition_par
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
    boards = Client().get(f"/api/competitions/{cid}/rounds/1/boards").json()["boards"]
    assert [board["hands"] for board in boards] == [None, None]
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

    shown = Client().get(f"/api/competitions/{cid}/rounds/1/boards").json()["boards"][1]
    hands = shown["hands"]
    assert sorted(card for cards in hands.values() for card in cards) == sorted(shown["deck"])
    assert {len(cards) for cards in hands.values()} == {13}
    # Board 2: East deals, one card at a time from its left (South first).
    assert shown["deck"][0] in hands["south"] and shown["deck"][3] in hands["east"]
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


def play_out(table_id: str, player: Any, seat: str) -> None:
    """Play the one hand: the bots through their own turn code (``play_bot_turn``, as the
    worker does), the player bidding 3 and playing their first legal card."""
    for _ in range(120):
        with reading_state(table_id) as state:
            if state.status != "playing" or state.hand is None:
                return
            version = state.version
            bot = bot_seat_due(state)
            phase, hand = state.phase, state.hand
            card = card_name(legal_cards(hand)[0]) if phase == "playing" and bot is None else None
        if bot is not None:
            play_bot_turn(table_id, version)
        elif phase == "bidding":
            execute(PlaceBid(table_id, seat, 3), player)
        else:
            execute(PlayCard(table_id, seat, card), player)
    raise AssertionError("the hand did not end")


def test_the_hand_played_again_is_ranked_against_the_field_and_par() -> None:
    cid, _, _ = open_round()
    compute_round_par(cid, 1)
    reveal_round(cid)
    player = UserFactory()
    client = Client()
    client.force_login(player)
    table_id = again(client, cid, 1, {"seat": "south"}).json()["table_id"]
    play_out(table_id, player, "south")
    answer = Client().get(f"/api/competitions/{cid}/rounds/1/boards/1/again/{table_id}")
    assert answer.status_code == 200
    body = answer.json()
    assert body["finished"] is True and body["seat"] == "south"
    with reading_state(table_id) as state:
        assert state.game is not None
        played = state.game.hands[0]
        rules = state.rules
    score = score_board(rules, played.bids, played.blind, played.tricks_won)
    assert body["score"]["net"] == score.net
    field = [
        line["net"]
        for line in Client()
        .get(f"/api/competitions/{cid}/rounds/1/boards/1/traveller")
        .json()["tables"]
    ]
    par = load(cid).duplicate[1].pars[1]
    par_net = Fraction(par["north_south_total"] - par["east_west_total"], len(par["plays"]))
    expected = would_rank(field, score.net, "north_south", par_net)
    assert body["rank"]["imps_against_par"] == expected.imps_against_par is not None
    assert body["rank"]["matchpoints"] == expected.matchpoints
    assert body["rank"]["imps"] == expected.imps
    assert body["rank"]["top"] == 2 * len(field)


def test_a_par_play_is_played_again_from_the_revealed_seeds() -> None:
    cid, _, _ = open_round()
    compute_round_par(cid, 1)
    refused = Client().get(f"/api/competitions/{cid}/rounds/1/boards/1/par/1")
    assert refused.status_code == 409 and refused.json()["code"] == "board_open"
    reveal_round(cid)
    answer = Client().get(f"/api/competitions/{cid}/rounds/1/boards/1/par/1")
    assert answer.status_code == 200, answer.json()
    body = answer.json()
    recorded = load(cid).duplicate[1].pars[1]["plays"][0]
    assert body["result"]["north_south"]["points"] == recorded["north_south"]
    assert body["result"]["east_west"]["points"] == recorded["east_west"]
    hand = body["hand"]
    shown = Client().get(f"/api/competitions/{cid}/rounds/1/boards").json()["boards"][0]
    assert hand["deal"] == shown["hands"] and hand["dealer"] == "north"
    assert len(hand["plays"]) == 52 and len(body["result"]["trick_winners"]) == 13
    replay = body["replay"]
    assert replay["record"]["hands"] == [hand]
    assert replay["hands"][0]["trick_winners"] == body["result"]["trick_winners"]
    missing = Client().get(f"/api/competitions/{cid}/rounds/1/boards/1/par/2")
    assert missing.status_code == 404 and missing.json()["code"] == "unknown_par"


def test_a_par_of_an_earlier_version_still_replays_and_verifies(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A round whose par was computed while hard-1 was pinned: once par pins another
    # version, the recorded plays are still re-played, and verified, by hard-1.
    cid, _, _ = open_round()
    monkeypatch.setattr(duplicate_service, "PAR_METHOD", ParMethod("hard", "hard-1", 1))
    compute_round_par(cid, 1)
    monkeypatch.undo()
    assert duplicate_service.PAR_METHOD.version != "hard-1"
    assert load(cid).duplicate[1].par_versions == {1: "hard-1", 2: "hard-1"}
    reveal_round(cid)
    answer = Client().get(f"/api/competitions/{cid}/rounds/1/boards/1/par/1")
    assert answer.status_code == 200, answer.json()
    assert answer.json()["bot_version"] == "hard-1"
    recorded = load(cid).duplicate[1].pars[1]["plays"][0]
    assert answer.json()["result"]["north_south"]["points"] == recorded["north_south"]
    assert all(line["ok"] for line in verify_competition_par(cid))
