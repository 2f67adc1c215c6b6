"""Signed checkpoints catch what the hash chains cannot: a database owner who rewrites a
stream consistently (every hash recomputed, the head row moved too)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from io import StringIO
from pathlib import Path

import orjson
import pytest
from django.core.management import CommandError, call_command
from django.db import connection, transaction

from eventstore import reading, recorder
from eventstore.hashing import GENESIS_HASH
from eventstore.records import NewEvent, StoredEvent
from eventstore.signed_checkpoints import read_checkpoints

from .test_hash_chain import run_verify_process

pytestmark = pytest.mark.django_db(transaction=True)


def command(name: str, *args: str) -> str:
    out = StringIO()
    call_command(name, *args, stdout=out, stderr=out)
    return out.getvalue()


def failure(name: str, *args: str) -> CommandError:
    with pytest.raises(CommandError) as failed:
        command(name, *args)
    return failed.value


@pytest.fixture
def key(tmp_path: Path) -> Path:
    path = tmp_path / "checkpoint.key"
    assert "public key" in command("checkpoint_key", "--out", str(path))
    return path


def published_until(key: Path, out: Path, stream: str, timeout: float = 60) -> None:
    """Publish until a checkpoint covers ``stream``'s head (other test processes'
    transactions can hold the safe bound back for a moment)."""
    deadline = time.monotonic() + timeout
    head = reading.stream_head(stream)
    while True:
        command("publish_checkpoint", "--key", str(key), "--out", str(out))
        if read_checkpoints(out)[-1].heads.get(stream) == head:
            return
        assert time.monotonic() < deadline, "no checkpoint covered the stream"
        time.sleep(0.05)


def a_stream(stream: str) -> list[StoredEvent]:
    with transaction.atomic():
        recorder.append(
            stream,
            0,
            [NewEvent("BidPlaced", {"seat": s, "bid": 3}) for s in range(3)],
        )
    return reading.read_stream(stream)


@contextmanager
def trigger_disabled() -> Iterator[None]:
    """What a database owner can do: switch the append-only trigger off, and on again."""
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("ALTER TABLE eventstore_event DISABLE TRIGGER eventstore_event_append_only")
        try:
            yield
        finally:
            cursor.execute(
                "ALTER TABLE eventstore_event ENABLE TRIGGER eventstore_event_append_only"
            )


def rewrite(events: list[StoredEvent], data: dict[int, dict[str, object]]) -> None:
    """Give events new data and recompute every hash after them, and the head row: a
    consistent rewrite that the chain and the head check cannot tell."""
    previous = GENESIS_HASH
    with trigger_disabled(), connection.cursor() as cursor:
        for event in events:
            changed = StoredEvent(
                **{
                    **event.__dict__,
                    "data": data.get(event.version, event.data),
                    "prev_hash": previous,
                }
            )
            new_hash = changed.expected_hash()
            cursor.execute(
                "UPDATE eventstore_event SET data = %s::jsonb, prev_hash = %s, hash = %s "
                "WHERE position = %s",
                [orjson.dumps(changed.data).decode(), previous, new_hash, event.position],
            )
            previous = new_hash
        cursor.execute(
            "UPDATE eventstore_stream SET head_hash = %s WHERE stream_id = %s",
            [previous, events[0].stream_id],
        )


def test_a_consistent_rewrite_by_the_owner_is_caught_against_signed_checkpoints(
    stream_prefix: str, key: Path, tmp_path: Path
) -> None:
    stream = f"{stream_prefix}-a"
    original = a_stream(stream)
    out = tmp_path / "checkpoints.jsonl"
    published_until(key, out, stream)
    public = f"{key}.pub"
    assert "no published history changed" in command(
        "verify_events", "--stream", stream, "--against", str(out), "--public-key", public
    )

    rewrite(original, {2: {"seat": 1, "bid": 13}})
    try:
        assert reading.read_stream(stream)[1].data["bid"] == 13
        assert "every check holds" in command("verify_events", "--stream", stream)

        caught = failure("verify_events", "--stream", stream, "--against", str(out))
        assert caught.returncode == 1
        message = str(caught)
        assert "\n" not in message and f"stream {stream} changed" in message
        # The real command, in its own process: non-zero and one line naming the stream.
        process = run_verify_process(
            "--stream", stream, "--against", str(out), "--public-key", public
        )
        assert process.returncode == 1
        assert f"stream {stream} changed" in process.stderr
        assert len(process.stderr.strip().splitlines()) == 1, process.stderr
        # and no new checkpoint papers over it
        refused = failure("publish_checkpoint", "--key", str(key), "--out", str(out))
        assert "not publishing" in str(refused) and stream in str(refused)
    finally:  # put history back: the test database is shared by the whole run
        rewrite(original, {2: original[1].data})
    assert reading.read_stream(stream) == original
    assert "no published history changed" in command("verify_events", "--against", str(out))


def test_a_tampered_or_foreign_checkpoint_file_is_refused_in_one_line(
    stream_prefix: str, key: Path, tmp_path: Path
) -> None:
    stream = f"{stream_prefix}-a"
    a_stream(stream)
    out = tmp_path / "checkpoints.jsonl"
    published_until(key, out, stream)
    command("publish_checkpoint", "--key", str(key), "--out", str(out))
    lines = out.read_bytes().splitlines(keepends=True)
    assert len(lines) >= 3  # the header and two checkpoints at least

    def refused(content: bytes | None, *extra: str) -> str:
        target = tmp_path / "other.jsonl"
        if content is not None:
            target.write_bytes(content)
        error = failure("verify_events", "--stream", stream, "--against", str(target), *extra)
        assert error.returncode == 1 and "\n" not in str(error)
        target.unlink(missing_ok=True)
        return str(error)

    assert "No such file" in refused(None)
    assert "not JSON" in refused(b"garbage\n")
    assert "empty" in refused(b"")
    assert "not a signed checkpoint file" in refused(b'{"format": "other"}\n')
    # a published digest edited: its signature no longer holds
    record = orjson.loads(lines[1])
    record["digest"] = "0" * 64
    forged = lines[0] + orjson.dumps(record) + b"\n" + b"".join(lines[2:])
    assert "signature does not verify" in refused(forged)
    # a checkpoint dropped from the middle: the chain of checkpoints breaks
    assert "checkpoint 2 where 1 was expected" in refused(lines[0] + b"".join(lines[2:]))
    # the public key of another publisher
    other = tmp_path / "other.key"
    command("checkpoint_key", "--out", str(other))
    assert "not signed with the given public key" in refused(
        out.read_bytes(), "--public-key", f"{other}.pub"
    )
    assert "not a PEM public key" in refused(out.read_bytes(), "--public-key", str(out))
    # publishing with another key onto this file is refused too
    error = failure("publish_checkpoint", "--key", str(other), "--out", str(out))
    assert "not signed with the given public key" in str(error)
    assert "exists already" in str(failure("checkpoint_key", "--out", str(key)))
