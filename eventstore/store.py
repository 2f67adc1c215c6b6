"""Append to and read from event streams (the public API of the event store).

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
import gc
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import orjson
import psycopg
from django.db import DEFAULT_DB_ALIAS, connection, connections, transaction

from eventstore.hashing import (
    GENESIS_HASH,
    NotCanonicalJSON,
    canonical_json,
    chained_hash,
    check_json_value,
    encoded_hash_parts,
    event_hash,
    heads_digest,
)
from eventstore.signals import events_committed

MAX_ID_LENGTH = 200

__all__ = [
    "GENESIS_HASH",
    "AppendResult",
    "InvalidEvent",
    "NewEvent",
    "StaleTransaction",
    "StoredEvent",
    "WrongExpectedVersion",
    "append",
    "digest",
    "lock_stream",
    "read_all",
    "read_stream",
    "stream_head",
    "stream_heads",
    "stream_version",
    "verify_all",
    "verify_stream",
]


@dataclass(frozen=True)
class NewEvent:
    """An event to append: a past-tense type name and JSON-ready inputs."""

    type: str
    data: dict[str, Any]
    schema_version: int = 1
    metadata: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class StoredEvent:
    """An event as stored: its place in the stream and the global log, and its hashes."""

    stream_id: str
    version: int
    position: int
    type: str
    schema_version: int
    data: dict[str, Any]
    metadata: dict[str, Any]
    recorded_at: datetime
    hash: str
    prev_hash: str

    def to_wire(self) -> list[Any]:
        """This event as a list of JSON/msgpack-ready values (for messages between the
        platform's processes; :meth:`from_wire` reverses it)."""
        return [
            self.version,
            self.position,
            self.type,
            self.schema_version,
            self.data,
            self.metadata,
            self.recorded_at.isoformat(),
            self.hash,
            self.prev_hash,
        ]

    @classmethod
    def from_wire(cls, stream_id: str, item: Sequence[Any]) -> StoredEvent:
        """The event :meth:`to_wire` gave (``ValueError`` for anything else). Its content
        is not vouched for: check it against a trusted hash chain before using it."""
        try:
            version, position, type_, schema_version, data, metadata, recorded, hash_, prev = item
            event = cls(
                stream_id=stream_id,
                version=int(version),
                position=int(position),
                type=str(type_),
                schema_version=int(schema_version),
                data=dict(data),
                metadata=dict(metadata),
                recorded_at=datetime.fromisoformat(recorded),
                hash=str(hash_),
                prev_hash=str(prev),
            )
        except (TypeError, ValueError) as exc:
            raise ValueError(f"not an event on the wire: {exc}") from None
        return event

    def expected_hash(self) -> str:
        """The hash re-computed from this event's content and its ``prev_hash``."""
        return event_hash(
            stream_id=self.stream_id,
            version=self.version,
            type=self.type,
            schema_version=self.schema_version,
            data=self.data,
            metadata=self.metadata,
            prev_hash=self.prev_hash,
        )


@dataclass(frozen=True)
class AppendResult:
    """What an append stored; ``duplicate`` when the command id had already been appended."""

    events: list[StoredEvent]
    duplicate: bool

    @property
    def version(self) -> int:
        """The stream version after this command's events."""
        return self.events[-1].version


class WrongExpectedVersion(Exception):
    """The stream is not at the version the caller expected (someone else appended)."""

    def __init__(self, stream_id: str, expected: int, current: int, reason: str = "") -> None:
        self.stream_id = stream_id
        self.expected = expected
        self.current = current
        message = f"stream {stream_id!r} is at version {current}, the command expected {expected}"
        super().__init__(f"{message}: {reason}" if reason else message)


class StaleTransaction(WrongExpectedVersion):
    """The version matched, but a transaction that started later already appended to the
    stream. Appending now would order this stream's events against the transaction-id order
    that subscriptions read in; retry the whole command in a new transaction (it will
    succeed if the version still matches). Happens only when the transaction wrote before
    appending and raced another appender of the same stream.
    """


class InvalidEvent(ValueError):
    """An append argument that can never be stored (bad id, type, payload...)."""


class AppendOutsideTransaction(RuntimeError):
    """append() was called outside transaction.atomic()."""


# ---------------------------------------------------------------- SQL

EVENT_COLUMNS = (
    "stream_id, version, position, type, schema_version, data, metadata, "
    "recorded_at, hash, prev_hash"
)

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
            "eventstore.store.append must run inside transaction.atomic(), so the caller's "
            "read model commits with the events"
        )


# ---------------------------------------------------------------- reading helpers


def _json(value: Any) -> Any:
    # Django's psycopg 3 backend loads jsonb as text (JSONField decodes it itself). orjson
    # gives the same values as json here: appends refuse floats and integers beyond 64 bits.
    return orjson.loads(value) if isinstance(value, str | bytes) else value


# psycopg's C timestamptz loader. Django installs a Python subclass on its connections
# (to pin the time zone, which it also sets as the session's TimeZone); on the cursors that
# read events we put the C one back: rebuilds read every event (about 5x cheaper per row).
_TIMESTAMPTZ_LOADER = psycopg.adapters.get_loader(
    psycopg.postgres.types["timestamptz"].oid, psycopg.pq.Format.TEXT
)


@contextmanager
def event_cursor(chunked: bool = False) -> Iterator[Any]:
    """A cursor on Django's default connection tuned for reading events."""
    with connection.chunked_cursor() if chunked else connection.cursor() as cursor:
        if _TIMESTAMPTZ_LOADER is not None and hasattr(cursor.cursor, "adapters"):
            cursor.cursor.adapters.register_loader("timestamptz", _TIMESTAMPTZ_LOADER)
        yield cursor


_new_event = object.__new__


def stored_events(rows: Sequence[Sequence[Any]]) -> list[StoredEvent]:
    """StoredEvents from rows of EVENT_COLUMNS, with the cyclic GC paused meanwhile.

    Decoding thousands of events allocates tens of thousands of dicts, which triggers
    collections that scan every live object (about half the decoding time); the events
    hold no reference cycles, so deferring the collector is safe.
    """
    paused = gc.isenabled()
    if paused:
        gc.disable()
    try:
        return [_stored(row) for row in rows]
    finally:
        if paused:
            gc.enable()


def _stored(row: Sequence[Any]) -> StoredEvent:
    """A StoredEvent from a row of EVENT_COLUMNS.

    Fills the frozen dataclass's __dict__ directly: the generated __init__ sets each field
    through object.__setattr__, and this is the hot path of every rebuild (about 2x).
    """
    (
        stream_id,
        version,
        position,
        type_,
        schema_version,
        data,
        metadata,
        recorded_at,
        hash_,
        prev,
    ) = row
    event = _new_event(StoredEvent)
    event.__dict__.update(
        stream_id=stream_id,
        version=version,
        position=position,
        type=type_,
        schema_version=schema_version,
        data=_json(data),
        metadata=_json(metadata),
        recorded_at=recorded_at,
        hash=hash_,
        prev_hash=prev,
    )
    return event


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
        event = _stored(row)
        if events and event.version != events[-1].version + 1:
            break
        events.append(event)
    return events


# ---------------------------------------------------------------- append


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


# ---------------------------------------------------------------- reading


def read_stream(
    stream_id: str, after_version: int = 0, limit: int | None = None
) -> list[StoredEvent]:
    """Events of one stream with version > ``after_version``, in version order."""
    sql = (
        f"SELECT {EVENT_COLUMNS} FROM eventstore_event "
        "WHERE stream_id = %s AND version > %s ORDER BY version"
    )
    params: list[Any] = [stream_id, after_version]
    if limit is not None:
        sql += " LIMIT %s"
        params.append(limit)
    with event_cursor() as cursor:
        cursor.execute(sql, params)
        return stored_events(cursor.fetchall())


def read_all(after_position: int = 0, limit: int = 1000) -> list[StoredEvent]:
    """Committed events in position order (for tools and tests; projections should use
    :func:`eventstore.subscriptions.catch_up`, which never skips late commits)."""
    with event_cursor() as cursor:
        cursor.execute(
            f"SELECT {EVENT_COLUMNS} FROM eventstore_event WHERE position > %s "
            "ORDER BY position LIMIT %s",
            [after_position, limit],
        )
        return stored_events(cursor.fetchall())


def stream_version(stream_id: str) -> int:
    """The stream's current version (0 when it has no events)."""
    head = stream_head(stream_id)
    return head[0] if head else 0


def stream_head(stream_id: str) -> tuple[int, str] | None:
    """``(version, hash)`` of the stream's last event, or None for an empty stream."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT version, hash FROM eventstore_event WHERE stream_id = %s "
            "ORDER BY version DESC LIMIT 1",
            [stream_id],
        )
        row = cursor.fetchone()
    return (row[0], row[1]) if row else None


def _digest_bound(cursor: Any, as_of: int | None) -> int:
    if as_of is not None:
        return as_of
    cursor.execute("SELECT eventstore_safe_tx_bound()::text::bigint")
    return int(cursor.fetchone()[0])


def stream_heads(as_of: int | None = None) -> list[tuple[str, int, str]]:
    """``(stream_id, version, hash)`` of every stream's head, sorted by stream id.

    Counts only events of transactions below the transaction-id bound ``as_of`` (default:
    ``eventstore_safe_tx_bound()``, below which every transaction that could write events
    has finished), so the result for a given bound never changes later.
    """
    return _heads_and_count(as_of)[1]


def _heads_and_count(as_of: int | None) -> tuple[int, list[tuple[str, int, str]], int]:
    with connection.cursor() as cursor:
        bound = _digest_bound(cursor, as_of)
        cursor.execute(
            """
            SELECT DISTINCT ON (stream_id) stream_id, version, hash,
                   count(*) OVER (PARTITION BY stream_id)
              FROM eventstore_event
             WHERE tx_id < %s::text::xid8
             ORDER BY stream_id, version DESC
            """,
            [str(bound)],
        )
        rows = cursor.fetchall()
    heads = sorted((row[0], row[1], row[2]) for row in rows)
    return bound, heads, sum(row[3] for row in rows)


def digest(as_of: int | None = None) -> dict[str, Any]:
    """A digest over every stream head, to publish and compare later.

    ``{"streams", "events", "digest", "as_of"}``: ``digest`` is SHA-256 over one canonical
    JSON line ``[stream_id, version, head_hash]`` per stream in stream-id order (see
    :func:`eventstore.hashing.heads_digest`), over the events of transactions below
    ``as_of``. Keep the whole object: ``digest(as_of=<kept as_of>)`` recomputes the same
    value unless history was rewritten.
    """
    bound, heads, events = _heads_and_count(as_of)
    return {
        "streams": len(heads),
        "events": events,
        "digest": heads_digest(heads),
        "as_of": bound,
        "algorithm": "sha256 over canonical JSON lines [stream_id, version, head_hash]",
    }


# ---------------------------------------------------------------- verification


@dataclass(frozen=True)
class ChainBreak:
    """The first event of a stream whose chain does not hold, and what differs."""

    event: StoredEvent
    reason: str


def chain_break(events: Iterable[StoredEvent]) -> ChainBreak | None:
    """The first event (in version order) whose version, prev_hash or hash is wrong."""
    expected_prev = GENESIS_HASH
    expected_version = 1
    for event in events:
        if event.version != expected_version:
            return ChainBreak(
                event, f"version {event.version} where {expected_version} was expected"
            )
        if event.prev_hash != expected_prev:
            return ChainBreak(
                event,
                f"prev_hash {event.prev_hash} differs from the previous event's hash "
                f"{expected_prev}",
            )
        recomputed = event.expected_hash()
        if recomputed != event.hash:
            return ChainBreak(
                event,
                f"stored hash {event.hash} differs from the recomputed {recomputed} "
                "(type, data, metadata or schema_version changed)",
            )
        expected_prev = event.hash
        expected_version += 1
    return None


def verify_stream(stream_id: str) -> StoredEvent | None:
    """The first event of the stream whose hash chain is broken, or None."""
    found = chain_break(read_stream(stream_id))
    return found.event if found else None


def iter_streams(stream_id: str | None = None, chunk: int = 2000) -> Iterator[list[StoredEvent]]:
    """Every stream's events (or one stream's), one list per stream, in stream-id order."""
    if stream_id is not None:
        yield read_stream(stream_id)
        return
    with transaction.atomic(), event_cursor(chunked=True) as cursor:
        cursor.execute(f"SELECT {EVENT_COLUMNS} FROM eventstore_event ORDER BY stream_id, version")
        current: list[StoredEvent] = []
        while rows := cursor.fetchmany(chunk):
            for row in rows:
                event = _stored(row)
                if current and current[0].stream_id != event.stream_id:
                    yield current
                    current = []
                current.append(event)
        if current:
            yield current


def verify_all() -> StoredEvent | None:
    """The first broken event over all streams (in stream-id order), or None."""
    for events in iter_streams():
        found = chain_break(events)
        if found:
            return found.event
    return None
