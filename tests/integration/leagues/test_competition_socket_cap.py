"""``ws/competitions/<id>/`` counts under the same live connection cap as the table socket
(games/live/connection_limits.py): one cap for all of a user's (or an address's) sockets,
the same refusal and close code, slots given back on disconnect. Real Redis, real
PostgreSQL (committed), the real consumers through Channels' communicator."""

from __future__ import annotations

from typing import Any

import redis
from asgiref.sync import async_to_sync
from channels.testing import WebsocketCommunicator
from django.conf import settings as django_settings

from games.live.connection_limits import CLOSE_TOO_MANY_CONNECTIONS
from services.asgi import application
from tests.integration.leagues import builders as lg
from tests.integration.live.conftest import create_table, new_user, token_for

ORIGIN = (b"origin", b"http://127.0.0.1")


def new_competition() -> str:
    return lg.create_competition(
        new_user("cap-organiser"), {"name": "Capped", "stages": [{"kind": "swiss", "rounds": 1}]}
    ).competition_id


def socket_to(path: str, token: str | None) -> WebsocketCommunicator:
    query = f"?token={token}" if token else ""
    return WebsocketCommunicator(application, f"{path}{query}", headers=[ORIGIN])


async def opened(path: str, token: str | None) -> tuple[WebsocketCommunicator, dict[str, Any]]:
    socket = socket_to(path, token)
    assert (await socket.connect())[0]
    return socket, await socket.receive_json_from(5)


async def closed_with(socket: WebsocketCommunicator) -> int:
    output = await socket.receive_output(5)
    assert output["type"] == "websocket.close", output
    return int(output["code"])


def test_table_and_competition_sockets_share_the_users_cap(live_db: Any, settings: Any) -> None:
    settings.WS_CONNECTIONS_PER_USER = 2
    viewer = new_user("cap-viewer")
    token = token_for(viewer)
    table = f"/ws/tables/{create_table(new_user(), start=False)}/"
    competition = f"/ws/competitions/{new_competition()}/"

    async def scenario() -> tuple[list[str], dict[str, Any], int, str]:
        first, first_answer = await opened(table, token)
        second, second_answer = await opened(competition, token)
        third, refusal = await opened(competition, token)
        code = await closed_with(third)
        await third.disconnect()
        # A competition socket's slot given back is free for the next socket.
        await second.disconnect()
        again, again_answer = await opened(table, token)
        for socket in (first, again):
            await socket.disconnect()
        return [first_answer["type"], second_answer["type"]], refusal, code, again_answer["type"]

    answers, refusal, code, again = async_to_sync(scenario)()

    assert answers == ["state", "standings"]
    assert refusal == {
        "type": "error",
        "code": "too_many_connections",
        "message": "Too many live connections (at most 2 per user); close one and connect again.",
    }
    assert code == CLOSE_TOO_MANY_CONNECTIONS == 4429
    assert again == "state"
    key = f"{django_settings.THROTTLE_CACHE_PREFIX}:ws:user:{viewer.pk}"
    assert redis.Redis.from_url(settings.REDIS_URL).zcard(key) == 0


def test_anonymous_competition_sockets_are_capped_per_address(live_db: Any, settings: Any) -> None:
    settings.WS_CONNECTIONS_PER_ADDRESS = 1
    competition = f"/ws/competitions/{new_competition()}/"

    async def scenario() -> tuple[str, dict[str, Any], int]:
        first, first_answer = await opened(competition, None)
        second, refusal = await opened(competition, None)
        code = await closed_with(second)
        for socket in (first, second):
            await socket.disconnect()
        return first_answer["type"], refusal, code

    first, refusal, code = async_to_sync(scenario)()

    assert first == "standings"
    assert refusal["code"] == "too_many_connections"
    assert refusal["message"] == (
        "Too many live connections (at most 1 per address without logging in); "
        "close one and connect again."
    )
    assert code == 4429
