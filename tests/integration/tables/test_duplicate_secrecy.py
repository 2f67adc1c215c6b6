"""Secrecy across the tables of a duplicate round (issue 20, point 3), in the spirit of
test_views_leak and test_spectator_delay: two tables deal the same boards; while one has
played board 1 and the other has not, nothing of the first table's play (no card, no
bid, no trick, no score) reaches anyone but its own seats, from every surface a viewer
has: the table view (REST and the sockets' update), the events, the export, the
replay, the verification, the what-if rescoring and the ledger; a player seated at the
other table is one such viewer. The bots' input is their own seat's view. Once the
owner reveals the boards (``RevealDeals``) everything is shown, and the deals verify.

Each assertion can fail: the same reads at a table dealing its own seed (or after the
reveal) do show the cards, which the last test checks."""

from __future__ import annotations

import random
from typing import Any

import pytest
from django.test import Client

from eventstore.reading import read_stream
from games.domain import events as ev
from games.domain.streams import table_stream_id
from games.engine.cards import card_name
from games.engine.deal import board_deck
from games.engine.view import seat_view  # what a bot's move is decided from (bots.turns)
from games.selectors.replay import table_replay
from games.selectors.table_updates import viewer_update
from games.selectors.verification import table_verification
from games.selectors.visibility import events_for_viewer, hands_shown, table_view, visible_version
from games.services.actors import SystemActor
from games.services.deal_verification import check_deals
from games.services.errors import CommandRejected
from games.services.export import export_table
from games.services.table_commands import (
    RevealDeals,
    StartGame,
    TakeSeat,
    create_table,
    execute,
)
from games.services.table_state import reading_state
from scoring.services.rescoring import rescore
from tests.factories import UserFactory
from tests.integration.tables.helpers import play_moves
from tests.integration.tables.test_views_leak import cards_in_json

SEATS = ("north", "east", "south", "west")
ROUND_SEED = "a" * 64
RULES = {"preset": "standard", "hands": 2}
PLAY_EVENTS = {ev.HAND_DEALT, ev.BID_PLACED, ev.CARD_PLAYED, ev.CARDS_PASSED, ev.CARDS_LOOKED}


def boards_table(players: dict[int, Any], seed: str = ROUND_SEED) -> Any:
    creator = players[0]
    created = create_table(actor=creator, rules=RULES, deal_seed=seed, boards=2)
    for index, name in enumerate(SEATS):
        execute(TakeSeat(created.table_id, name), players[index])
    execute(StartGame(created.table_id), creator)
    return created.table_id


def play_board(table_id: Any, players: dict[int, Any], boards: int = 1) -> None:
    rng = random.Random(5)
    while True:
        with reading_state(table_id) as state:
            done = state.status != "playing" or state.hand_is_over(boards)
        if done:
            return
        play_moves(table_id, players, rng, limit=1)


def nothing_of_play(seen: Any) -> None:
    assert not cards_in_json(seen), "cards reached a viewer outside the table"


@pytest.fixture
def round_of_two(db: None) -> tuple[Any, Any, dict[int, Any], dict[int, Any]]:
    first = {seat: UserFactory() for seat in range(4)}
    second = {seat: UserFactory() for seat in range(4)}
    a = boards_table(first)
    b = boards_table(second)
    play_board(a, first, boards=1)  # table A has played board 1; table B has not
    return a, b, first, second


def test_a_boards_table_deals_the_round_boards_in_order(round_of_two: Any) -> None:
    a, b, _first, _second = round_of_two
    for table in (a, b):
        dealt = [e for e in read_stream(table_stream_id(table)) if e.type == ev.HAND_DEALT]
        assert dealt[0].data["deck"] == [card_name(c) for c in board_deck(ROUND_SEED, 1)]
        assert dealt[0].data["dealer"] == "north"
    with reading_state(a) as state:
        assert state.deals_from_boards and state.boards_embargoed


def test_no_spectator_sees_anything_of_an_open_board(round_of_two: Any) -> None:
    a, _b, first, second = round_of_two
    with reading_state(a) as state:
        live = state.version
        lobby = state.lobby_version
        assert len(state.game.ledger.hands) == 1  # board 1 is over at table A
    for viewer in (None, UserFactory(), second[0], second[2]):
        view = table_view(a, viewer)
        assert view["version"] == lobby < live
        assert view["hand"] is None and view["scores"]["hands"] == []
        nothing_of_play(view)
        events = events_for_viewer(a, viewer)
        assert not [e for e in events if e["type"] in PLAY_EVENTS]
        nothing_of_play(events)
        update = viewer_update(a, viewer)  # what the live socket sends
        assert update.version == lobby and update.view["hand"] is None
        nothing_of_play(update.events)
        assert visible_version(a, viewer) == lobby
        assert hands_shown(a, viewer) == 0
        assert rescore([a], "standard", viewer)[0]["hands"] == []
        assert table_verification(a, viewer)["version"] == lobby
    nothing_of_play(export_table(a, up_to=visible_version(a, None)))
    assert table_replay(a)["record"]["table"]["version"] == lobby
    nothing_of_play(table_replay(a))
    # Its own seats play on as at any table: each sees its own cards.
    mine = table_view(a, first[0])
    assert mine["version"] == live and mine["your_seat"] == "north"


def test_the_rest_api_and_the_replay_pages_show_nothing_of_it(round_of_two: Any) -> None:
    a, _b, _first, second = round_of_two
    for client in (Client(), _signed_in(second[1])):
        for path in (
            f"/api/tables/{a}",
            f"/api/tables/{a}/events",
            f"/api/tables/{a}/export",
            f"/api/tables/{a}/replay",
            f"/api/tables/{a}/ledger",
            f"/api/tables/{a}/rescore?rules=standard",
        ):
            answer = client.get(path)
            assert answer.status_code in (200, 401, 403), (path, answer.status_code)
            if answer.status_code == 200:
                nothing_of_play(answer.json())
                assert ev.BID_PLACED not in answer.content.decode(), path
        # The table list sums the table up from what the viewer is shown, not the live row.
        listed = client.get("/api/tables?page=1")
        assert listed.status_code == 200
        (row,) = [r for r in listed.json()["results"] if r["id"] == str(a)]
        assert row["hand_number"] == 0 and row["winner"] is None
        assert set(row["totals"].values()) == {0} and row["last_played_at"] is None


def test_the_finished_table_stays_hidden_until_its_owner_reveals(
    round_of_two: Any,
) -> None:
    a, b, first, second = round_of_two
    play_board(a, first, boards=2)
    with reading_state(a) as state:
        assert state.status == "finished" and state.reveal_held and state.revealed_seed is None
    assert table_view(a, None)["hand"] is None
    nothing_of_play(events_for_viewer(a, second[0]))
    # Only the system reveals, once the game is over.
    with pytest.raises(CommandRejected) as refused:
        execute(RevealDeals(b), SystemActor("competition"))
    assert refused.value.code == "not_finished"
    with pytest.raises(CommandRejected) as refused:
        execute(RevealDeals(a), first[0])
    assert refused.value.code == "system_only"
    execute(RevealDeals(a), SystemActor("competition"))
    shown = table_view(a, None)
    assert shown["deal"]["seed"] == ROUND_SEED and shown["status"] == "finished"
    assert cards_in_json(events_for_viewer(a, None))  # everything public now
    assert check_deals(table_stream_id(a), read_stream(table_stream_id(a))) is None


def test_a_bot_decides_from_its_own_seat_only(db: None) -> None:
    creator = UserFactory()
    created = create_table(
        actor=creator,
        rules=RULES,
        seats={name: {"kind": "bot", "level": "easy"} for name in SEATS},
        deal_seed=ROUND_SEED,
        boards=2,
    )
    execute(StartGame(created.table_id), creator)
    with reading_state(created.table_id) as state:
        hand = state.hand
        for seat in range(4):
            view = seat_view(hand, seat, state.team_totals(), state.team_bags())
            assert view.hand == hand.hands[seat]
            others = [hand.hands[s] for s in range(4) if s != seat]
            assert all(not (view.hand & other) for other in others)
            assert not view.revealed and not view.plays


def _signed_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client
