"""After-commit fan-out: every commit of a table's stream is announced and, when a bot is
due, handed to a worker.

``on_events_committed`` receives ``eventstore.signals.events_committed``, which the store
sends from ``transaction.on_commit``; so everything here happens after the events are
durable. The receiver only queues the commit for this process's announcer threads: the
committing request or task does not wait for Redis, and nothing here can raise into it
(its command succeeded). Failures are logged; the bot watchdog and the consumers' catch-up
by version repair whatever a lost notice would have done.

Three announcements: by the dispatcher thread,

1. bot dispatch (``games.live.dispatch``), if the seat to act is a bot;

and by the notifier thread,

2. the Channels group ``table.<id>``: ``{"type": "table.committed", "version": V, ...}``;
   each consumer then reads the events after its own last sent version;
3. Redis pub/sub ``commits_channel()`` with the same notice as JSON: wakes the projector,
   and lets the live benchmark time commits.
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import json
import logging
import os
import queue
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any

import redis
from channels.layers import get_channel_layer
from django.conf import settings

logger = logging.getLogger(__name__)

COMMITS_CHANNEL_PREFIX = "spades:commits:"


def commits_channel() -> str:
    """The pub/sub channel of this database's commit notices.

    Redis pub/sub ignores the database number, so the channel is named after the
    PostgreSQL database: test runs and benchmarks on one Redis never wake each other.
    """
    return COMMITS_CHANNEL_PREFIX + str(settings.DATABASES["default"]["NAME"])


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
    """Receiver of ``events_committed`` (runs after commit, in the committing process).

    Reads whether a bot is due on the committing thread's own connection (one indexed
    query), then hands the rest to this process's announcer thread, so the committing
    request or task does not wait for Redis.
    """
    if not events:
        return
    notice = commit_notice(stream_id, events, time.time())
    from games.live.streams import table_id_of_stream

    table_id = table_id_of_stream(stream_id)
    bot_version = None
    if table_id is not None:
        try:
            from games.live.tables import bot_due_version

            bot_version = bot_due_version(table_id)
        except Exception:
            logger.exception("bot check after %s v%s failed", stream_id, notice["version"])
    if bot_version is not None:
        announcer(DISPATCHER).submit((table_id, bot_version))
    announcer(NOTIFIER).submit((notice, table_id))


def dispatch(table_id: str, bot_version: int, loop: asyncio.AbstractEventLoop) -> None:
    """Send the bot turn (the dispatcher thread's job); failures are logged only."""
    try:
        from games.live.dispatch import send_bot_turn

        send_bot_turn(table_id, bot_version)
    except Exception:
        logger.exception("bot dispatch for %s v%s failed", table_id, bot_version)


def notify(notice: dict[str, Any], table_id: str | None, loop: asyncio.AbstractEventLoop) -> None:
    """Group notice and Redis commit notice (the notifier thread's job); failures logged."""
    if table_id is not None:
        try:
            notify_table_group(table_id, notice, loop)
        except Exception:
            logger.exception("group notice for %s v%s failed", table_id, notice["version"])
    try:
        redis_client().publish(commits_channel(), json.dumps(notice))
    except Exception:
        logger.exception("commit notice for %s failed", notice["stream_id"])


def notify_table_group(
    table_id: object, notice: dict[str, Any], loop: asyncio.AbstractEventLoop
) -> None:
    """Tell the table's consumers that its stream reached ``notice["version"]``."""
    layer = get_channel_layer()
    if layer is None:
        return
    message = {
        "type": GROUP_MESSAGE_TYPE,
        "version": notice["version"],
        "committed_at": notice["committed_at"],
    }
    loop.run_until_complete(layer.group_send(table_group(table_id), message))


class Announcer:
    """A thread that runs ``handler(*item, loop)`` for each submitted item, in order.

    Each process has two: the dispatcher (Celery sends of bot turns) and the notifier
    (group and Redis notices), so neither waits behind the other. Each owns a private
    asyncio loop, so the channel layer keeps one Redis connection
    instead of opening one per message; it never touches the database. Started lazily
    (and again after a fork: Celery's prefork children), flushed at exit for up to two
    seconds; a notice lost in a crash is repaired by the watchdog and by the consumers'
    catch-up by version.
    """

    def __init__(self, name: str, handler: Callable[..., None]) -> None:
        self.pid = os.getpid()
        self.handler = handler
        self.queue: queue.SimpleQueue[tuple[Any, ...] | None] = queue.SimpleQueue()
        self.idle = threading.Event()
        self.idle.set()
        self.pending = 0
        self.lock = threading.Lock()
        self.thread = threading.Thread(target=self.run, name=f"commit-{name}", daemon=True)
        self.thread.start()

    def submit(self, announcement: tuple[Any, ...]) -> None:
        """Queue one commit's announcement."""
        with self.lock:
            self.pending += 1
            self.idle.clear()
        self.queue.put(announcement)

    def flush(self, timeout: float) -> bool:
        """Wait until every queued notice is announced; False on timeout."""
        return self.idle.wait(timeout)

    def run(self) -> None:
        loop = asyncio.new_event_loop()
        try:
            while True:
                item = self.queue.get()
                if item is None:
                    return
                try:
                    self.handler(*item, loop)
                finally:
                    with self.lock:
                        self.pending -= 1
                        if self.pending == 0:
                            self.idle.set()
        finally:
            loop.close()


DISPATCHER = "dispatcher"
NOTIFIER = "notifier"
HANDLERS: dict[str, Callable[..., None]] = {DISPATCHER: dispatch, NOTIFIER: notify}

_announcer_lock = threading.Lock()
_announcers: dict[str, Announcer] = {}


def announcer(name: str) -> Announcer:
    """This process's announcer ``name`` (new ones in a forked child)."""
    with _announcer_lock:
        current = _announcers.get(name)
        if current is None or current.pid != os.getpid():
            current = _announcers[name] = Announcer(name, HANDLERS[name])
        return current


def flush_announcements(timeout: float = 2.0) -> bool:
    """Wait for this process's queued announcements (tests, and at exit)."""
    deadline = time.monotonic() + timeout
    for current in list(_announcers.values()):
        remaining = max(0.0, deadline - time.monotonic())
        if current.pid == os.getpid() and not current.flush(remaining):
            return False
    return True


atexit.register(flush_announcements)


class CommitNotices:
    """A subscription to ``commits_channel()``; ``wait`` returns on a notice or a timeout.

    If Redis is unreachable, ``wait`` degrades to a plain sleep (the poll fallback).
    """

    def __init__(self) -> None:
        self._pubsub: Any = None
        self._subscribe()

    def _subscribe(self) -> None:
        try:
            pubsub = redis_client().pubsub(ignore_subscribe_messages=True)
            pubsub.subscribe(commits_channel())
            self._pubsub = pubsub
        except redis.RedisError:
            logger.warning("cannot subscribe to %s; polling only", commits_channel())
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
            logger.warning("lost the subscription to %s; resubscribing", commits_channel())
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
