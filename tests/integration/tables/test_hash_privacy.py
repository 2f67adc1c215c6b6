"""The public event hash gives away no hidden card (issue 12, item 1).

Every viewer gets each event's ``hash``: SHA-256 over the whole stored event, hidden fields
included. A blind nil hand is played through the real services: the two humans (north,
east) bid blind nil and pass with commands sent without an idempotency key, their bot
partners (south, west) bid and pass through the bot-turn service (whose metadata is
derived from the table and the version). Then, from exactly what a spectator and an
opponent receive (the REST events endpoint and the WebSocket's rendering,
``viewer_update``), every hidden field is searched for against the hashes.

The attacker is granted everything but the nonce and the hidden cards: the previous
hash, the version, the type, every visible field and the full stored metadata. The
search space always holds the truth (every ordered pair of cards for a pass; for a deal
the true deck and every deck that swaps two cards of one hidden hand), so finding nothing
is the nonce's doing alone. The same search run on the v1 form of the same events (no
nonce: what was stored before) finds every pass and the deck, so the test can fail.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable, Iterable
from io import StringIO
from itertools import combinations, permutations
from typing import Any

import pytest
from django.core.management import call_command
from django.db import transaction
from rest_framework.test import APIClient

from eventstore.hashing import GENESIS_HASH, event_hash
from eventstore.reading import read_stream
from eventstore.recorder import append
from eventstore.records import NewEvent, StoredEvent
from games.domain import events as ev
from games.domain.streams import table_stream_id
from games.domain.table import TableState
from games.engine.cards import card_name
from games.engine.seats import SEAT_NAMES
from games.selectors.table_updates import viewer_update
from games.selectors.visibility import events_for_viewer
from tests.integration.tables.blind_nil import (
    blind_nil_table,
    hand_one_over,
    passes_exchanged,
    play_until,
)

pytestmark = pytest.mark.django_db

ALL_CARDS = [card_name(card) for card in range(52)]
HIDDEN_TYPES = (ev.HAND_DEALT, ev.CARDS_PASSED)


# ---------------------------------------------------------------- what viewers receive


def rest_events(table_id: str, user: Any) -> list[dict[str, Any]]:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user=user)
    response = client.get(f"/api/tables/{table_id}/events", {"limit": 500})
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["next_after"] is None
    return list(body["events"])


def websocket_events(table_id: str, user: Any) -> list[dict[str, Any]]:
    """What the WebSocket catch-up sends (the consumer renders ``viewer_update``)."""
    update = viewer_update(table_id, user, after_version=0)
    # As sent: through JSON, like the consumer's message.
    return list(json.loads(json.dumps(update.events)))


def received(table_id: str, user: Any) -> dict[str, list[dict[str, Any]]]:
    """The three channels a viewer gets events by; all three must agree."""
    channels = {
        "rest": rest_events(table_id, user),
        "websocket": websocket_events(table_id, user),
        "selector": list(json.loads(json.dumps(events_for_viewer(table_id, user)))),
    }
    assert channels["rest"] == channels["websocket"] == channels["selector"]
    return channels


# ---------------------------------------------------------------- the attack


def candidate_hash(
    stream_id: str, seen: dict[str, Any], prev_hash: str, metadata: dict[str, Any], data: Any
) -> str:
    return event_hash(
        stream_id=stream_id,
        version=seen["version"],
        type=seen["type"],
        schema_version=seen["schema_version"],
        data=data,
        metadata=metadata,
        prev_hash=prev_hash,
    )


def pass_candidates(visible: dict[str, Any]) -> Iterable[dict[str, Any]]:
    """Every ordered pair of cards in the pass (2,652: the truth among them)."""
    for pair in permutations(ALL_CARDS, 2):
        yield {**visible, "cards": list(pair)}


def deal_candidates(visible: dict[str, Any], true_deck: list[str]) -> Iterable[dict[str, Any]]:
    """The true deck, and every deck that swaps two cards within one seat's hand."""
    yield {**visible, "deck": list(true_deck)}
    for seat in range(4):
        positions = range(seat, 52, 4)
        for i, j in combinations(positions, 2):
            deck = list(true_deck)
            deck[i], deck[j] = deck[j], deck[i]
            yield {**visible, "deck": deck}


def brute_force(
    stream_id: str,
    seen: dict[str, Any],
    prev_hash: str,
    stored: StoredEvent,
    true_deck: list[str] | None = None,
) -> list[dict[str, Any]]:
    """Every candidate payload whose hash is the hash the viewer was shown."""
    visible = {key: value for key, value in seen["data"].items() if key != "your_cards"}
    if seen["type"] == ev.CARDS_PASSED:
        candidates = pass_candidates(visible)
    else:
        assert true_deck is not None
        candidates = deal_candidates(visible, true_deck)
    return [
        data
        for data in candidates
        if candidate_hash(stream_id, seen, prev_hash, stored.metadata, data) == seen["hash"]
    ]


def as_v1(stored: StoredEvent, prev_hash: str) -> tuple[StoredEvent, str]:
    """The event as it was stored before the nonce (v1 payload), with its hash."""
    data = {key: value for key, value in stored.data.items() if key != "nonce"}
    ev.validate_payload(stored.type, 1, data)
    v1_hash = event_hash(
        stream_id=stored.stream_id,
        version=stored.version,
        type=stored.type,
        schema_version=1,
        data=data,
        metadata=stored.metadata,
        prev_hash=prev_hash,
    )
    return StoredEvent(**{**stored.__dict__, "schema_version": 1, "data": data}), v1_hash


def v1_view(seen: dict[str, Any], v1_hash: str) -> dict[str, Any]:
    """What a v1 event showed the same viewer: the same visible fields, its own hash."""
    return {**seen, "schema_version": 1, "hash": v1_hash}


def targets(events: list[dict[str, Any]], hidden_from: Callable[[dict[str, Any]], bool]) -> list:
    return [
        e
        for e in events
        if e["type"] in HIDDEN_TYPES and hidden_from(e) and "nonce" not in e["data"]
    ]


# ---------------------------------------------------------------- the test


def test_no_hidden_card_can_be_recovered_from_the_hashes_a_viewer_receives(
    users: dict[int, Any],
) -> None:
    table_id = blind_nil_table(users)
    play_until(table_id, users, passes_exchanged)
    stream_id = table_stream_id(table_id)
    stored = {event.version: event for event in read_stream(stream_id)}
    passes = [e for e in stored.values() if e.type == ev.CARDS_PASSED]
    # Four passes: two by humans (no command id), two by bots (derived metadata).
    kinds = sorted(e.metadata["actor"]["kind"] for e in passes)
    assert kinds == ["bot", "bot", "user", "user"], kinds
    assert all(e.schema_version == 2 and len(e.data["nonce"]) >= 32 for e in passes)
    dealt = next(e for e in stored.values() if e.type == ev.HAND_DEALT)
    assert dealt.schema_version == 2 and len(dealt.data["nonce"]) >= 32

    def hidden_unless_seat_in(*seats: str) -> Callable[[dict[str, Any]], bool]:
        return lambda e: e["type"] == ev.HAND_DEALT or e["data"]["seat"] not in seats

    viewers = {
        # a spectator: every pass and the deal are hidden from it
        "spectator": (None, hidden_unless_seat_in()),
        # north, an opponent of east and west: their passes and the deal
        "north": (users[0], hidden_unless_seat_in("north", "south")),
        # east, an opponent of north and south
        "east": (users[1], hidden_unless_seat_in("east", "west")),
    }
    for name, (user, hidden_from) in viewers.items():
        for channel, events in received(table_id, user).items():
            text = json.dumps(events)
            shown = targets(events, hidden_from)
            # 4 passes and the deal for a spectator; 2 passes and the deal for an opponent.
            assert len(shown) == (5 if user is None else 3), (name, channel)
            for seen in shown:
                event = stored[seen["version"]]
                assert str(event.data.get("nonce")) not in text, (name, channel)
                prev = stored[seen["version"] - 1].hash if seen["version"] > 1 else GENESIS_HASH
                assert seen["hash"] == event.hash
                deck = event.data.get("deck")
                found = brute_force(stream_id, seen, prev, event, deck)
                assert found == [], f"{name} ({channel}) recovers {seen['type']} v{seen['version']}"
                # The same search on the event's v1 form (no nonce) finds it: the attack works.
                v1_event, v1_hash = as_v1(event, prev)
                found_v1 = brute_force(stream_id, v1_view(seen, v1_hash), prev, v1_event, deck)
                assert found_v1 == [v1_event.data], (name, channel, seen["type"])


def test_the_nonce_is_shown_with_the_cards_once_the_hand_is_over(users: dict[int, Any]) -> None:
    table_id = blind_nil_table(users)
    play_until(table_id, users, hand_one_over)
    stream_id = table_stream_id(table_id)
    stored = {event.version: event for event in read_stream(stream_id)}

    for user in (None, users[0], users[1]):
        for events in received(table_id, user).values():
            for seen in events:
                if seen["type"] not in HIDDEN_TYPES or seen["data"]["hand_number"] != 1:
                    continue
                event = stored[seen["version"]]
                # Everything hidden is shown now, so anyone can re-compute the hash.
                assert seen["data"] == event.data
                assert len(seen["data"]["nonce"]) >= 32
                assert (
                    candidate_hash(stream_id, seen, event.prev_hash, event.metadata, seen["data"])
                    == (seen["hash"])
                )


def test_a_stored_v1_stream_without_nonces_still_verifies_and_folds(
    users: dict[int, Any],
) -> None:
    table_id = blind_nil_table(users)
    play_until(table_id, users, hand_one_over)
    # The same history as v1 events (what was stored before the nonce), in a new stream.
    old_stream = f"table-{uuid.uuid4()}"
    with transaction.atomic():
        append(
            old_stream,
            0,
            [
                NewEvent(e.type, as_v1(e, e.prev_hash)[0].data, 1, e.metadata)
                if e.type in HIDDEN_TYPES
                else NewEvent(e.type, e.data, e.schema_version, e.metadata)
                for e in read_stream(table_stream_id(table_id))
            ],
        )
    events = read_stream(old_stream)
    assert {e.schema_version for e in events if e.type in HIDDEN_TYPES} == {1}
    assert not any("nonce" in e.data for e in events)
    out = StringIO()
    call_command("verify_events", "--stream", old_stream, stdout=out, stderr=out)
    assert "every check holds" in out.getvalue()
    folded = TableState.fold(events)
    assert folded.hand_is_over(1) and folded.version == len(events)


def test_v1_payloads_still_validate_and_v2_needs_a_fresh_nonce() -> None:
    seat = SEAT_NAMES.index("north")
    v2 = ev.cards_passed(1, seat, [0, 1])
    v1 = {key: value for key, value in v2.data.items() if key != "nonce"}
    ev.validate_payload(ev.CARDS_PASSED, 1, v1)
    with pytest.raises(ev.EventSchemaError):
        ev.validate_payload(ev.CARDS_PASSED, 2, v1)
    deal = ev.hand_dealt(1, seat, list(range(52)))
    ev.validate_payload(ev.HAND_DEALT, 1, {k: v for k, v in deal.data.items() if k != "nonce"})
    ev.validate_payload(ev.HAND_DEALT, 2, deal.data)
    # Two builds of the same event differ in their nonce only (fresh secret randomness).
    again = ev.cards_passed(1, seat, [0, 1])
    assert again.data["nonce"] != v2.data["nonce"]
    assert {**again.data, "nonce": v2.data["nonce"]} == v2.data
