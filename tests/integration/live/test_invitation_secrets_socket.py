"""The invitation secret of a seat kept for a friend never goes down a table socket: not
to the host, the friend, another seat or a spectator, while the host keeps, reissues and
revokes seats and the friend sits down. Channels' communicator, the real Redis channel
layer and PostgreSQL (committed)."""

from __future__ import annotations

import json
from typing import Any

from asgiref.sync import async_to_sync, sync_to_async
from channels.testing import WebsocketCommunicator

from games.models import SeatInvitation, Table
from games.services.seated_table import SeatedTable, open_friends_table
from games.services.table_commands import (
    ReissueInvitation,
    ReserveSeat,
    RevokeInvitation,
    TakeSeat,
    execute,
)
from services.asgi import application
from tests.integration.live.conftest import new_user, token_for

ORIGIN = (b"origin", b"http://127.0.0.1")


def socket_of(table_id: str, token: str | None) -> WebsocketCommunicator:
    query = "" if token is None else f"?token={token}"
    return WebsocketCommunicator(application, f"/ws/tables/{table_id}/{query}", headers=[ORIGIN])


def secrets_of(table_id: str) -> list[str]:
    return list(SeatInvitation.objects.filter(table_id=table_id).values_list("secret", flat=True))


def test_no_socket_carries_an_invitation_secret(live_db: Any) -> None:
    host, friend, other = new_user("inv-host"), new_user("inv-friend"), new_user("inv-other")
    table_id = str(
        open_friends_table(
            SeatedTable(actor=host, seat="south", seats={}, invited=["north"])
        ).table_id
    )
    execute(TakeSeat(table_id, "east"), other)
    issued = secrets_of(table_id)
    tokens = [token_for(u) for u in (host, friend, other)]

    async def scenario() -> list[dict[str, Any]]:
        sockets = [socket_of(table_id, token) for token in tokens]
        sockets.append(socket_of(table_id, None))  # a spectator
        for socket in sockets:
            assert (await socket.connect())[0]
        messages = [await socket.receive_json_from(10) for socket in sockets]
        steps = (
            (ReserveSeat(table_id, "west"), host),
            (ReissueInvitation(table_id, "north"), host),
            (RevokeInvitation(table_id, "west"), host),
        )
        for command, actor in steps:
            await sync_to_async(execute)(command, actor)
            issued.extend(await sync_to_async(secrets_of)(table_id))
        secret = await sync_to_async(
            lambda: SeatInvitation.objects.get(table_id=table_id, seat=0).secret
        )()
        await sync_to_async(execute)(TakeSeat(table_id, "north", invitation=secret), friend)
        final = await sync_to_async(lambda: Table.objects.get(pk=table_id).version)()
        for socket in sockets:
            while True:
                message = await socket.receive_json_from(10)
                messages.append(message)
                if message.get("version") == final:
                    break
            await socket.disconnect()
        return messages

    messages = async_to_sync(scenario)()

    assert len(set(issued)) == 3  # north's first, west's, north's reissued
    text = json.dumps(messages)
    assert "SeatReserved" in text and "SeatInvitationReissued" in text
    for secret in issued:
        assert secret not in text
