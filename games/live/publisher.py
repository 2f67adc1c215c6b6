"""Redis PUBLISH of commit notices (and the other after-commit writes to Redis, such as the
scheduler's due times, ``games.live.due``), batched by a flusher thread.

A commit notice must not make the committing request or task wait for Redis, and must
cost it almost nothing: bids and plays commit about a thousand times a second per
process. Measured (benchmarks/store.py), a PUBLISH written by the committing thread cost
it 80-90 us per commit, most of it the Redis server being woken onto the committing
thread's core; a thread woken for every notice cost as much in GIL hand-offs. So the
committing thread only appends its messages to a list; the flusher thread, woken once
per batch, waits ``LINGER_SECONDS`` for more, then sends the whole batch in one write and
reads the replies. A busy process pays one Redis round trip per batch, an idle one
nothing; a notice waits at most a few milliseconds.

If Redis cannot be reached, the batch is dropped and the next try waits a second; the
consumers' periodic resync and the projector's poll repair what lost notices would have
done. The thread is started lazily, and again in a forked child (Celery's prefork pool).
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Iterable
from typing import Any

import redis
from django.conf import settings

from telemetry.metrics import count_notices_dropped

logger = logging.getLogger(__name__)

LINGER_SECONDS = 0.002
CONNECT_TIMEOUT_SECONDS = 0.5
SOCKET_TIMEOUT_SECONDS = 2.0
RETRY_AFTER_SECONDS = 1.0
# A batch larger than this is cut, so one write never grows without bound.
MAX_BATCH = 5_000


#: One Redis command: its name and arguments.
Command = tuple[str | bytes | float | int, ...]


class Publisher:
    """Queue ``(channel, payload)`` messages (and other commands); a thread sends them in
    batches."""

    def __init__(self, url: str, linger: float = LINGER_SECONDS) -> None:
        self.url = url
        self.linger = linger
        self.pid = os.getpid()
        self.lock = threading.Lock()
        self.pending: list[Command] = []
        self.in_flight = 0
        self.wake = threading.Event()
        self.idle = threading.Event()
        self.idle.set()
        self.connection: Any = None
        self.retry_at = 0.0
        self.sent = 0
        self.dropped = 0
        self.thread = threading.Thread(target=self.run, name="commit-publisher", daemon=True)
        self.thread.start()

    def publish(self, messages: Iterable[tuple[str, bytes]]) -> None:
        """Queue messages for the next batch (never blocks on Redis)."""
        self.send_later(("PUBLISH", channel, payload) for channel, payload in messages)

    def send_later(self, commands: Iterable[Command]) -> None:
        """Queue Redis commands for the next batch (never blocks on Redis); their replies
        are read and dropped, a refusal logged."""
        with self.lock:
            was_empty = not self.pending
            self.pending.extend(commands)
            self.idle.clear()
        if was_empty:
            self.wake.set()

    def flush(self, timeout: float = 2.0) -> bool:
        """Wait until everything queued so far was sent (or dropped); False on timeout."""
        return self.idle.wait(timeout)

    def run(self) -> None:
        while True:
            self.wake.wait()
            self.wake.clear()
            if self.linger:
                time.sleep(self.linger)
            with self.lock:
                batch, self.pending = self.pending[:MAX_BATCH], self.pending[MAX_BATCH:]
                if self.pending:
                    self.wake.set()
            try:
                self.send(batch)
            except Exception:  # never let the thread die: later notices still matter
                logger.exception("commit notices: %d dropped", len(batch))
                self.dropped += len(batch)
                count_notices_dropped(len(batch))
            with self.lock:
                if not self.pending:
                    self.idle.set()

    def send(self, batch: list[Command]) -> None:
        """Send every command of ``batch`` in one write, then read the replies."""
        if not batch:
            return
        if time.monotonic() < self.retry_at:
            self.dropped += len(batch)
            count_notices_dropped(len(batch))
            return
        try:
            connection = self.connect()
            connection.send_packed_command(connection.pack_commands(batch), check_health=False)
            for _ in batch:
                try:
                    connection.read_response(disable_decoding=True)
                except redis.ResponseError as refusal:
                    logger.error("Redis refused a queued command: %s", refusal)
            self.sent += len(batch)
        except (redis.RedisError, OSError) as exc:
            self.disconnect()
            self.retry_at = time.monotonic() + RETRY_AFTER_SECONDS
            self.dropped += len(batch)
            count_notices_dropped(len(batch))
            # An error (Sentry reports it, docs/operations.md): live updates wait for the
            # sockets' resync until Redis answers again; at most one line per retry delay.
            logger.error("commit notices dropped (%d), Redis unreachable: %s", len(batch), exc)

    def connect(self) -> Any:
        """The flusher's connection (made on first use and after a failure)."""
        if self.connection is None:
            pool = redis.ConnectionPool.from_url(
                self.url,
                socket_connect_timeout=CONNECT_TIMEOUT_SECONDS,
                socket_timeout=SOCKET_TIMEOUT_SECONDS,
            )
            connection = pool.make_connection()
            connection.connect()
            self.connection = connection
        return self.connection

    def disconnect(self) -> None:
        connection, self.connection = self.connection, None
        if connection is not None:
            try:
                connection.disconnect()
            except Exception:  # a broken socket may fail to close; it is dropped anyway
                logger.debug("closing a broken Redis connection failed", exc_info=True)


_publisher_lock = threading.Lock()
_publisher: Publisher | None = None


def publisher() -> Publisher:
    """This process's publisher on ``settings.REDIS_URL`` (a new one after a fork)."""
    global _publisher
    with _publisher_lock:
        current = _publisher
        if current is None or current.pid != os.getpid() or current.url != settings.REDIS_URL:
            current = _publisher = Publisher(settings.REDIS_URL)
        return current


def flush_publisher(timeout: float = 2.0) -> bool:
    """Wait for this process's queued notices (tests, and at exit)."""
    current = _publisher
    if current is None or current.pid != os.getpid():
        return True
    return current.flush(timeout)
