"""The live connection cap (games/live/connection_limits.py) through the real consumer,
the real Redis and Channels' communicator: per user, per address without a login, slots
given back on disconnect, and slots of a crashed process lapse."""

from __future__ import annotations

import time
from datetime import timedelta
from typing import Any

import redis
from asgiref.sync import async_to_sync
from django.conf import settings as django_settings
from django.utils import timezone

from games.live.connection_limits import CLOSE_TOO_MANY_CONNECTIONS
from tests.integration.live.conftest import create_table, new_user, token_for
from tests.integration.live.test_websocket import communicator


async def open_viewer(table_id: str, token: str | None) -> tuple[Any, dict[str, Any]]:
    socket = communicator(table_id, token=token)
    assert (await socket.connect())[0]
    return socket, await socket.receive_json_from(5)


async def closed_with(socket: Any) -> int:
    output = await socket.receive_output(5)
    assert output["type"] == "websocket.close", output
    return int(output["code"])


def user_key(user: Any) -> str:
    return f"{django_settings.THROTTLE_CACHE_PREFIX}:ws:user:{user.pk}"


def test_a_user_gets_at_most_the_cap_of_live_connections(live_db: Any, settings: Any) -> None:
    settings.WS_CONNECTIONS_PER_USER = 2
    viewer, other = new_user(), new_user()
    table_id = create_table(new_user(), start=False)
    token, other_token = token_for(viewer), token_for(other)

    async def scenario() -> tuple[list[str], dict[str, Any], int, str, str]:
        first, first_state = await open_viewer(table_id, token)
        second, second_state = await open_viewer(table_id, token)
        third, refusal = await open_viewer(table_id, token)
        code = await closed_with(third)
        await third.disconnect()
        # Someone else is not affected; a slot given back can be taken again.
        others, others_state = await open_viewer(table_id, other_token)
        await first.disconnect()
        again, again_state = await open_viewer(table_id, token)
        for socket in (second, others, again):
            await socket.disconnect()
        return (
            [first_state["type"], second_state["type"]],
            refusal,
            code,
            others_state["type"],
            again_state["type"],
        )

    opened, refusal, code, others, again = async_to_sync(scenario)()

    assert opened == ["state", "state"]
    assert refusal == {
        "type": "error",
        "code": "too_many_connections",
        "message": "Too many live connections (at most 2 per user); close one and connect again.",
    }
    assert code == CLOSE_TOO_MANY_CONNECTIONS == 4429
    assert (others, again) == ("state", "state")
    # Every slot was given back on disconnect.
    assert redis.Redis.from_url(settings.REDIS_URL).zcard(user_key(viewer)) == 0


def test_connections_without_a_login_are_capped_per_address(live_db: Any, settings: Any) -> None:
    settings.WS_CONNECTIONS_PER_ADDRESS = 1
    table_id = create_table(new_user(), start=False)

    async def scenario() -> tuple[str, int]:
        first, first_answer = await open_viewer(table_id, None)  # a spectator, let in
        second, second_answer = await open_viewer(table_id, None)
        code = await closed_with(second)
        for socket in (first, second):
            await socket.disconnect()
        assert first_answer["type"] == "state"
        return second_answer["code"], code

    assert async_to_sync(scenario)() == ("too_many_connections", 4429)


def test_slots_of_a_process_that_died_lapse(live_db: Any, settings: Any) -> None:
    settings.WS_CONNECTIONS_PER_USER = 1
    viewer = new_user()
    table_id = create_table(new_user(), start=False)
    token = token_for(viewer)
    client = redis.Redis.from_url(settings.REDIS_URL)
    # A connection of a process killed a while ago: it stopped renewing its slot.
    client.zadd(user_key(viewer), {"specific.dead-process!x": time.time() - 1})

    async def scenario() -> tuple[str, float]:
        socket, answer = await open_viewer(table_id, token)
        ttl = client.ttl(user_key(viewer))
        await socket.disconnect()
        return answer["type"], ttl

    kind, ttl = async_to_sync(scenario)()

    assert kind == "state"
    # The key itself expires too, so nothing of a user stays in Redis for good.
    assert 0 < ttl <= settings.WS_CONNECTION_TTL_SECONDS


def test_an_expired_or_revoked_token_does_not_open_a_live_connection(live_db: Any) -> None:
    from rest_framework.authtoken.models import Token

    viewer = new_user()
    table_id = create_table(new_user(), start=False)
    token = token_for(viewer)
    Token.objects.filter(key=token).update(created=timezone.now() - timedelta(days=400))

    async def scenario() -> tuple[str, int]:
        socket, answer = await open_viewer(table_id, token)
        code = await closed_with(socket)
        await socket.disconnect()
        return answer["code"], code

    assert async_to_sync(scenario)() == ("not_authenticated", 4401)
