"""Optimistic concurrency and idempotency under real concurrent connections."""

from __future__ import annotations

import threading

import pytest
from django.db import transaction

from eventstore import errors, reading, recorder, records, verification
from eventstore.records import NewEvent

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
                    result = recorder.append(
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
            except errors.WrongExpectedVersion as refused:
                assert refused.current >= version + 2
                version = refused.current
            barrier.wait(timeout=30)
            # Everyone starts the next round from the winner's version.
            version = reading.stream_version(stream)

    joins = [run_in_thread(lambda t=t: writer(t)) for t in range(THREADS)]
    for join in joins:
        join()

    assert sorted(wins) == [2 * r for r in range(ROUNDS)]
    assert all(len(winners) == 1 for winners in wins.values()), wins
    events = reading.read_stream(stream)
    assert [e.version for e in events] == list(range(1, 2 * ROUNDS + 1))
    # Each winner's batch is whole and in order: no lost, partial or duplicate events.
    for first, second in zip(events[::2], events[1::2], strict=True):
        assert first.type == "BidPlaced" and second.type == "Noted"
        assert first.data["thread"] == second.data["thread"] == wins[first.version - 1][0]
    assert verification.verify_stream(stream) is None


def test_concurrent_retries_of_one_command_append_once(stream_prefix: str) -> None:
    stream = f"{stream_prefix}-table"
    barrier = threading.Barrier(THREADS)

    def sender(thread: int) -> records.AppendResult:
        barrier.wait(timeout=30)
        with transaction.atomic():
            return recorder.append(
                stream, 0, [NewEvent("TableCreated", {"by": thread})], command_id="create-1"
            )

    joins = [run_in_thread(lambda t=t: sender(t)) for t in range(THREADS)]
    results = [join() for join in joins]

    originals = [r for r in results if not r.duplicate]
    assert len(originals) == 1
    assert all(r.events == originals[0].events for r in results)
    assert len(reading.read_stream(stream)) == 1


def test_an_append_from_an_older_transaction_after_a_newer_one_must_retry(
    stream_prefix: str,
) -> None:
    """Subscriptions read in transaction-id order, so within a stream the ids must grow
    with the versions: an older transaction (one that wrote before appending) finding a
    newer one's event at the head is refused, and succeeds when retried afresh."""
    stream = f"{stream_prefix}-a"
    has_xid, newer_committed = threading.Event(), threading.Event()

    def older() -> records.AppendResult:
        from django.db import connection

        with pytest.raises(errors.StaleTransaction) as refused, transaction.atomic():
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_current_xact_id()")  # like an earlier write
            has_xid.set()
            assert newer_committed.wait(30)
            recorder.append(stream, 1, [NewEvent("Older", {})])
        assert refused.value.current == refused.value.expected == 1
        with transaction.atomic():
            return recorder.append(stream, 1, [NewEvent("Older", {})])

    join = run_in_thread(older)
    assert has_xid.wait(30)
    with transaction.atomic():
        recorder.append(stream, 0, [NewEvent("Newer", {})])
    newer_committed.set()
    assert join().version == 2
    assert [e.type for e in reading.read_stream(stream)] == ["Newer", "Older"]
