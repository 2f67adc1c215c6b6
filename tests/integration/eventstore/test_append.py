"""Appending and reading streams, idempotency and input validation (single connection)."""

from __future__ import annotations

import pytest
from django.db import connection, transaction

from eventstore import errors, reading, recorder, verification
from eventstore.hashing import GENESIS_HASH
from eventstore.models import Event
from eventstore.records import NewEvent

pytestmark = pytest.mark.django_db


def append(stream_id: str, expected: int, *events: NewEvent, command_id: str | None = None):
    with transaction.atomic():
        return recorder.append(stream_id, expected, list(events), command_id=command_id)


def test_append_then_read_returns_the_same_events_in_order(stream_prefix: str) -> None:
    stream = f"{stream_prefix}-a"
    first = append(stream, 0, NewEvent("TableCreated", {"rules": {"preset": "standard"}}))
    second = append(
        stream,
        1,
        NewEvent("SeatTaken", {"seat": 0, "name": "Zoë ♠"}, metadata={"actor": "u1"}),
        NewEvent("SeatTaken", {"seat": 1}, schema_version=2),
    )

    assert not first.duplicate and not second.duplicate
    assert [e.version for e in second.events] == [2, 3]
    assert second.version == 3
    assert reading.read_stream(stream) == first.events + second.events
    assert reading.read_stream(stream, after_version=1, limit=1) == second.events[:1]
    assert reading.stream_version(stream) == 3
    assert reading.stream_version(f"{stream_prefix}-empty") == 0
    assert reading.stream_head(stream) == (3, second.events[-1].hash)
    positions = [e.position for e in reading.read_stream(stream)]
    assert positions == sorted(positions)
    assert first.events[0].prev_hash == GENESIS_HASH
    assert second.events[0].prev_hash == first.events[0].hash
    assert second.events[1].prev_hash == second.events[0].hash


def test_stale_expected_version_is_refused_with_the_current_version(stream_prefix: str) -> None:
    stream = f"{stream_prefix}-a"
    append(stream, 0, NewEvent("A", {}))
    append(stream, 1, NewEvent("B", {}))

    for stale in (0, 1, 5):
        with pytest.raises(errors.WrongExpectedVersion) as refused, transaction.atomic():
            recorder.append(stream, stale, [NewEvent("C", {})])
        assert (refused.value.stream_id, refused.value.expected) == (stream, stale)
        assert refused.value.current == 2
    assert [e.type for e in reading.read_stream(stream)] == ["A", "B"]


def test_same_command_id_appends_once_and_returns_the_first_result(stream_prefix: str) -> None:
    stream = f"{stream_prefix}-a"
    append(stream, 0, NewEvent("A", {}))
    first = append(stream, 1, NewEvent("B", {"n": 1}), NewEvent("C", {}), command_id="cmd-1")
    # A retry, even with another expected version and payload, is answered from the store.
    again = append(stream, 1, NewEvent("B", {"n": 2}), command_id="cmd-1")
    later = append(stream, 3, NewEvent("B", {"n": 3}), command_id="cmd-1")

    assert not first.duplicate
    assert again.duplicate and later.duplicate
    assert again.events == first.events == later.events
    assert all(e.metadata["command_id"] == "cmd-1" for e in first.events)
    assert reading.stream_version(stream) == 3
    # The same command id on another stream is another command.
    other = append(f"{stream_prefix}-b", 0, NewEvent("A", {}), command_id="cmd-1")
    assert not other.duplicate


def test_next_command_after_a_batch_is_not_taken_for_part_of_it(stream_prefix: str) -> None:
    stream = f"{stream_prefix}-a"
    first = append(stream, 0, NewEvent("A", {}), NewEvent("B", {}), command_id="c1")
    append(stream, 2, NewEvent("C", {}), command_id="c2")
    assert append(stream, 0, NewEvent("A", {}), command_id="c1").events == first.events


@pytest.mark.parametrize(
    ("stream_id", "expected", "events", "command_id", "needle"),
    [
        ("", 0, [NewEvent("A", {})], None, "stream_id"),
        ("x" * 201, 0, [NewEvent("A", {})], None, "stream_id"),
        ("s", -1, [NewEvent("A", {})], None, "expected_version"),
        ("s", 0, [], None, "at least one event"),
        ("s", 0, [NewEvent("", {})], None, "event type"),
        ("s", 0, [NewEvent("A", {}, schema_version=0)], None, "schema_version"),
        ("s", 0, [NewEvent("A", {"x": 0.5})], None, "floats"),
        ("s", 0, [NewEvent("A", {"x": "a\x00b"})], None, "NUL"),
        ("s", 0, [NewEvent("A", {1: "x"})], None, "keys must be strings"),
        ("s", 0, [NewEvent("A", {"x": {1, 2}})], None, "not a JSON value"),
        ("s", 0, [NewEvent("A", {}, metadata={"t": float("nan")})], None, "floats"),
        ("s", 0, [NewEvent("A", {})], "", "command_id"),
        ("s", 0, [{"type": "A"}], None, "NewEvent"),
    ],
)
def test_invalid_appends_are_refused_and_write_nothing(
    stream_prefix: str, stream_id, expected, events, command_id, needle
) -> None:
    stream_id = f"{stream_prefix}{stream_id}" if stream_id == "s" else stream_id
    with pytest.raises(errors.InvalidEvent, match=needle), transaction.atomic():
        recorder.append(stream_id, expected, events, command_id=command_id)
    assert reading.stream_version(stream_id) == 0 if stream_id else True


@pytest.mark.django_db(transaction=True)
def test_append_outside_a_transaction_is_refused(stream_prefix: str) -> None:
    with pytest.raises(errors.AppendOutsideTransaction):
        recorder.append(f"{stream_prefix}-a", 0, [NewEvent("A", {})])
    assert reading.stream_version(f"{stream_prefix}-a") == 0


def test_tuples_come_back_as_lists_and_unicode_is_kept(stream_prefix: str) -> None:
    stream = f"{stream_prefix}-a"
    result = append(stream, 0, NewEvent("A", {"cards": (1, 2), "name": "Ünïcødé ♠"}))
    assert result.events[0].data == {"cards": [1, 2], "name": "Ünïcødé ♠"}
    assert reading.read_stream(stream) == result.events


def test_first_events_can_be_found_by_command_id_alone(stream_prefix: str) -> None:

    append(f"{stream_prefix}-new", 0, NewEvent("TableCreated", {}), command_id="create-x")
    query = Event.objects.filter(command_id="create-x", version=1).values_list("stream_id")
    assert list(query) == [(f"{stream_prefix}-new",)]
    with connection.cursor() as cursor:
        cursor.execute("SET LOCAL enable_seqscan = off")
        cursor.execute("EXPLAIN " + str(query.query).replace("create-x", "'create-x'"))
        plan = " ".join(row[0] for row in cursor.fetchall())
    assert "eventstore_event_first_command_idx" in plan


def test_a_known_head_hash_chains_without_a_read_and_a_wrong_one_appends_nothing(
    stream_prefix: str,
) -> None:
    stream = f"{stream_prefix}-a"
    first = append(stream, 0, NewEvent("A", {}))
    head = first.events[-1].hash
    with transaction.atomic():
        second = recorder.append(stream, 1, [NewEvent("B", {"n": 1})], expected_hash=head)
    assert second.events[0].prev_hash == head
    assert verification.chain_break(reading.read_stream(stream)) is None

    wrong = "f" * 64
    with pytest.raises(errors.WrongExpectedVersion) as refused, transaction.atomic():
        recorder.append(stream, 2, [NewEvent("C", {})], expected_hash=wrong)
    assert refused.value.current == 2
    assert "head hash" in str(refused.value)
    assert [e.type for e in reading.read_stream(stream)] == ["A", "B"]

    for bad in ("abc", 12):
        with pytest.raises(errors.InvalidEvent), transaction.atomic():
            recorder.append(stream, 2, [NewEvent("C", {})], expected_hash=bad)  # type: ignore[arg-type]
