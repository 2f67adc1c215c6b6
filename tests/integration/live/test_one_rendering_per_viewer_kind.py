"""A table update is rendered once per viewer kind (each seat; the spectators together),
not once per socket, and a command's answer shares its rendering with the acting seat's
sockets; every socket still receives exactly what ``table_view`` and ``events_for_viewer``
give its own viewer, and a seat never another seat's (docs/benchmarks.md, "Capacity",
session 8)."""

from __future__ import annotations

from collections import Counter
from typing import Any

import orjson
import pytest
from asgiref.sync import async_to_sync, sync_to_async
from rest_framework.test import APIClient

from games.domain import visibility as rules
from games.selectors.table_updates import update_without_database
from games.selectors.visibility import events_for_viewer, table_view
from tests.integration.live.conftest import (
    SEAT_NAMES,
    create_table,
    human_move,
    new_user,
    table_row,
    token_for,
)
from tests.integration.live.test_websocket import communicator


def renderings(monkeypatch: pytest.MonkeyPatch) -> Counter[int | None]:
    """Every table rendering from now on, counted by the seat it was rendered for (the
    one filter, ``games.domain.visibility.table_view``, wrapped, not replaced)."""
    counted: Counter[int | None] = Counter()
    original = rules.table_view

    def counting(table_id: str, state: Any, seat: int | None, *args: Any) -> Any:
        counted[seat] += 1
        return original(table_id, state, seat, *args)

    monkeypatch.setattr(rules, "table_view", counting)
    return counted


def four_players() -> tuple[str, dict[int, Any]]:
    users = {seat: new_user() for seat in range(4)}
    table_id = create_table(users[0], humans={SEAT_NAMES[s]: users[s] for s in range(4)})
    return table_id, users


def without_sent_at(text: str) -> dict[str, Any]:
    message = orjson.loads(text)
    assert isinstance(message.pop("sent_at"), float)
    return dict(message)


def test_sockets_of_one_seat_and_the_spectators_share_one_rendering(
    live_db: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    table_id, users = four_players()
    actor = table_row(table_id).seat_to_act
    other = (actor + 1) % 4
    tokens = {seat: token_for(users[seat]) for seat in (actor, other)}
    counted = renderings(monkeypatch)

    async def scenario() -> tuple[dict[str, list[str]], int]:
        sockets = {
            "actor-1": communicator(table_id, token=tokens[actor]),
            "actor-2": communicator(table_id, token=tokens[actor]),
            "other": communicator(table_id, token=tokens[other]),
            "spectator-1": communicator(table_id),
            "spectator-2": communicator(table_id),
        }
        versions = set()
        for socket in sockets.values():
            assert (await socket.connect())[0]
            versions.add((await socket.receive_json_from(5))["version"])
        (start,) = versions
        counted.clear()
        await sync_to_async(human_move)(table_id, users[actor], actor)
        received: dict[str, list[str]] = {}
        for name, socket in sockets.items():
            received[name] = [await socket.receive_from(10)]
        for socket in sockets.values():
            assert await socket.receive_nothing(0.2)  # one message per socket, no more
            await socket.disconnect()
        return received, start

    received, start = async_to_sync(scenario)()

    # One rendering per viewer kind that has a socket: the acting seat, the other seat,
    # the spectators; none for the seats nobody watches from.
    assert counted == Counter({actor: 1, other: 1, None: 1})
    messages = {name: without_sent_at(texts[0]) for name, texts in received.items()}
    assert messages["actor-1"] == messages["actor-2"]
    assert messages["spectator-1"] == messages["spectator-2"]
    viewers = {"actor-1": users[actor], "other": users[other], "spectator-1": None}
    seats = {"actor-1": SEAT_NAMES[actor], "other": SEAT_NAMES[other], "spectator-1": None}
    for name, viewer in viewers.items():
        message = messages[name]
        # Exactly what the REST API gives this viewer: never another seat's rendering.
        assert message["after"] == start and message["version"] == start + 1
        assert message["table"] == table_view(table_id, viewer)
        assert message["events"] == events_for_viewer(table_id, viewer, after_version=start)
        assert message["table"]["your_seat"] == seats[name]
        hand = message["table"]["hand"]
        if seats[name] is None:
            assert "you" not in hand
        else:
            assert hand["you"]["seat"] == seats[name]
    assert messages["actor-1"]["table"] != messages["other"]["table"]


def test_a_command_answer_is_the_acting_seats_rendering_and_the_same_as_before(
    live_db: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    table_id, users = four_players()
    row = table_row(table_id)
    actor = row.seat_to_act
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token_for(users[actor])}")
    # The player's screen shows the table (as the page's first load does).
    hand = table_view(table_id, users[actor])["hand"]
    assert hand["phase"] == "bidding" and hand["turn"] == SEAT_NAMES[actor]
    bid = next(bid for bid in hand["you"]["legal_bids"] if 1 <= bid <= 4)
    counted = renderings(monkeypatch)

    response = client.post(
        f"/api/tables/{table_id}/bid",
        {"seat": SEAT_NAMES[actor], "bid": bid, "expected_version": row.version},
        format="json",
        HTTP_IDEMPOTENCY_KEY="one-rendering-1",
    )

    assert response.status_code == 200, response.content
    assert counted == Counter({actor: 1})  # the answer's one rendering
    answer = response.json()
    version = answer["version"]
    # What the answer gave before this change: events_for_viewer and table_view.
    assert answer["events"] == events_for_viewer(
        table_id, users[actor], after_version=row.version, limit=version - row.version
    )
    assert answer["table"] == table_view(table_id, users[actor])
    # The acting seat's sockets find the answer's rendering (no second one): equal
    # content, and only for that seat.
    shared = update_without_database(table_id, users[actor], row.version, version)
    assert shared is not None and shared[2] == answer["table"] and shared[1] == answer["events"]
    for seat in range(4):
        if seat != actor:
            assert update_without_database(table_id, users[seat], row.version, version) is None
    assert update_without_database(table_id, None, row.version, version) is None
