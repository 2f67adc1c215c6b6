"""After-commit fan-out: every commit of a table's stream is announced and, when a bot is
due, handed to a worker.

``on_events_committed`` receives ``eventstore.signals.events_committed``, which the store
sends from ``transaction.on_commit``; so everything here happens after the events are
durable, and nothing here may raise into the committing caller (its command succeeded):
failures are logged, and the bot watchdog and the consumers' catch-up by version repair
whatever a lost notice would have done.

Three announcements, in this order (the first two are latency-sensitive):

1. bot dispatch (``games.live.dispatch``), if the seat to act is a bot;
2. the Channels group ``table.<id>``: ``{"type": "table.committed", "version": V, ...}``;
   each consumer then reads the events after its own last sent version;
3. Redis pub/sub ``COMMITS_CHANNEL`` with the same notice as JSON: wakes the projector,
   and lets the live benchmark time commits.
"""

from __future__ import annotations

import contextlib
import json
import logging
import threading
import time
from collections.abc import Sequence
from typing import Any

import redis
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings

logger = logging.getLogger(__name__)

COMMITS_CHANNEL = "spades:commits"
GROUP_MESSAGE_TYPE = "table.committed"

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


def table_group(table_id: object) -> str:
    """The Channels group of a table's WebSocket consumers."""
    return f"table.{table_id}"


def commit_notice(stream_id: str, events: Sequence[Any], committed_at: float) -> dict[str, Any]:
    """The JSON-ready notice of one commit: stream, version range, time, types, actor kind."""
    last = events[-1]
    actor = last.metadata.get("actor") if isinstance(last.metadata, dict) else None
    return {
        "stream_id": stream_id,
        "first_version": events[0].version,
        "version": last.version,
        "committed_at": committed_at,
        "types": [event.type for event in events],
        "actor": actor,
    }


def on_events_committed(
    sender: object, stream_id: str, events: Sequence[Any], **kwargs: Any
) -> None:
    """Receiver of ``events_committed`` (runs after commit, in the committing process)."""
    if not events:
        return
    committed_at = time.time()
    from games.live.streams import table_id_of_stream

    table_id = table_id_of_stream(stream_id)
    notice = commit_notice(stream_id, events, committed_at)
    if table_id is not None:
        try:
            from games.live.dispatch import dispatch_bot_if_due

            dispatch_bot_if_due(table_id)
        except Exception:
            logger.exception(
                "bot dispatch after commit of %s v%s failed", stream_id, notice["version"]
            )
        try:
            notify_table_group(table_id, notice)
        except Exception:
            logger.exception("group notice for %s v%s failed", stream_id, notice["version"])
    try:
        redis_client().publish(COMMITS_CHANNEL, json.dumps(notice))
    except Exception:
        logger.exception("commit notice for %s v%s failed", stream_id, notice["version"])


def notify_table_group(table_id: object, notice: dict[str, Any]) -> None:
    """Tell the table's consumers that its stream reached ``notice["version"]``."""
    layer = get_channel_layer()
    if layer is None:
        return
    message = {
        "type": GROUP_MESSAGE_TYPE,
        "version": notice["version"],
        "committed_at": notice["committed_at"],
    }
    async_to_sync(layer.group_send)(table_group(table_id), message)


class CommitNotices:
    """A subscription to ``COMMITS_CHANNEL``; ``wait`` returns on a notice or a timeout.

    If Redis is unreachable, ``wait`` degrades to a plain sleep (the poll fallback).
    """

    def __init__(self) -> None:
        self._pubsub: Any = None
        self._subscribe()

    def _subscribe(self) -> None:
        try:
            pubsub = redis_client().pubsub(ignore_subscribe_messages=True)
            pubsub.subscribe(COMMITS_CHANNEL)
            self._pubsub = pubsub
        except redis.RedisError:
            logger.warning("cannot subscribe to %s; polling only", COMMITS_CHANNEL)
            self._pubsub = None

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
                    notices.append(json.loads(message["data"]))
                message = self._pubsub.get_message(timeout=0)
        except (redis.RedisError, OSError):
            logger.warning("lost the subscription to %s; resubscribing", COMMITS_CHANNEL)
            self.close()
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
