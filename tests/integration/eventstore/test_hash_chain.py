"""Hash chains, verify_events, extra verifiers and the audit digest."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from django.core.management import CommandError, call_command
from django.db import connection, transaction

from eventstore import reading, recorder, records, verification
from eventstore.hashing import GENESIS_HASH
from eventstore.records import NewEvent
from eventstore.verification import Problem, register_verifier, unregister_verifier


def independent_hash(event: dict[str, Any], prev_hash: str) -> str:
    """The documented recipe, written out again so a drift in the store shows."""
    body = {
        "stream_id": event["stream_id"],
        "version": event["version"],
        "type": event["type"],
        "schema_version": event["schema_version"],
        "data": event["data"],
        "metadata": event["metadata"],
        "prev_hash": prev_hash,
    }
    text = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def make_stream(stream: str) -> list[records.StoredEvent]:
    with transaction.atomic():
        recorder.append(stream, 0, [NewEvent("TableCreated", {"rules": "standard", "é": "♠"})])
        recorder.append(
            stream,
            1,
            [NewEvent("BidPlaced", {"seat": 0, "bid": 4}), NewEvent("BidPlaced", {"seat": 1})],
            command_id="bid-1",
        )
    return reading.read_stream(stream)


@contextmanager
def trigger_disabled() -> Iterator[None]:
    """As the owner, switch the append-only trigger off (inside the test's transaction,
    which is rolled back afterwards): what a database administrator could do."""
    with connection.cursor() as cursor:
        cursor.execute("ALTER TABLE eventstore_event DISABLE TRIGGER eventstore_event_append_only")
        yield
        cursor.execute("ALTER TABLE eventstore_event ENABLE TRIGGER eventstore_event_append_only")


def tamper(sql: str, params: list[Any]) -> None:
    with trigger_disabled(), connection.cursor() as cursor:
        cursor.execute(sql, params)
        assert cursor.rowcount == 1


def run_verify(*args: str) -> str:
    from io import StringIO

    out = StringIO()
    call_command("verify_events", *args, stdout=out, stderr=out)
    return out.getvalue()


pytestmark = pytest.mark.django_db


def test_hashes_follow_the_documented_recipe(stream_prefix: str) -> None:
    events = make_stream(f"{stream_prefix}-a")
    prev = GENESIS_HASH
    for event in events:
        assert event.prev_hash == prev
        assert event.hash == independent_hash(event.__dict__, prev)
        prev = event.hash
    assert verification.verify_stream(f"{stream_prefix}-a") is None


def run_verify_process(*args: str) -> subprocess.CompletedProcess[str]:
    """``manage.py verify_events ARGS`` in a child process on the test database."""
    settings = connection.settings_dict
    user, password = quote(settings["USER"], safe=""), quote(settings["PASSWORD"], safe="")
    url = (
        f"postgresql://{user}:{password}@{settings['HOST'] or 'localhost'}"
        f":{settings['PORT'] or 5432}/{settings['NAME']}"
    )
    env = {**os.environ, "SPADES_DB_ROLE": "owner", "DATABASE_OWNER_URL": url}
    return subprocess.run(
        [sys.executable, "manage.py", "verify_events", *args],
        cwd=Path(__file__).resolve().parents[3],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def verify_all_streams() -> tuple[int, str]:
    """``verify_events --all-problems`` over every stream: (exit code, output). The test
    database is shared by the whole run, so other apps' streams are in it too."""
    from io import StringIO

    out = StringIO()
    try:
        call_command("verify_events", "--all-problems", stdout=out, stderr=out)
    except CommandError as failed:
        return failed.returncode, out.getvalue() + str(failed)
    return 0, out.getvalue()


def test_verify_events_passes_on_intact_history(stream_prefix: str) -> None:
    make_stream(f"{stream_prefix}-a")
    assert "every check holds" in run_verify("--stream", f"{stream_prefix}-a")
    code, output = verify_all_streams()
    assert stream_prefix not in output
    assert code == 0 or "broken: stream" in output


@pytest.mark.parametrize(
    ("sql", "reason", "broken_version"),
    [
        (
            "UPDATE eventstore_event SET data = jsonb_set(data, '{bid}', '7') "
            "WHERE stream_id = %s AND version = 2",
            "recomputed",
            2,
        ),
        (
            'UPDATE eventstore_event SET metadata = \'{"actor": "mallory"}\'::jsonb '
            "WHERE stream_id = %s AND version = 2",
            "recomputed",
            2,
        ),
        (
            "UPDATE eventstore_event SET prev_hash = repeat('1', 64) "
            "WHERE stream_id = %s AND version = 2",
            "prev_hash",
            2,
        ),
        (
            "DELETE FROM eventstore_event WHERE stream_id = %s AND version = 2",
            "version 3 where 2",
            3,
        ),
    ],
)
def test_an_altered_event_is_caught_and_named(
    stream_prefix: str, sql: str, reason: str, broken_version: int
) -> None:
    stream = f"{stream_prefix}-a"
    events = make_stream(stream)
    make_stream(f"{stream_prefix}-b")
    tamper(sql, [stream])

    broken = verification.verify_stream(stream)
    assert broken is not None and broken.version == broken_version
    assert verification.verify_stream(f"{stream_prefix}-b") is None
    with pytest.raises(CommandError) as failed:
        run_verify("--stream", stream)
    assert failed.value.returncode == 1
    code, everything = verify_all_streams()
    assert code == 1
    broken_event = events[broken_version - 1]
    for message in (str(failed.value), everything):
        assert f"stream {stream}, version {broken_version}, position {broken_event.position}" in (
            message
        )
        assert reason in message
    assert f"{stream_prefix}-b" not in everything


def test_rewriting_a_whole_chain_consistently_is_caught_by_the_head_row(
    stream_prefix: str,
) -> None:
    """Re-hashing every event after an edit keeps the chain valid; the head row (and any
    digest or export published earlier) still disagree."""
    stream = f"{stream_prefix}-a"
    events = make_stream(stream)
    forged_data = {**events[2].data, "bid": 13}
    forged = records.StoredEvent(**{**events[2].__dict__, "data": forged_data})
    tamper(
        "UPDATE eventstore_event SET data = %s::jsonb, hash = %s WHERE stream_id = %s "
        "AND version = 3",
        [json.dumps(forged_data), forged.expected_hash(), stream],
    )
    assert verification.verify_stream(stream) is None  # the chain alone cannot tell
    with pytest.raises(CommandError, match="stream head"):
        run_verify("--stream", stream)


def test_registered_verifiers_run_and_fail_the_audit(stream_prefix: str) -> None:
    stream = f"{stream_prefix}-a"
    make_stream(stream)

    def no_big_bids(stream_id: str, events: list[records.StoredEvent]) -> Problem | None:
        for event in events:
            if event.data.get("bid", 0) > 3:
                return Problem.at(event, "bid above 3", "deal commitment")
        return None

    register_verifier(no_big_bids)
    try:
        with pytest.raises(CommandError) as failed:
            run_verify("--stream", stream)
        assert "version 2" in str(failed.value) and "[deal commitment]: bid above 3" in str(
            failed.value
        )
    finally:
        unregister_verifier(no_big_bids)
    assert "every check holds" in run_verify("--stream", stream)


def test_table_option_resolves_the_tables_stream(stream_prefix: str) -> None:
    make_stream(f"{stream_prefix}-t")
    saved = verification._table_stream_resolver[:]
    try:
        verification._table_stream_resolver.clear()  # the store itself knows no tables
        with pytest.raises(CommandError, match="no app registered a table stream resolver"):
            run_verify("--table", stream_prefix)
        verification.set_table_stream_resolver(lambda table_id: f"{table_id}-t")
        assert f"stream {stream_prefix}-t" in run_verify("--table", stream_prefix)
        with pytest.raises(CommandError) as missing:
            run_verify("--table", "no-such-table")
        assert missing.value.returncode == 2
    finally:
        verification._table_stream_resolver[:] = saved


@pytest.mark.django_db(transaction=True)
def test_digest_is_reproducible_and_changes_when_history_is_rewritten(
    stream_prefix: str,
) -> None:
    stream = f"{stream_prefix}-a"
    make_stream(stream)
    kept = verification.digest()
    assert kept["streams"] >= 1 and kept["events"] >= 3
    assert (stream, 3, reading.stream_head(stream)[1]) in reading.stream_heads(kept["as_of"])
    make_stream(f"{stream_prefix}-b")  # new history does not change an earlier digest
    assert verification.digest(as_of=kept["as_of"]) == kept
    assert verification.digest()["digest"] != kept["digest"]

    # An administrator rewrites the last event and re-hashes it (as owner, trigger off,
    # committed): the chain still verifies, but the kept digest proves the rewrite.
    original = reading.read_stream(stream)[-1]
    forged = records.StoredEvent(**{**original.__dict__, "data": {"seat": 1, "bid": 13}})
    rewrite = "UPDATE eventstore_event SET data = %s::jsonb, hash = %s WHERE position = %s"
    with transaction.atomic():
        tamper(rewrite, [json.dumps(forged.data), forged.expected_hash(), original.position])
    try:
        assert verification.verify_stream(stream) is None
        assert verification.digest(as_of=kept["as_of"])["digest"] != kept["digest"]
        # The real command, in its own process, exits non-zero naming the event.
        process = run_verify_process("--stream", stream)
        assert process.returncode == 1, process.stderr
        assert f"stream {stream}, version 3, position {original.position}" in process.stderr
        assert "[stream head]" in process.stderr
    finally:  # put history back: the test database is shared by the whole run
        with transaction.atomic():
            tamper(rewrite, [json.dumps(original.data), original.hash, original.position])
    assert verification.digest(as_of=kept["as_of"]) == kept


def test_audit_digest_endpoint(client: Any) -> None:
    response = client.get("/api/audit/digest")
    assert response.status_code == 200
    body = response.json()
    assert set(body) >= {"streams", "events", "digest", "as_of"}
    assert client.get(f"/api/audit/digest?as_of={body['as_of']}").json() == body
    bad = client.get("/api/audit/digest?as_of=yesterday")
    assert bad.status_code == 400
    assert "as_of" in json.dumps(bad.json())


def test_admin_lists_events_read_only(admin_client: Any, stream_prefix: str) -> None:
    make_stream(f"{stream_prefix}-a")
    listing = admin_client.get("/admin/eventstore/event/", {"q": f"{stream_prefix}-a"})
    assert listing.status_code == 200
    assert b"BidPlaced" in listing.content
    assert admin_client.get("/admin/eventstore/event/add/").status_code == 403
