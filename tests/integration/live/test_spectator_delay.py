"""``ws/tables/<id>/`` for a spectator of a table with a spectator delay: it is sent the
table as of its delayed version only (never a newer event, version or commit time), on the
periodic resync; a seated player's connection is live. Real Redis channel layer, real
PostgreSQL; Channels' communicator in-process, the moves sent by this test."""

from __future__ import annotations

import random
from typing import Any

from asgiref.sync import async_to_sync, sync_to_async

from games.domain import events as ev
from games.engine.cards import card_name
from games.services.table_state import reading_state
from tests.integration.live.conftest import (
    SEAT_NAMES,
    create_table,
    new_user,
    stream_events,
    token_for,
)
from tests.integration.live.test_websocket import communicator
from tests.integration.tables.helpers import play_moves
from tests.integration.tables.test_views_leak import cards_in_json

DELAY = 2


def play_tricks(table_id: str, users: dict[int, Any], tricks: int, extra_cards: int) -> None:
    """Random legal moves until ``tricks`` are completed and ``extra_cards`` more are down."""
    rng = random.Random(5)
    while True:
        with reading_state(table_id) as state:
            assert state.status == "playing" and state.hand is not None
            if len(state.trick_ends) == tricks and len(state.hand.trick) == extra_cards:
                return
        play_moves(table_id, users, rng, limit=1)


def test_a_delayed_spectator_never_receives_the_newer_events(live_db: Any, settings: Any) -> None:
    settings.WS_RESYNC_SECONDS = 0.5
    users = {seat: new_user("delayed") for seat in range(4)}
    table_id = create_table(
        users[0],
        humans={name: users[s] for s, name in enumerate(SEAT_NAMES)},
        spectator_delay_tricks=DELAY,
    )
    north_token = token_for(users[0])

    async def scenario() -> tuple[list[dict[str, Any]], list[dict[str, Any]], bool, Any]:
        watcher = communicator(table_id)
        north = communicator(table_id, token=north_token)
        for socket in (watcher, north):
            assert (await socket.connect())[0]
        watched = [await watcher.receive_json_from(5)]
        played = [await north.receive_json_from(5)]
        await sync_to_async(play_tricks)(table_id, users, 5, 2)
        events = await sync_to_async(stream_events)(table_id)
        live = events[-1].version
        cards = [e for e in events if e.type == ev.CARD_PLAYED]
        cut = cards[11].version  # the card that completed trick 3 = 5 - DELAY
        while played[-1]["version"] < live:
            played.append(await north.receive_json_from(10))
        while watched[-1]["version"] < cut:
            watched.append(await watcher.receive_json_from(10))
        # Three resync periods: still nothing newer for the spectator.
        quiet = await watcher.receive_nothing(timeout=1.5, interval=0.05)
        # Asking for everything again gives the events up to the delayed version only.
        await watcher.send_json_to({"after": 0})
        watched.append(await watcher.receive_json_from(10))
        for socket in (watcher, north):
            await socket.disconnect()
        return watched, played, quiet, (cut, live, cards)

    watched, played, quiet, (cut, live, cards) = async_to_sync(scenario)()

    assert quiet, "the spectator was sent something after its delayed version"
    assert played[-1]["version"] == live > cut
    assert watched[-2]["version"] == cut and watched[-1]["version"] == cut
    assert [e["version"] for e in watched[-1]["events"]] == list(range(1, cut + 1))
    hidden = {e.data["card"] for e in cards[12:]}
    shown = {e.data["card"] for e in cards[:12]}
    for message in watched:
        assert message["version"] <= cut
        assert "committed_at" not in message
        assert message["table"]["hand"] is None or "you" not in message["table"]["hand"]
        seen = {card_name(c) for c in cards_in_json(message)}
        assert not seen & hidden, f"cards of the last tricks reached the spectator: {seen & hidden}"
        assert seen <= shown
    assert len(played[-1]["table"]["hand"]["plays"]) == 22
