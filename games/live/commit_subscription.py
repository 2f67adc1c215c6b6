"""The projector's side of the commit notices: a subscription to ``commits_channel()``."""

from __future__ import annotations

import contextlib
import logging
import threading
import time
from typing import Any

import redis
from django.conf import settings

from games.live.notices import commits_channel, parse_commit_notices

logger = logging.getLogger(__name__)

_redis_lock = threading.Lock()
_redis_client: redis.Redis | None = None


def redis_client() -> redis.Redis:
    """This process's Redis client for commit notices (redis-py pools are fork-safe)."""
    global _redis_client
    with _redis_lock:
        if _redis_client is None:
            _redis_client = redis.Redis.from_url(
                settings.REDIS_URL, socket_connect_timeout=2, socket_timeout=2
            )
        return _redis_client


class CommitNotices:
    """A subscription to ``commits_channel()``; ``wait`` returns on a notice or a timeout.

    If Redis is unreachable, ``wait`` degrades to a plain sleep (the poll fallback), and
    :attr:`subscribed` says so: the caller then polls at its fallback pace. A subscription
    lost and made again may have missed notices meanwhile: :meth:`missed` says so once.
    """

    def __init__(self) -> None:
        self._pubsub: Any = None
        # Lost (or never made) since the last subscription: notices may have been missed.
        self._lost = False
        self._missed = False
        self._subscribe()

    @property
    def subscribed(self) -> bool:
        """Whether notices can arrive (else the caller must poll)."""
        return self._pubsub is not None

    def missed(self) -> bool:
        """Whether notices may have been missed since the last call (a subscription made
        again after a loss); the caller should look for itself."""
        missed, self._missed = self._missed, False
        return missed

    def _subscribe(self) -> None:
        try:
            pubsub = redis_client().pubsub(ignore_subscribe_messages=True)
            pubsub.subscribe(commits_channel())
            self._pubsub = pubsub
            if self._lost:
                self._missed, self._lost = True, False
        except redis.RedisError:
            logger.warning("cannot subscribe to %s; polling only", commits_channel())
            self._pubsub = None
            self._lost = True

    def wait(self, timeout: float) -> list[dict[str, Any]]:
        """Block up to ``timeout`` seconds for a notice; return every notice then pending."""
        if self._pubsub is None:
            time.sleep(timeout)
            self._subscribe()
            return []
        notices: list[dict[str, Any]] = []
        try:
            message = self._pubsub.get_message(timeout=timeout)
            while message is not None:
                if message.get("type") == "message":
                    notices += parse_commit_notices(message["data"])
                message = self._pubsub.get_message(timeout=0)
        except (redis.RedisError, OSError):
            logger.warning("lost the subscription to %s; resubscribing", commits_channel())
            self.close()
            self._lost = True
            self._subscribe()
        return notices

    def close(self) -> None:
        """Unsubscribe and release the connection."""
        if self._pubsub is not None:
            with contextlib.suppress(redis.RedisError, OSError):
                self._pubsub.close()
            self._pubsub = None


def commit_notices() -> CommitNotices:
    """Subscribe to commit notices (the projector's wake-up)."""
    return CommitNotices()
