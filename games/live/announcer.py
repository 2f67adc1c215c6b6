"""Announcer threads: after-commit work that must not make the committing thread wait.

Each process runs a few, by name: the bot dispatcher (``bots.dispatch``: a Celery send
waits for the broker) and the notifier (``games.live.fanout``: group notices through a
channel layer other than channels-redis's pub/sub one), so neither waits behind the
other. The commit notices themselves go through ``games.live.publisher``.
"""

from __future__ import annotations

import asyncio
import atexit
import logging
import os
import queue
import threading
import time
from collections.abc import Callable
from typing import Any

from games.live.publisher import flush_publisher

logger = logging.getLogger(__name__)


class Announcer:
    """A thread that runs ``handler(batch, loop)`` for the submitted items, in order.

    The handler gets every item queued by the time it runs. Each announcer owns a private
    asyncio loop, so the channel layer keeps one Redis connection instead of opening one
    per message; it never touches the database. Started lazily (and again after a fork:
    Celery's prefork children), flushed at exit for up to two seconds; an announcement
    lost in a crash is repaired by the bot watchdog and by the consumers' catch-up by
    version.
    """

    MAX_BATCH = 200

    def __init__(self, name: str, handler: Callable[..., None]) -> None:
        self.pid = os.getpid()
        self.name = name
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
                except Exception:  # the thread must live on: later commits need it
                    logger.exception("announcer %s: a batch of %d failed", self.name, len(batch))
                finally:
                    with self.lock:
                        self.pending -= len(batch)
                        if self.pending == 0:
                            self.idle.set()
        finally:
            loop.close()


_announcer_lock = threading.Lock()
_announcers: dict[str, Announcer] = {}


def announcer(name: str, handler: Callable[..., None]) -> Announcer:
    """This process's announcer ``name``, running ``handler`` (a new one in a forked child)."""
    with _announcer_lock:
        current = _announcers.get(name)
        if current is None or current.pid != os.getpid():
            current = _announcers[name] = Announcer(name, handler)
        return current


def flush_announcements(timeout: float = 2.0) -> bool:
    """Wait for this process's queued announcements and notices (tests, and at exit)."""
    deadline = time.monotonic() + timeout
    for current in list(_announcers.values()):
        remaining = max(0.0, deadline - time.monotonic())
        if current.pid == os.getpid() and not current.flush(remaining):
            return False
    # The notifier's group sends may queue nothing here; the publisher is flushed last.
    return flush_publisher(max(0.0, deadline - time.monotonic()))


atexit.register(flush_announcements)
