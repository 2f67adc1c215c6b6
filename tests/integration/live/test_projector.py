"""The projector process's loop: woken by the commit notice, not by its poll."""

from __future__ import annotations

import threading
import time
import uuid
from typing import Any

from django.db import transaction

from eventstore.recorder import append
from eventstore.records import NewEvent, StoredEvent
from eventstore.subscriptions import Projection, register_projection, unregister_projection
from services.projector import Projector, heartbeat_age, heartbeat_path
from tests.integration.live.conftest import wait_until


class StreamWatcher(Projection):
    """Records the events of one stream (a test projection)."""

    def __init__(self, stream_id: str) -> None:
        self.name = f"test-watch-{stream_id}"
        self.stream_id = stream_id
        self.seen: list[tuple[int, float]] = []

    def handle(self, event: StoredEvent) -> None:
        if event.stream_id == self.stream_id:
            self.seen.append((event.version, time.monotonic()))

    def reset(self) -> None:
        self.seen.clear()


def test_projector_catches_up_on_the_commit_notice_long_before_its_poll(live_db: Any) -> None:
    stream_id = f"test-projector-{uuid.uuid4().hex[:12]}"
    watcher = register_projection(StreamWatcher(stream_id))
    projector = Projector(poll_seconds=30.0)
    loop = threading.Thread(target=projector.run, daemon=True)
    try:
        loop.start()
        wait_until(lambda: projector.rounds >= 1, 10, "the projector's first round")
        with transaction.atomic():
            append(stream_id, 0, [NewEvent("TestHappened", {"n": 1})])
        committed = time.monotonic()
        wait_until(lambda: watcher.seen, 10, "the projection to see the event")
        version, seen_at = watcher.seen[0]
        assert version == 1
        # The poll is 30 s away: only the notice can have woken it this fast.
        assert seen_at - committed < 5.0
        age = heartbeat_age(heartbeat_path())
        assert age is not None and age < 10
    finally:
        projector.stop()
        loop.join(timeout=35)
        unregister_projection(watcher.name)
    assert not loop.is_alive()
