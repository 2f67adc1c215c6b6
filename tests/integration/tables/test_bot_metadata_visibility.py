"""A bot's move metadata: hidden while its hand is in play, public once the hand is over.

``samples`` (the sampled deals a bot's search went through) depends on the bot's hidden
cards, and the public hash covers it; the rest of a bot's metadata is derived from the
table. So the metadata carries a secret ``nonce`` and both are shown exactly when the hand
is over (``games.domain.events.HIDDEN_ACTOR_FIELDS``): before, the hash cannot be searched
for ``samples``; after, docs/tables.md's by-hand recipe re-computes the bot move's hash.
"""

from __future__ import annotations

import hashlib
import html
import json
import random
from typing import Any

import pytest
from django.test import Client
from rest_framework.test import APIClient

from bots.turns import bot_command_id, turn_seed
from eventstore.reading import read_stream
from games.domain import events as ev
from games.domain.streams import table_stream_id
from games.services.actors import BotActor
from games.services.table_state import reading_state
from tests.factories import AdminFactory, TableFactory
from tests.integration.tables.helpers import QUICK_RULES, send
from tests.unit.domain.playing import random_move

pytestmark = pytest.mark.django_db
NAMES = ("north", "east", "south", "west")
BOT_SEAT = 1
SAMPLES = 12  # what the "search" reports for every bot move here


def bot_table(users: dict[int, Any]) -> Any:
    return TableFactory(
        creator=users[0],
        rules=QUICK_RULES,
        seats={"east": {"kind": "bot", "level": "hard"}},
        players={NAMES[s]: users[s] for s in (0, 2, 3)},
        started=True,
    )


def play_one(table_id: Any, users: dict[int, Any], rng: random.Random) -> None:
    """One random legal move; the bot's as the bot-turn service sends it (seed, command
    id) with a search's ``samples``."""
    with reading_state(table_id) as state:
        move = random_move(state, rng)
        version = state.version
    if move.seat != BOT_SEAT:
        send(table_id, move, users[move.seat])
        return
    seed = turn_seed(str(table_id), version, BOT_SEAT)
    bot = BotActor(level="hard", strategy_version="hard-1", seed=seed, samples=SAMPLES)
    send(table_id, move, bot, command_id=bot_command_id(str(table_id), version, BOT_SEAT))


def play_while(table_id: Any, users: dict[int, Any], rng: random.Random, going: Any) -> None:
    while True:
        with reading_state(table_id) as state:
            if not going(state):
                return
            assert state.status == "playing"
        play_one(table_id, users, rng)


def bot_move_in_hand_one(state: Any) -> bool:
    """False once hand 1's first trick is complete (so the bot has played a card)."""
    return len(state.game.hands[0].plays) < 4


def hand_one_in_play(state: Any) -> bool:
    return not state.hand_is_over(1)


def public_events(table_id: Any) -> list[dict[str, Any]]:
    response = APIClient().get(f"/api/tables/{table_id}/events?after=0&limit=500")
    assert response.status_code == 200
    return response.json()["events"]


def bot_moves_of_hand_one(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [
        event
        for event in events
        if event["metadata"]["actor"].get("kind") == "bot"
        and event["data"].get("hand_number") == 1
        and event["type"] != ev.HAND_DEALT
    ]


def recipe_hash(stream: str, event: dict[str, Any], prev: str) -> str:
    """docs/tables.md "Verifying a game by hand", step 1, for one event."""
    body = {
        "stream_id": stream,
        "version": event["version"],
        "type": event["type"],
        "schema_version": event["schema_version"],
        "data": event["data"],
        "metadata": event["metadata"],
        "prev_hash": prev,
    }
    text = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()


def test_a_spectator_sees_no_samples_of_a_bot_move_in_play_and_cannot_search_the_hash(
    users: dict[int, Any],
) -> None:
    table = bot_table(users)
    play_while(table.id, users, random.Random(3), bot_move_in_hand_one)
    stream = table_stream_id(table.id)
    stored = {event.version: event for event in read_stream(stream)}
    events = public_events(table.id)
    moves = bot_moves_of_hand_one(events)
    assert moves, "the bot has moved in hand 1"
    hashes = {event["version"]: event["hash"] for event in events}

    for event in moves:
        kept = stored[event["version"]].metadata
        # The store holds what is hidden (so this test could fail)...
        assert kept["actor"]["samples"] == SAMPLES
        assert len(kept["actor"]["nonce"]) == 2 * ev.NONCE_BYTES
        # ...and the spectator gets none of it, nor the command id.
        shown = event["metadata"]
        assert set(shown) == {"actor"}
        assert set(shown["actor"]) == {"kind", "level", "strategy_version", "seed"}
        assert not ev.HIDDEN_ACTOR_FIELDS & set(shown["actor"])
        # Everything else of the preimage is public or derivable: every count of samples
        # (or none) tried against the public hash matches none of them.
        command_id = bot_command_id(str(table.id), event["version"] - 1, BOT_SEAT)
        derivable = {**shown, "command_id": command_id}
        assert set(kept) == set(derivable) and kept["command_id"] == command_id
        unseen = {k: v for k, v in kept["actor"].items() if shown["actor"].get(k) != v}
        assert set(unseen) == ev.HIDDEN_ACTOR_FIELDS
        for guess in (None, *range(1, 65)):
            actor = dict(shown["actor"]) if guess is None else {**shown["actor"], "samples": guess}
            tried = {**event, "metadata": {**derivable, "actor": actor}}
            assert recipe_hash(stream, tried, hashes[event["version"] - 1]) != event["hash"]


def test_the_by_hand_recipe_holds_for_a_bot_move_of_a_finished_hand(
    users: dict[int, Any],
) -> None:
    table = bot_table(users)
    play_while(table.id, users, random.Random(5), hand_one_in_play)
    with reading_state(table.id) as state:
        assert state.status == "playing" and len(state.game.hands) == 2  # hand 2 in play
    stream = table_stream_id(table.id)
    events = public_events(table.id)
    moves = bot_moves_of_hand_one(events)
    assert moves

    for event in moves:
        # Shown as stored: samples and nonce included, once the hand is over.
        assert event["metadata"]["actor"]["samples"] == SAMPLES
        assert "nonce" in event["metadata"]["actor"]
        assert "command_id" in event["metadata"]
    prev = "0" * 64
    checked = 0
    for event in events:
        # Hand 2 is in play (its deck is hidden); everything up to it re-computes.
        if event["data"].get("hand_number") != 2:
            assert recipe_hash(stream, event, prev) == event["hash"], event["version"]
            checked += 1
        prev = event["hash"]
    assert checked > len(moves)


def test_the_event_admin_shows_a_bot_moves_samples_only_once_its_hand_is_over(
    users: dict[int, Any],
) -> None:
    table = bot_table(users)
    rng = random.Random(3)
    play_while(table.id, users, rng, bot_move_in_hand_one)
    client = Client()
    client.force_login(AdminFactory())
    stream = table_stream_id(table.id)
    moves = [
        event
        for event in read_stream(stream)
        if event.metadata["actor"].get("kind") == "bot" and event.type == ev.CARD_PLAYED
    ]
    assert moves

    def page(position: int) -> str:
        response = client.get(f"/admin/eventstore/event/{position}/change/")
        assert response.status_code == 200
        return html.unescape(response.content.decode())

    for event in moves:
        shown = page(event.position)
        assert event.metadata["actor"]["strategy_version"] in shown  # metadata is shown...
        assert event.metadata["actor"]["nonce"] not in shown  # ...without what is hidden
        assert '"samples"' not in shown
    play_while(table.id, users, rng, hand_one_in_play)
    for event in moves:
        shown = page(event.position)
        assert event.metadata["actor"]["nonce"] in shown
        assert f'"samples": {SAMPLES}' in shown
