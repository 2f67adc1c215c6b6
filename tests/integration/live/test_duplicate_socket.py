"""A duplicate round's table over its WebSocket (issue 20, point 3): while the round is
open, its play reaches the table's own seats and nobody else's socket: not an anonymous
spectator's, not a player seated at the other table of the round. Channels'
communicator, the real Redis channel layer and PostgreSQL (committed)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
from typing import Any

from asgiref.sync import async_to_sync, sync_to_async

from games.services.table_commands import StartGame, TakeSeat, create_table, execute
from tests.integration.live.conftest import new_user, token_for
from tests.integration.live.test_invitation_secrets_socket import socket_of
from tests.integration.tables.helpers import play_moves
from tests.integration.tables.test_views_leak import cards_in_json

SEATS = ("north", "east", "south", "west")
SEED = "b" * 64


def boards_table(players: list[Any]) -> str:
    created = create_table(
        actor=players[0], rules={"preset": "standard", "hands": 2}, deal_seed=SEED, boards=2
    )
    for seat, player in zip(SEATS, players, strict=True):
        execute(TakeSeat(created.table_id, seat), player)
    execute(StartGame(created.table_id), players[0])
    return str(created.table_id)


async def drain(socket: Any, quiet: float) -> list[dict[str, Any]]:
    """Every message the socket receives until it has been quiet for ``quiet`` seconds."""
    received = []
    while True:
        try:
            received.append(await socket.receive_json_from(quiet))
        except TimeoutError:
            return received


def test_only_the_seats_socket_carries_the_play(live_db: Any) -> None:
    first = [new_user("dup-a") for _ in SEATS]
    second = [new_user("dup-b") for _ in SEATS]
    table = boards_table(first)
    boards_table(second)
    users = dict(enumerate(first))
    seat_token, other_token = token_for(first[0]), token_for(second[0])

    async def scenario() -> tuple[list[Any], list[Any], list[Any]]:
        seat = socket_of(table, seat_token)
        other = socket_of(table, other_token)  # seated at the round's other table
        anonymous = socket_of(table, None)
        for socket in (seat, other, anonymous):
            assert (await socket.connect())[0]
        await sync_to_async(play_moves)(table, users, random.Random(3), 20)
        heard = [await drain(socket, 3) for socket in (seat, other, anonymous)]
        for socket in (seat, other, anonymous):
            # A quiet wait ended the communicator's application (asgiref cancels it).
            with contextlib.suppress(asyncio.CancelledError):
                await socket.disconnect()
        return heard[0], heard[1], heard[2]

    seat_heard, other_heard, anonymous_heard = async_to_sync(scenario)()
    # The seat hears the play (its own cards, the cards played): the check can fail.
    assert cards_in_json(seat_heard)
    for heard in (other_heard, anonymous_heard):
        assert not cards_in_json(heard), json.dumps(heard)[:500]
        assert "BidPlaced" not in json.dumps(heard)
