"""A cap on live WebSocket connections: per user, or per client address when anonymous.

Counted in Redis, so the cap holds across every web process. Each connection is one
member of a sorted set per user (or address) scored by when it lapses; the holder renews
it every third of ``WS_CONNECTION_TTL_SECONDS`` and removes it on disconnect. A process
that dies without disconnecting stops renewing: its connections lapse within the TTL and
stop counting, so a crash never leaks a user's slots for good.

Over the cap the consumer answers ``{"type": "error", "code": "too_many_connections"}``
and closes with :data:`CLOSE_TOO_MANY_CONNECTIONS` (docs/live.md).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
import weakref
from typing import Any

import redis.asyncio as redis
from django.conf import settings

from telemetry.edges import socket_closed, socket_opened, socket_refused

logger = logging.getLogger(__name__)

#: WebSocket close code over the cap (4000 + the HTTP status of the same refusal).
CLOSE_TOO_MANY_CONNECTIONS = 4429

# Atomically: forget lapsed members, refuse at the cap, else add this one.
_CLAIM = """
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[3]) then
    return 0
end
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[4])
redis.call('EXPIRE', KEYS[1], ARGV[5])
return 1
"""

_clients: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, redis.Redis] = (
    weakref.WeakKeyDictionary()
)


def _client() -> redis.Redis:
    """This event loop's Redis client (an asyncio client belongs to one loop)."""
    loop = asyncio.get_running_loop()
    client = _clients.get(loop)
    if client is None:
        client = _clients[loop] = redis.Redis.from_url(settings.REDIS_URL)
    return client


def holder_key(scope: dict[str, Any]) -> tuple[str, int]:
    """The Redis key a connection counts under, and the cap of that key."""
    prefix = f"{settings.THROTTLE_CACHE_PREFIX}:ws"
    user = scope.get("user")
    if user is not None and getattr(user, "is_authenticated", False):
        return f"{prefix}:user:{user.pk}", settings.WS_CONNECTIONS_PER_USER
    client = scope.get("client") or ("unknown", 0)
    return f"{prefix}:address:{client[0]}", settings.WS_CONNECTIONS_PER_ADDRESS


def over_cap_message(scope: dict[str, Any]) -> str:
    user = scope.get("user")
    if user is not None and getattr(user, "is_authenticated", False):
        whose = f"{settings.WS_CONNECTIONS_PER_USER} per user"
    else:
        whose = f"{settings.WS_CONNECTIONS_PER_ADDRESS} per address without logging in"
    return f"Too many live connections (at most {whose}); close one and connect again."


class ConnectionSlot:
    """One connection's place under the cap, renewed until :meth:`release`."""

    def __init__(self, key: str, member: str, scope: dict[str, Any]) -> None:
        self.key = key
        self.member = member
        self.kind = socket_opened(scope)
        self.renewing = asyncio.ensure_future(self._renew())

    async def _renew(self) -> None:
        ttl = settings.WS_CONNECTION_TTL_SECONDS
        while True:
            await asyncio.sleep(ttl / 3)
            try:
                await _client().zadd(self.key, {self.member: time.time() + ttl})
                await _client().expire(self.key, ttl)
            except redis.RedisError as exc:  # retried at the next renewal
                logger.warning("could not renew WebSocket slot %s: %s", self.key, exc)

    async def release(self) -> None:
        """Give the slot back (on disconnect)."""
        socket_closed(self.kind)
        self.renewing.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self.renewing
        try:
            await _client().zrem(self.key, self.member)
        except redis.RedisError as exc:  # it lapses within the TTL anyway
            logger.warning("could not release WebSocket slot %s: %s", self.key, exc)


async def claim_slot(scope: dict[str, Any], connection_id: str) -> ConnectionSlot | None:
    """A slot for the connection ``connection_id`` (its channel name), or None over the cap.

    If Redis is unreachable the connection is let through (logged): the cap guards
    resources, and refusing every viewer would be the worse failure.
    """
    key, cap = holder_key(scope)
    ttl = settings.WS_CONNECTION_TTL_SECONDS
    now = time.time()
    try:
        claimed = await _client().eval(_CLAIM, 1, key, now, now + ttl, cap, connection_id, ttl)
    except redis.RedisError as exc:
        logger.warning("WebSocket connection cap not checked (%s): %s", key, exc)
        return ConnectionSlot(key, connection_id, scope)
    return ConnectionSlot(key, connection_id, scope) if claimed else socket_refused(scope)
