"""Reading the event log: one stream, the global log, stream heads.

Reads run on Django's default connection; the decoding path (:func:`stored_events`) is
the hot path of every rebuild and audit.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import orjson
import psycopg
from django.db import connection, transaction

from eventstore.records import StoredEvent

__all__ = [
    "EVENT_COLUMNS",
    "event_cursor",
    "iter_streams",
    "read_all",
    "read_stream",
    "stored_event",
    "stored_events",
    "stream_head",
    "stream_heads",
    "stream_version",
]

EVENT_COLUMNS = (
    "stream_id, version, position, type, schema_version, data, metadata, "
    "recorded_at, hash, prev_hash"
)


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
        return [stored_event(row) for row in rows]
    finally:
        if paused:
            gc.enable()


def stored_event(row: Sequence[Any]) -> StoredEvent:
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


def stream_versions(stream_ids: Sequence[str]) -> dict[str, int]:
    """The current version of each of these streams, in one query over their head rows
    (streams without events are left out)."""
    if not stream_ids:
        return {}
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT stream_id, version FROM eventstore_stream WHERE stream_id = ANY(%s)",
            [list(stream_ids)],
        )
        return {str(key): int(version) for key, version in cursor.fetchall()}


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
    return heads_as_of(as_of)[1]


def heads_as_of(as_of: int | None) -> tuple[int, list[tuple[str, int, str]], int]:
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
                event = stored_event(row)
                if current and current[0].stream_id != event.stream_id:
                    yield current
                    current = []
                current.append(event)
        if current:
            yield current
