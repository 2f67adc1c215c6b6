"""Recording events: the one-statement append, the stream lock, prepared statements.

Every write happens inside the caller's ``transaction.atomic()`` on Django's default
connection, so a command's read model and its events commit or roll back together.

Concurrency: each stream has a head row in ``eventstore_stream``; an append is one SQL
statement that compare-and-sets that row (version must equal the expected version) and
inserts the batch only if it did. Concurrent appenders to one stream queue on the row lock
and all but the first find the version moved: :class:`WrongExpectedVersion`. The unique
``(stream_id, version)`` constraint on the events themselves backs this up.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any

import orjson
import psycopg
from django.db import DEFAULT_DB_ALIAS, connection, connections

from eventstore.errors import (
    AppendOutsideTransaction,
    InvalidEvent,
    StaleTransaction,
    WrongExpectedVersion,
)
from eventstore.hashing import (
    GENESIS_HASH,
    NotCanonicalJSON,
    canonical_json,
    chained_hash,
    check_json_value,
    encoded_hash_parts,
)
from eventstore.reading import EVENT_COLUMNS, stored_event
from eventstore.records import AppendResult, NewEvent, StoredEvent
from eventstore.signals import events_committed
from telemetry.metrics import count_appended

MAX_ID_LENGTH = 200

__all__ = ["append", "lock_stream", "prepared_cursor"]


# The append is ONE statement: move the stream's head row if it is at the expected version
# and hash (and the command is new), and insert the batch only if it moved. The hashes are
# chained in Python from the head hash the caller knows (or from one read of the head row);
# the UPDATE's WHERE clause makes that hash part of the compare-and-set, so a wrong or stale
# head hash can never chain an event to the wrong predecessor. A lost race matches no head
# row, so nothing is inserted: no error, no aborted transaction, no partial batch. Only then
# does a second query tell why. The statement is prepared on the server (a handful of
# shapes: batch size, new or existing stream, read model), so it is parsed and planned once
# per connection.
MOVE_EXISTING_HEAD = """
UPDATE eventstore_stream
   SET version = %s, head_hash = %s, head_tx_id = pg_current_xact_id(), updated_at = now()
 WHERE stream_id = %s AND version = %s AND head_hash = %s
   AND head_tx_id <= pg_current_xact_id(){command_is_new}
RETURNING 1
"""

COMMAND_IS_NEW = """
   AND NOT EXISTS (SELECT 1 FROM eventstore_event WHERE stream_id = %s AND command_id = %s)"""

CREATE_HEAD = """
INSERT INTO eventstore_stream (stream_id, version, head_hash, head_tx_id)
VALUES (%s, %s, %s, pg_current_xact_id())
ON CONFLICT (stream_id) DO NOTHING
RETURNING 1
"""

APPEND_TEMPLATE = """
WITH moved AS ({move}){read_model}
INSERT INTO eventstore_event
    (stream_id, version, type, schema_version, data, metadata, command_id, hash, prev_hash)
SELECT %s, b.version, b.type, b.schema_version, b.data, b.metadata, b.command_id,
       b.hash, b.prev_hash
  FROM (VALUES {rows})
       AS b (version, type, schema_version, data, metadata, command_id, hash, prev_hash)
 WHERE EXISTS (SELECT 1 FROM moved)
 ORDER BY b.version
RETURNING position, version, recorded_at
"""

ROW_PLACEHOLDERS = (
    "(%s::int, %s::text, %s::int, %s::jsonb, %s::jsonb, %s::text, %s::text, %s::text)"
)

HEAD_HASH_SQL = "SELECT head_hash FROM eventstore_stream WHERE stream_id = %s AND version = %s"

HEAD_SQL = """
SELECT
    (SELECT version FROM eventstore_stream WHERE stream_id = %(stream)s),
    (SELECT head_hash::text FROM eventstore_stream WHERE stream_id = %(stream)s),
    (SELECT version FROM eventstore_event
      WHERE stream_id = %(stream)s AND command_id = %(command)s)
"""


# ---------------------------------------------------------------- validation


def _check_id(value: object, what: str) -> str:
    if not isinstance(value, str) or not value or len(value) > MAX_ID_LENGTH:
        raise InvalidEvent(f"{what} must be a non-empty string of at most {MAX_ID_LENGTH} chars")
    if "\x00" in value:
        raise InvalidEvent(f"{what} must not contain NUL characters")
    return value


class _Encoded:
    """One event of a batch, validated and encoded once for the row and the hash."""

    __slots__ = ("type", "schema_version", "data", "metadata", "data_json", "metadata_json")

    def __init__(self, new: NewEvent, command_id: str | None) -> None:
        if not isinstance(new, NewEvent):
            raise InvalidEvent(f"expected NewEvent, got {type(new).__name__}")
        _check_id(new.type, "event type")
        if type(new.schema_version) is not int or new.schema_version < 1:
            raise InvalidEvent(f"{new.type}: schema_version must be a positive integer")
        if not isinstance(new.data, dict) or not isinstance(new.metadata, dict):
            raise InvalidEvent(f"{new.type}: data and metadata must be dicts")
        metadata = dict(new.metadata)
        if command_id is not None:
            metadata["command_id"] = command_id
        try:
            check_json_value(new.data, f"{new.type}.data")
            check_json_value(metadata, f"{new.type}.metadata")
        except NotCanonicalJSON as exc:
            raise InvalidEvent(str(exc)) from exc
        self.type = new.type
        self.schema_version = new.schema_version
        self.data_json = canonical_json(new.data)
        self.metadata_json = canonical_json(metadata)
        # Decoded back so the returned event equals what a later read gives (tuples ->
        # lists, no shared mutable payload with the caller).
        self.data = orjson.loads(self.data_json)
        self.metadata = orjson.loads(self.metadata_json)


def _require_atomic() -> None:
    if not connection.in_atomic_block:
        raise AppendOutsideTransaction(
            "eventstore.recorder.append must run inside transaction.atomic(), so the caller's "
            "read model commits with the events"
        )


def _events_of_command(cursor: Any, stream_id: str, first_version: int) -> list[StoredEvent]:
    """The batch a command appended: its first event has the command id column set, and
    the batch's events are the contiguous run that share its ``metadata.command_id``."""
    cursor.execute(
        f"""
        SELECT {EVENT_COLUMNS} FROM eventstore_event
         WHERE stream_id = %s AND version >= %s
           AND metadata->>'command_id' = (
               SELECT command_id FROM eventstore_event WHERE stream_id = %s AND version = %s)
         ORDER BY version
        """,
        [stream_id, first_version, stream_id, first_version],
    )
    events: list[StoredEvent] = []
    for row in cursor.fetchall():
        event = stored_event(row)
        if events and event.version != events[-1].version + 1:
            break
        events.append(event)
    return events


class _PreparedCursor(psycopg.Cursor):  # type: ignore[type-arg]
    """psycopg's server-side binding cursor that prepares every statement it runs.

    Django's connections use client-side binding and leave psycopg's automatic preparation
    off; the append statement is long, so parsing and planning it cost as much as running
    it. Prepared, each connection pays that once per statement shape.
    """

    def execute(
        self,
        query: Any,
        params: Any = None,
        *,
        prepare: bool | None = None,
        binary: bool | None = None,
    ) -> Any:
        return super().execute(
            query, params, prepare=True if prepare is None else prepare, binary=binary
        )


@contextmanager
def prepared_cursor() -> Iterator[Any]:
    """A cursor on the default connection that prepares what it runs.

    When queries are observed (DEBUG's query log, execute wrappers such as
    ``CaptureQueriesContext``) it is wrapped like any Django cursor. Otherwise it is one
    psycopg cursor kept per connection, with Django's error translation and checks but
    not its cursor wrapper, which costs about 25 us a statement: a tenth of an append.
    """
    db = connections[DEFAULT_DB_ALIAS]
    db.close_if_health_check_failed()
    db.ensure_connection()
    db.validate_thread_sharing()
    db.validate_no_broken_transaction()
    raw = db.connection
    if db.execute_wrappers or db.queries_logged:
        with db.wrap_database_errors:
            wrapped = db._prepare_cursor(_PreparedCursor(raw))
        with wrapped as cursor:
            yield cursor
        return
    kept = getattr(db, "_eventstore_cursor", None)
    if kept is None or kept.connection is not raw or kept.closed:
        kept = _PreparedCursor(raw)
        db._eventstore_cursor = kept
    with db.wrap_database_errors:
        yield kept


@functools.lru_cache(maxsize=256)
def _append_sql(rows: int, new_stream: bool, with_command: bool, read_model_sql: str) -> str:
    """The append statement's text for one shape (the same text object every time, which
    psycopg's query and prepared-statement caches look up by)."""
    if new_stream:
        move = CREATE_HEAD
    else:
        move = MOVE_EXISTING_HEAD.format(command_is_new=COMMAND_IS_NEW if with_command else "")
    read_model_cte = ""
    if read_model_sql:
        read_model_cte = (
            f",\nread_model AS ({read_model_sql} AND EXISTS (SELECT 1 FROM moved) RETURNING 1)"
        )
    return APPEND_TEMPLATE.format(
        move=move, read_model=read_model_cte, rows=", ".join([ROW_PLACEHOLDERS] * rows)
    )


def _append_statement(
    stream_id: str,
    expected_version: int,
    prev_hash: str,
    batch: Sequence[_Encoded],
    command_id: str | None,
    read_model: tuple[str, Sequence[Any]] | None,
) -> tuple[str, list[Any], list[tuple[str, str]]]:
    """``(sql, params, [(prev_hash, hash) per event])`` of the one-statement append."""
    rows: list[Any] = []
    chain: list[tuple[str, str]] = []
    previous = prev_hash
    for offset, event in enumerate(batch, start=1):
        version = expected_version + offset
        prefix, suffix = encoded_hash_parts(
            stream_id=stream_id,
            version=version,
            type=event.type,
            schema_version=event.schema_version,
            data_json=event.data_json,
            metadata_json=event.metadata_json,
        )
        this_hash = chained_hash(prefix, previous, suffix)
        rows += [
            version,
            event.type,
            event.schema_version,
            event.data_json,
            event.metadata_json,
            command_id if offset == 1 else None,
            this_hash,
            previous,
        ]
        chain.append((previous, this_hash))
        previous = this_hash
    new_version = expected_version + len(batch)
    if expected_version == 0:
        move_params = [stream_id, new_version, previous]
    else:
        move_params = [new_version, previous, stream_id, expected_version, prev_hash]
        if command_id is not None:
            move_params += [stream_id, command_id]
    read_model_sql, read_model_params = (read_model[0], read_model[1]) if read_model else ("", ())
    sql = _append_sql(len(batch), expected_version == 0, command_id is not None, read_model_sql)
    return sql, [*move_params, *read_model_params, stream_id, *rows], chain


def append(
    stream_id: str,
    expected_version: int,
    events: Sequence[NewEvent],
    *,
    command_id: str | None = None,
    read_model: tuple[str, Sequence[Any]] | None = None,
    expected_hash: str | None = None,
    context: Mapping[str, Any] | None = None,
) -> AppendResult:
    """Append ``events`` to ``stream_id`` if it is at ``expected_version`` (0: new stream).

    Runs in the caller's ``transaction.atomic()``, or, with ``read_model``, also outside
    one: ``read_model`` is ``(sql, params)`` of an ``UPDATE ... WHERE ...`` statement of the
    caller's read model that becomes part of the append's own statement (the store adds
    ``AND`` "the events were inserted" to its WHERE clause). One statement is one
    transaction, so the read model still commits exactly with the events, in a single
    round trip (in autocommit the statement's commit is the transaction's).

    ``expected_hash`` is the hash of the stream's event at ``expected_version``, when the
    caller knows it (a folded state remembers it): the new events are chained to it without
    reading the head first, and the append only happens if the head really has that hash.
    ``context`` is what the caller knows about the commit (e.g. who is to act next); the
    store passes it to the ``events_committed`` receivers as it is.

    Raises :class:`WrongExpectedVersion` (with ``current``) when the stream moved,
    :class:`InvalidEvent` for arguments that can
    never be stored. With a ``command_id`` already appended to this stream, appends nothing
    and returns the first result with ``duplicate=True``. After the commit,
    ``eventstore.signals.events_committed`` is sent with the stored events.
    """
    _check_id(stream_id, "stream_id")
    if type(expected_version) is not int or expected_version < 0:
        raise InvalidEvent("expected_version must be an integer >= 0")
    if command_id is not None:
        _check_id(command_id, "command_id")
    if not events:
        raise InvalidEvent("append needs at least one event")
    batch = [_Encoded(new, command_id) for new in events]
    if read_model is None:
        _require_atomic()
    if expected_hash is not None and (
        not isinstance(expected_hash, str) or len(expected_hash) != len(GENESIS_HASH)
    ):
        raise InvalidEvent("expected_hash must be a 64-character hex SHA-256")
    prev_hash = GENESIS_HASH if expected_version == 0 else expected_hash

    with prepared_cursor() as cursor:
        if prev_hash is None:
            cursor.execute(HEAD_HASH_SQL, [stream_id, expected_version])
            head = cursor.fetchone()
            prev_hash = head[0] if head else None
        chain: list[tuple[str, str]] = []
        inserted: list[Any] = []
        if prev_hash is not None:
            sql, params, chain = _append_statement(
                stream_id, expected_version, prev_hash, batch, command_id, read_model
            )
            cursor.execute(sql, params)
            inserted = sorted(cursor.fetchall(), key=lambda row: row[1])  # by version
        if not inserted:
            # The stream was not at the expected version and hash, or the command is known.
            cursor.execute(HEAD_SQL, {"stream": stream_id, "command": command_id})
            current, head_hash, command_version = cursor.fetchone()
            if command_version is not None:
                return AppendResult(_events_of_command(cursor, stream_id, command_version), True)
            current = current or 0
            if current != expected_version:
                raise WrongExpectedVersion(stream_id, expected_version, current)
            if head_hash != prev_hash:
                raise WrongExpectedVersion(
                    stream_id,
                    expected_version,
                    current,
                    "the stream's head hash is not the caller's expected_hash",
                )
            raise StaleTransaction(
                stream_id,
                expected_version,
                current,
                "a later transaction appended first; retry in a new transaction",
            )

    stored = [
        StoredEvent(
            stream_id=stream_id,
            version=version,
            position=position,
            type=event.type,
            schema_version=event.schema_version,
            data=event.data,
            metadata=event.metadata,
            recorded_at=recorded_at,
            hash=this_hash,
            prev_hash=previous,
        )
        for (position, version, recorded_at), event, (previous, this_hash) in zip(
            inserted, batch, chain, strict=True
        )
    ]
    facts = dict(context) if context else {}
    connections[DEFAULT_DB_ALIAS].on_commit(lambda: count_appended(stored))
    connections[DEFAULT_DB_ALIAS].on_commit(
        lambda: events_committed.send(
            sender=None, stream_id=stream_id, events=stored, context=facts
        )
    )
    return AppendResult(stored, False)


def lock_stream(stream_id: str) -> bool:
    """Hold ``stream_id``'s head row until the caller's transaction ends: every other
    appender to the stream waits, then finds the version moved. For a command that keeps
    losing optimistic races; False when the stream has no events yet."""
    _require_atomic()
    with prepared_cursor() as cursor:
        cursor.execute(
            "SELECT 1 FROM eventstore_stream WHERE stream_id = %s FOR UPDATE", [stream_id]
        )
        return cursor.fetchone() is not None
