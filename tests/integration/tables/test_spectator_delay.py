"""A table with a spectator delay: every read a spectator has (the table view, the events,
the export, the replay, the verification, the REST API) stops N completed tricks behind
play, and shows nothing of the tricks after; a seated player reads the table live."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client

from eventstore.reading import read_stream
from games.domain import events as ev
from games.domain.streams import table_stream_id
from games.engine.cards import card_name
from games.selectors.replay import table_replay
from games.selectors.verification import table_verification
from games.selectors.visibility import (
    events_for_viewer,
    hands_shown,
    table_view,
    visible_version,
)
from games.services.export import export_table
from games.services.table_state import reading_state
from scoring.services.rescoring import rescore
from tests.factories import TableFactory, UserFactory
from tests.integration.tables.helpers import play_moves
from tests.integration.tables.test_views_leak import cards_in_json

SEATS = ("north", "east", "south", "west")
RULES = {"preset": "standard", "target_score": 500, "lose_score": -500}


def delayed_table(users: dict[int, Any], delay: int) -> Any:
    return TableFactory(
        creator=users[0],
        rules=RULES,
        players={name: users[s] for s, name in enumerate(SEATS)},
        started=True,
        spectator_delay_tricks=delay,
    )


def play_until(table_id: Any, users: dict[int, Any], done: Callable[[Any], bool]) -> None:
    rng = random.Random(11)
    while True:
        with reading_state(table_id) as state:
            if done(state):
                return
            assert state.status == "playing"
        play_moves(table_id, users, rng, limit=1)


def tricks_completed(count: int, extra_cards: int = 0) -> Callable[[Any], bool]:
    """Done once ``count`` tricks are completed and ``extra_cards`` of the next are down."""

    def done(state: Any) -> bool:
        hand = state.hand
        return len(state.trick_ends) == count and len(hand.trick) == extra_cards

    return done


def card_versions(table_id: Any) -> list[tuple[int, str]]:
    return [
        (e.version, e.data["card"])
        for e in read_stream(table_stream_id(table_id))
        if e.type == ev.CARD_PLAYED
    ]


@pytest.mark.django_db
def test_a_spectator_sees_the_table_n_tricks_back_and_a_player_sees_it_live(
    users: dict[int, Any],
) -> None:
    table = delayed_table(users, 2)
    play_until(table.id, users, tricks_completed(5, extra_cards=2))
    plays = card_versions(table.id)
    assert len(plays) == 22
    shown_cards = {card for _, card in plays[:12]}  # tricks 1-3
    hidden_cards = {card for _, card in plays[12:]}  # tricks 4, 5 and the one in play
    cut = plays[11][0]
    with reading_state(table.id) as state:
        live = state.version

    spectator = table_view(table.id, None)
    assert spectator["version"] == cut < live
    assert spectator["spectator_delay_tricks"] == 2
    assert len(spectator["hand"]["plays"]) == 12 and spectator["hand"]["current_trick"] == []
    assert sum(spectator["hand"]["tricks_won"].values()) == 3
    events = events_for_viewer(table.id, None)
    assert [e["version"] for e in events] == list(range(1, cut + 1))
    assert events_for_viewer(table.id, None, after_version=cut) == []
    for seen in (spectator, events):
        leaked = {card_name(c) for c in cards_in_json(seen)} - shown_cards
        assert not leaked, f"cards not of tricks 1-3 reached the spectator: {leaked}"
        assert not hidden_cards & {card_name(c) for c in cards_in_json(seen)}

    # The same for a signed-in user without a seat (a spectator too).
    assert table_view(table.id, UserFactory())["version"] == cut

    for seat, user in users.items():
        view = table_view(table.id, user)
        assert view["version"] == live and view["your_seat"] == SEATS[seat]
        assert len(view["hand"]["plays"]) == 22
        assert events_for_viewer(table.id, user)[-1]["version"] == live

    # Reads of the game in progress stop at the cut too.
    assert visible_version(table.id, None) == cut
    exported = export_table(table.id, up_to=cut)
    assert exported["table"]["version"] == cut
    assert exported["head_hash"] == read_stream(table_stream_id(table.id))[cut - 1].hash
    assert table_replay(table.id)["record"]["table"]["version"] == cut
    verification = table_verification(table.id)
    assert verification["version"] == cut
    assert table_verification(table.id, users[0])["version"] == live


@pytest.mark.django_db
def test_the_cut_crosses_a_hand_boundary_with_the_next_deal(users: dict[int, Any]) -> None:
    table = delayed_table(users, 2)
    play_until(table.id, users, tricks_completed(14))
    before = table_view(table.id, None)
    # Trick 12 of hand 1 is the last shown: hand 1 is not over for the spectator.
    assert before["hand"]["number"] == 1 and len(before["hand"]["plays"]) == 48
    assert before["hand"]["revealed"] is None
    dealt = [e for e in events_for_viewer(table.id, None) if e["type"] == ev.HAND_DEALT]
    assert len(dealt) == 1 and "deck" not in dealt[0]["data"]
    # Nor is its score: the ledger and the rescoring stop at the hands over in the prefix.
    assert hands_shown(table.id, None) == 0 and hands_shown(table.id, users[0]) is None
    assert rescore([table.id], "standard")[0]["hands"] == []
    assert len(rescore([table.id], "standard", users[2])[0]["hands"]) == 1

    play_until(table.id, users, tricks_completed(15))
    after = table_view(table.id, None)
    # Hand 1's last trick is shown with hand 2's deal; not hand 2's bids or cards.
    assert after["hand"]["number"] == 2 and after["hand"]["phase"] == "bidding"
    assert after["hand"]["bids"] == {s: None for s in SEATS}
    assert after["scores"]["hands"] and len(after["scores"]["hands"]) == 1
    dealt = [e for e in events_for_viewer(table.id, None) if e["type"] == ev.HAND_DEALT]
    assert "deck" in dealt[0]["data"] and "deck" not in dealt[1]["data"]
    assert hands_shown(table.id, None) == 1
    assert len(rescore([table.id], "standard")[0]["hands"]) == 1
    assert not [
        e
        for e in events_for_viewer(table.id, None, after_version=before["version"])
        if e["type"] == ev.BID_PLACED and e["data"]["hand_number"] == 2
    ]


@pytest.mark.django_db
def test_without_a_delay_a_spectator_sees_the_table_live(users: dict[int, Any]) -> None:
    table = delayed_table(users, 0)
    play_until(table.id, users, tricks_completed(2, extra_cards=1))
    with reading_state(table.id) as state:
        live = state.version
    assert table_view(table.id, None)["version"] == live
    assert events_for_viewer(table.id, None)[-1]["version"] == live
    assert visible_version(table.id, None) == live


@pytest.mark.django_db
def test_once_the_game_is_over_everything_is_shown(users: dict[int, Any]) -> None:
    table = TableFactory(
        creator=users[0],
        rules={"preset": "standard", "target_score": 100, "lose_score": -100},
        players={name: users[s] for s, name in enumerate(SEATS)},
        started=True,
        spectator_delay_tricks=13,
    )
    play_until(table.id, users, lambda state: state.status != "playing")
    with reading_state(table.id) as state:
        live = state.version
    assert table_view(table.id, None)["version"] == live
    assert table_view(table.id, None)["status"] == "finished"


@pytest.mark.django_db
def test_the_api_takes_a_bounded_delay_and_the_export_follows_the_viewer(
    users: dict[int, Any],
) -> None:
    client = Client()
    client.force_login(users[0])
    refused = client.post(
        "/api/tables", {"spectator_delay_tricks": 14}, content_type="application/json"
    )
    assert refused.status_code == 400
    created = client.post(
        "/api/tables", {"spectator_delay_tricks": 3}, content_type="application/json"
    )
    assert created.status_code == 201, created.content
    assert created.json()["table"]["spectator_delay_tricks"] == 3

    table = delayed_table(users, 1)
    play_until(table.id, users, tricks_completed(3, extra_cards=3))
    cut = card_versions(table.id)[7][0]
    anonymous = Client()
    assert anonymous.get(f"/api/tables/{table.id}").json()["version"] == cut
    assert anonymous.get(f"/api/tables/{table.id}/export").json()["table"]["version"] == cut
    page = anonymous.get(f"/api/tables/{table.id}/events?after=0&limit=500").json()
    assert page["events"][-1]["version"] == cut
    assert anonymous.get(f"/api/tables/{table.id}/verification").json()["version"] == cut
    player = Client()
    player.force_login(users[1])
    assert player.get(f"/api/tables/{table.id}").json()["version"] > cut

    # The listing sums the table up as each viewer sees it (the read model is live).
    def listed(client: Client, query: str) -> dict[str, Any]:
        rows = client.get(f"/api/tables?{query}").json()["results"]
        return next(row for row in rows if row["id"] == str(table.id))

    row = listed(anonymous, "status=playing")
    with reading_state(table.id) as state:
        live = state.version
    assert row["version"] == cut and row["hand_number"] == 1
    assert row["seat_to_act"] == table_view(table.id, None)["hand"]["turn"]
    assert listed(player, "mine=true")["version"] == live
