"""The projector process's loop: woken by the commit notice, not by its poll."""

from __future__ import annotations

import threading
import time
import uuid
from typing import Any

from django.db import transaction

from eventstore.recorder import append
from eventstore.records import NewEvent, StoredEvent
from eventstore.signals import events_committed
from eventstore.subscriptions import Projection, register_projection, unregister_projection
from games.live.fanout import on_events_committed
from services import projector as projector_process
from services.projector import MAIN_LANE, Projector, heartbeat_age, heartbeat_path
from tests.integration.live.conftest import NoNotices, wait_until


class StreamWatcher(Projection):
    """Records the events of one stream (a test projection)."""

    def __init__(self, stream_id: str, name: str | None = None) -> None:
        self.name = name or f"test-watch-{stream_id}"
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
        # The main lane's first round (the one that keeps the heartbeat): the test
        # database may hold many events from earlier tests for it to catch up first.
        wait_until(
            lambda: "main" in projector.lanes and projector.lanes["main"].rounds >= 1,
            120,
            "the main lane's first round",
        )
        with transaction.atomic():
            append(stream_id, 0, [NewEvent("TestHappened", {"n": 1})])
        committed = time.monotonic()
        wait_until(lambda: watcher.seen, 10, "the projection to see the event")
        version, seen_at = watcher.seen[0]
        assert version == 1
        # The poll is 30 s away: only the notice can have woken it this fast.
        assert seen_at - committed < 5.0
        # Touched at the end of the round that saw it (and while the lane waits).
        wait_until(
            lambda: (age := heartbeat_age(heartbeat_path())) is not None and age < 10,
            10,
            "a fresh heartbeat",
        )
    finally:
        projector.stop()
        loop.join(timeout=35)
        unregister_projection(watcher.name)
    assert not loop.is_alive()


class Relay(Projection):
    """On an event of ``source``, appends one to ``target`` after its batch commits, as
    ``league_match_results`` appends ``MatchResultRecorded`` (a test projection)."""

    def __init__(self, source: str, target: str) -> None:
        self.name = f"zz-test-relay-{source}"
        self.source = source
        self.target = target

    def handle_batch(self, events: Any) -> None:
        if any(event.stream_id == self.source for event in events):
            transaction.on_commit(self.relay)

    def relay(self) -> None:
        with transaction.atomic():
            append(self.target, 0, [NewEvent("TestRelayed", {})], command_id="relay")

    def reset(self) -> None:
        pass


def test_what_a_projection_appends_is_caught_up_in_the_same_wake_up(
    live_db: Any, monkeypatch: Any
) -> None:
    """The relay runs last in the round (by name), after the watcher of what it appends.
    No commit notice is published here (the fan-out receiver is detached) and the poll is
    two minutes away: only the projector's own follow-up round can deliver the event."""
    suffix = uuid.uuid4().hex[:12]
    source, target = f"test-relay-in-{suffix}", f"test-relay-out-{suffix}"
    watcher = register_projection(StreamWatcher(target, name=f"aa-test-watch-{suffix}"))
    relay = register_projection(Relay(source, target))
    monkeypatch.setattr(projector_process, "commit_notices", NoNotices)
    projector = Projector(poll_seconds=120.0)
    loop = threading.Thread(target=projector.run, daemon=True)
    events_committed.disconnect(dispatch_uid="games.live.fanout")
    try:
        with transaction.atomic():
            append(source, 0, [NewEvent("TestHappened", {"n": 1})])
        loop.start()
        wait_until(lambda: watcher.seen, 60, "the watcher to see the relayed event")
        assert [version for version, _ in watcher.seen] == [1]
        assert projector.wakeups == 0  # never waited for a notice or the poll
    finally:
        events_committed.connect(on_events_committed, dispatch_uid="games.live.fanout")
        projector.stop()
        loop.join(timeout=10)
        unregister_projection(watcher.name)
        unregister_projection(relay.name)
    assert not loop.is_alive()


def main_rounds(projector: Projector) -> int:
    """Rounds of the main lane so far (0 before its thread made it)."""
    lane = projector.lanes.get(MAIN_LANE)
    return lane.rounds if lane is not None else 0


class Unsubscribed(NoNotices):
    """A subscription Redis refused: no notice can come."""

    subscribed = False


class MadeAgain(NoNotices):
    """A subscription lost and made again once: notices may have been missed meanwhile."""

    def __init__(self) -> None:
        self.told = False

    def missed(self) -> bool:
        told, self.told = self.told, True
        return not told


def test_a_lane_polls_at_the_fallback_pace_while_redis_cannot_be_subscribed_to(
    live_db: Any, monkeypatch: Any
) -> None:
    monkeypatch.setattr(projector_process, "commit_notices", Unsubscribed)
    projector = Projector(poll_seconds=120.0)
    loop = threading.Thread(target=projector.run, daemon=True)
    try:
        loop.start()
        # The safety interval is two minutes away: only the fallback pace gives rounds.
        wait_until(lambda: main_rounds(projector) >= 3, 20, "fallback rounds")
    finally:
        projector.stop()
        loop.join(timeout=10)
    assert not loop.is_alive()


def test_a_subscription_made_again_is_followed_by_a_round_at_once(
    live_db: Any, monkeypatch: Any
) -> None:
    monkeypatch.setattr(projector_process, "commit_notices", MadeAgain)
    projector = Projector(poll_seconds=120.0)
    loop = threading.Thread(target=projector.run, daemon=True)
    try:
        loop.start()
        wait_until(lambda: main_rounds(projector) >= 2, 20, "a round at once")
    finally:
        projector.stop()
        loop.join(timeout=10)
    assert not loop.is_alive()
