"""After-commit fan-out: every commit of a table's stream is announced and, when a bot is
due, handed to a worker.

``on_events_committed`` receives ``eventstore.signals.events_committed``, which the store
sends from ``transaction.on_commit``; so everything here happens after the events are
durable. Nothing here makes the committing request or task wait for Redis, and nothing
can raise into it (its command succeeded). Failures are logged; the bot watchdog and the
consumers' catch-up by version repair whatever a lost notice would have done.

Three announcements:

1. bot dispatch (``games.live.dispatch``), if a bot is to act: queued for this process's
   dispatcher thread (a Celery send waits for the broker);
2. the Channels group ``table.<id>``: ``{"type": "table.committed", "version": V, ...}``;
   each consumer then reads the events after its own last sent version;
3. Redis pub/sub ``commits_channel()``: a JSON array of notices (one here); wakes the
   projector, and lets the live benchmark time commits.

2 and 3 are PUBLISH commands queued for this process's publisher thread, which sends them
in batches (``games.live.publisher``); with a channel layer other than channels-redis's
pub/sub one, 2 goes through the layer's ``group_send`` on the notifier thread.
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import logging
import os
import queue
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any

import orjson
import redis
from channels.layers import get_channel_layer
from django.conf import settings

from games.live.publisher import flush_publisher, publisher

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
    sender: object,
    stream_id: str,
    events: Sequence[Any],
    context: dict[str, Any] | None = None,
    **kwargs: Any,
) -> None:
    """Receiver of ``events_committed`` (runs after commit, in the committing process).

    Whether a bot is due comes with the commit (the service's ``bot_to_act`` and
    ``table_id``) or, from other appenders, from one indexed query on the committing
    thread's own connection. A due bot is queued for the dispatcher thread and the
    notices for the publisher's, so the committing request or task does not wait for Redis.
    """
    if not events:
        return
    notice = commit_notice(stream_id, events, time.time())
    from games.domain.streams import table_id_of_stream

    table_id = context.get("table_id") if context else None
    if table_id is None:
        table_id = table_id_of_stream(stream_id)
    bot_version = None
    if table_id is not None and context and "bot_to_act" in context:
        bot_version = events[-1].version if context["bot_to_act"] else None
    elif table_id is not None:
        try:
            from games.live.tables import bot_due_version

            bot_version = bot_due_version(table_id)
        except Exception:
            logger.exception("bot check after %s v%s failed", stream_id, notice["version"])
    if bot_version is not None:
        announcer(DISPATCHER).submit((table_id, bot_version))
    publish_notice(notice, table_id, events)


def publish_notice(
    notice: dict[str, Any], table_id: str | None, events: Sequence[Any] = ()
) -> None:
    """Queue a commit's notices for the publisher thread: the group message (when the
    channel layer can be published to directly, else it goes through the layer on the
    notifier thread) and the commits channel's."""
    messages: list[tuple[str, bytes]] = []
    if table_id is not None:
        layer = get_channel_layer()
        channel = pubsub_group_channel(layer, table_group(table_id)) if layer else None
        if channel is not None:
            messages.append((channel, layer.serialize(group_message(notice, events))))
        elif layer is not None:
            announcer(NOTIFIER).submit((notice, table_id))
    messages.append((commits_channel(), orjson.dumps([notice])))
    publisher().publish(messages)


def dispatch(batch: list[tuple[str, int]], loop: asyncio.AbstractEventLoop) -> None:
    """Send the bot turns (the dispatcher thread's job); failures are logged only."""
    from games.live.dispatch import send_bot_turn

    for table_id, bot_version in batch:
        try:
            send_bot_turn(table_id, bot_version)
        except Exception:
            logger.exception("bot dispatch for %s v%s failed", table_id, bot_version)


def notify(batch: list[tuple[dict[str, Any], str]], loop: asyncio.AbstractEventLoop) -> None:
    """Group notices through the channel layer's ``group_send`` (the notifier thread's job,
    for layers other than channels-redis's pub/sub one); failures are logged only.

    A table's consumers read every event after the version they last sent, so its group
    hears only the batch's newest version.
    """
    newest: dict[str, dict[str, Any]] = {}
    for notice, table_id in batch:
        current = newest.get(table_id)
        if current is None or current["version"] < notice["version"]:
            newest[table_id] = notice
    try:
        notify_table_groups(newest, loop)
    except Exception:
        logger.exception("group notices for %d table(s) failed", len(newest))


# A commit of more events than this (a game's last card: the reveal) is not carried in
# its group message; the consumers read it.
MAX_NOTIFIED_EVENTS = 8


def group_message(notice: dict[str, Any], events: Sequence[Any] = ()) -> dict[str, Any]:
    """The Channels message a table's consumers get for a commit notice: the version, and
    the commit's events (``StoredEvent.to_wire``) when there are few, so consumers whose
    cached fold is at the version before need not read the stream (they check the events
    against their hash chain first, ``games.selectors.visibility.chained_tail``)."""
    message = {
        "type": GROUP_MESSAGE_TYPE,
        "version": notice["version"],
        "committed_at": notice["committed_at"],
    }
    if events and len(events) <= MAX_NOTIFIED_EVENTS:
        message["events"] = [event.to_wire() for event in events]
    return message


def pubsub_group_channel(layer: Any, group: str) -> str | None:
    """The Redis channel on which ``layer`` publishes ``group``'s messages, when it is
    channels-redis's pub/sub layer on this process's Redis, else None.

    channels-redis publishes a group message as one PUBLISH of the layer's serialized
    message on ``<prefix>__group__<group>``; the committing thread does the same with its
    commit notice (``games.live.publisher``), without an event loop or a thread switch.
    tests/unit/live/test_group_channel.py holds this to the library's own naming.
    """
    from channels_redis.pubsub import RedisPubSubChannelLayer

    if not isinstance(layer, RedisPubSubChannelLayer):
        return None
    config = layer._kwargs
    if config.get("hosts") != [settings.REDIS_URL]:
        return None
    return f"{config.get('prefix', 'asgi')}__group__{group}"


def notify_table_groups(
    notices: dict[str, dict[str, Any]], loop: asyncio.AbstractEventLoop
) -> None:
    """Tell each table's consumers, through the channel layer's own ``group_send``, that
    its stream reached ``notices[table_id]["version"]``."""
    layer = get_channel_layer()
    if layer is None:
        return
    sends = [
        layer.group_send(table_group(table_id), group_message(notice))
        for table_id, notice in notices.items()
    ]
    loop.run_until_complete(_all(sends))


async def _all(sends: list[Any]) -> None:
    for outcome in await asyncio.gather(*sends, return_exceptions=True):
        if isinstance(outcome, BaseException):
            logger.error("a group notice failed: %r", outcome)


class Announcer:
    """A thread that runs ``handler(batch, loop)`` for the submitted items, in order.

    Each process has two: the dispatcher (Celery sends of bot turns) and the notifier
    (group notices through a channel layer other than channels-redis's pub/sub one), so
    neither waits behind the other. The handler gets every item queued by the time it
    runs (the commit notices themselves are batched by ``games.live.publisher``). Each
    owns a private asyncio loop, so the channel layer keeps one Redis connection instead
    of opening one per message; it never touches the database. Started lazily (and again
    after a fork: Celery's prefork children), flushed at exit for up to two seconds; a
    notice lost in a crash is repaired by the watchdog and by the consumers' catch-up by
    version.
    """

    MAX_BATCH = 200

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

    def next_batch(self) -> tuple[list[tuple[Any, ...]], bool]:
        """The next items (blocking for the first), and whether the thread should stop."""
        item = self.queue.get()
        if item is None:
            return [], True
        batch = [item]
        while len(batch) < self.MAX_BATCH:
            try:
                item = self.queue.get_nowait()
            except queue.Empty:
                break
            if item is None:
                return batch, True
            batch.append(item)
        return batch, False

    def run(self) -> None:
        loop = asyncio.new_event_loop()
        try:
            stopping = False
            while not stopping:
                batch, stopping = self.next_batch()
                if not batch:
                    continue
                try:
                    self.handler(batch, loop)
                finally:
                    with self.lock:
                        self.pending -= len(batch)
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
    # The notifier's group sends may queue nothing here; the publisher is flushed last.
    return flush_publisher(max(0.0, deadline - time.monotonic()))


atexit.register(flush_announcements)


def parse_commit_notices(data: bytes | str) -> list[dict[str, Any]]:
    """The notices of one message on ``commits_channel()`` (a JSON array of notices)."""
    decoded = orjson.loads(data)
    return decoded if isinstance(decoded, list) else [decoded]


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
                    notices += parse_commit_notices(message["data"])
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
