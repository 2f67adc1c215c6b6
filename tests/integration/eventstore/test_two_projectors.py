"""A second projector is a safe standby: two processes catching one projection up at once
take turns on its checkpoint row, so every event is applied once, by one of them, while
writers go on (docs/operations.md, "Singletons and standbys")."""

from __future__ import annotations

import threading
import time

import pytest
from django.db import connection, transaction

from eventstore import recorder
from eventstore.records import NewEvent, StoredEvent
from eventstore.subscriptions import Projection, catch_up

from .conftest import run_in_thread

pytestmark = pytest.mark.django_db(transaction=True)

EVENTS = 120


class Copy(Projection):
    """One projector's copy of a projection (same name, so the same checkpoint)."""

    def __init__(self, name: str, prefix: str) -> None:
        self.name = name
        self.prefix = prefix
        self.seen: list[int] = []

    def handle(self, event: StoredEvent) -> None:
        if event.stream_id.startswith(self.prefix):
            self.seen.append(event.position)

    def reset(self) -> None:
        self.seen.clear()


def test_two_projectors_apply_every_event_once_between_them(stream_prefix: str) -> None:
    name = f"standby-{stream_prefix}"
    first, second = Copy(name, stream_prefix), Copy(name, stream_prefix)
    writing = threading.Event()
    writing.set()

    def write() -> None:
        for n in range(EVENTS):
            with transaction.atomic():
                recorder.append(f"{stream_prefix}-{n % 4}", n // 4, [NewEvent("E", {"n": n})])
        writing.clear()

    def follow(copy: Copy) -> None:
        deadline = time.monotonic() + 60
        while writing.is_set() or len(first.seen) + len(second.seen) < EVENTS:
            catch_up(copy, batch_size=5)
            assert time.monotonic() < deadline, "the two copies never caught up"
            time.sleep(0.001)

    joins = [run_in_thread(lambda: follow(first)), run_in_thread(lambda: follow(second))]
    run_in_thread(write)()
    for join in joins:
        join()

    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT position FROM eventstore_event WHERE stream_id LIKE %s", [f"{stream_prefix}-%"]
        )
        stored = sorted(row[0] for row in cursor.fetchall())
    delivered = first.seen + second.seen
    assert sorted(delivered) == stored  # every event, and none twice
