"""Optimistic concurrency and idempotency under real concurrent connections."""

from __future__ import annotations

import threading

import pytest
from django.db import transaction

from eventstore import store
from eventstore.store import NewEvent

from .conftest import run_in_thread

pytestmark = pytest.mark.django_db(transaction=True)

THREADS = 8
ROUNDS = 12


def test_many_writers_with_the_same_expected_version_exactly_one_wins_each(
    stream_prefix: str,
) -> None:
    stream = f"{stream_prefix}-table"
    barrier = threading.Barrier(THREADS)
    wins: dict[int, list[int]] = {}
    lock = threading.Lock()

    def writer(thread: int) -> None:
        version = 0
        for _ in range(ROUNDS):
            barrier.wait(timeout=30)
            try:
                with transaction.atomic():
                    result = store.append(
                        stream,
                        version,
                        [
                            NewEvent("BidPlaced", {"thread": thread, "v": version}),
                            NewEvent("Noted", {"thread": thread}),
                        ],
                        command_id=f"t{thread}-v{version}",
                    )
                with lock:
                    wins.setdefault(version, []).append(thread)
                version = result.version
            except store.WrongExpectedVersion as refused:
                assert refused.current >= version + 2
                version = refused.current
            barrier.wait(timeout=30)
            # Everyone starts the next round from the winner's version.
            version = store.stream_version(stream)

    joins = [run_in_thread(lambda t=t: writer(t)) for t in range(THREADS)]
    for join in joins:
        join()

    assert sorted(wins) == [2 * r for r in range(ROUNDS)]
    assert all(len(winners) == 1 for winners in wins.values()), wins
    events = store.read_stream(stream)
    assert [e.version for e in events] == list(range(1, 2 * ROUNDS + 1))
    # Each winner's batch is whole and in order: no lost, partial or duplicate events.
    for first, second in zip(events[::2], events[1::2], strict=True):
        assert first.type == "BidPlaced" and second.type == "Noted"
        assert first.data["thread"] == second.data["thread"] == wins[first.version - 1][0]
    assert store.verify_stream(stream) is None


def test_concurrent_retries_of_one_command_append_once(stream_prefix: str) -> None:
    stream = f"{stream_prefix}-table"
    barrier = threading.Barrier(THREADS)

    def sender(thread: int) -> store.AppendResult:
        barrier.wait(timeout=30)
        with transaction.atomic():
            return store.append(
                stream, 0, [NewEvent("TableCreated", {"by": thread})], command_id="create-1"
            )

    joins = [run_in_thread(lambda t=t: sender(t)) for t in range(THREADS)]
    results = [join() for join in joins]

    originals = [r for r in results if not r.duplicate]
    assert len(originals) == 1
    assert all(r.events == originals[0].events for r in results)
    assert len(store.read_stream(stream)) == 1
