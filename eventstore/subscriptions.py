"""Projections that follow the global event log with a stored checkpoint.

Why transaction ids: positions come from a sequence when a row is inserted, but
transactions commit in any order, so position 11 can become visible before position 10.
A reader that keeps ``position > last`` skips 10 for ever. Instead we read only events of
transactions below a bound — the current snapshot's oldest running transaction of *this*
database (``eventstore_safe_tx_bound()``, migration 0002) — in ``(tx_id, position)``
order, and keep ``(tx_id, position)`` as the checkpoint. Every transaction below the bound
that could write events has finished, and any that can still commit sorts above it, so
nothing can appear behind the checkpoint later. Writers never wait for each other or for
readers; a long-running transaction in this database only delays delivery. See
docs/eventstore.md.
"""

from __future__ import annotations

import gc
import logging
import threading
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

import orjson
import psycopg
from django.db import InterfaceError, OperationalError, connection, transaction

from eventstore.reading import EVENT_COLUMNS, event_cursor, stored_events
from eventstore.records import StoredEvent

logger = logging.getLogger(__name__)

__all__ = [
    "CompactEvent",
    "Progress",
    "Projection",
    "broken_stream_counts",
    "broken_streams",
    "catch_up",
    "checkpoint_of",
    "get_projection",
    "lag_of",
    "mark_broken",
    "rebuild",
    "register_projection",
    "registered_projections",
]


#: Called with the number of events each committed batch handled.
Progress = Callable[[int], None]


class CompactEvent(NamedTuple):
    """An event without its metadata, hashes and time, for projections that declare
    ``compact = True`` (rebuilds read and decode about half as much per event)."""

    stream_id: str
    version: int
    position: int
    type: str
    schema_version: int
    data: dict[str, Any]


class Projection:
    """A read model built from events. Subclass and set ``name``.

    ``handle`` (or ``handle_batch``, which calls it per event by default) runs inside the
    transaction that also stores the checkpoint, on Django's default connection: write
    with the ORM and the writes commit exactly when the checkpoint does. ``reset`` drops
    everything the projection built (used by :func:`rebuild`).

    A stream whose events cannot be applied (any exception but a lost connection or a
    concurrency error) is set aside: the batch is applied again stream by stream in
    savepoints, the failing stream is recorded as broken (``eventstore_brokenstream``,
    with the event and the error) and its later events are no longer delivered; every
    other stream goes on. So ``handle_batch`` may see events again whose writes were
    rolled back, or one stream's events alone: state kept in memory between calls must
    be checked against the event versions.

    ``stream_prefixes`` and ``event_types`` narrow what is delivered, in the batch's SQL
    (empty: everything). A projection that reads a few event types of a busy log then
    reads only those, and its checkpoint still moves past the rest (to the safe bound),
    so a quiet projection never rescans what it skipped.
    """

    name: str = ""
    #: True: ``handle``/``handle_batch`` receive :class:`CompactEvent` values (stream id,
    #: version, position, type, schema version, data) instead of full StoredEvents.
    compact: bool = False
    #: Only events of streams whose id starts with one of these (empty: every stream).
    stream_prefixes: tuple[str, ...] = ()
    #: Only events of these types (empty: every type).
    event_types: tuple[str, ...] = ()
    #: The projector loop that runs it (``services.projector``: one thread a lane, each
    #: with its own wake-up), so a slow projection does not queue in front of another.
    lane: str = "main"
    #: Its place in its lane's round (lower first; then by name): what a lane's appends
    #: feed and a reader waits for goes before what nobody waits for.
    order: int = 100

    def handle(self, event: StoredEvent) -> None:
        raise NotImplementedError

    def handle_batch(self, events: Sequence[StoredEvent]) -> None:
        """Handle events in log order; override to write a whole batch at once."""
        for event in events:
            self.handle(event)

    def reset(self) -> None:
        raise NotImplementedError

    def after_catch_up(self) -> None:
        """Called at the end of every :func:`catch_up` (events handled or not), outside
        its transactions: for work a projection keeps outside the log and finishes after
        its batches commit (the match results' pending appends)."""

    def wants(self, stream_id: str, event_type: str) -> bool:
        """Whether an event of this stream and type is delivered to it (the filters)."""
        return (not self.stream_prefixes or stream_id.startswith(self.stream_prefixes)) and (
            not self.event_types or event_type in self.event_types
        )


_registry: dict[str, Projection] = {}
_registry_lock = threading.Lock()


def register_projection(projection: Projection) -> Projection:
    """Register a projection under its name (call from an AppConfig.ready()).

    Registering the same object twice is harmless; another object under a taken name is
    refused, so two projections can never share a checkpoint.
    """
    name = projection.name
    if not isinstance(name, str) or not name or len(name) > 200:
        raise ValueError("a projection needs a name of 1 to 200 characters")
    with _registry_lock:
        existing = _registry.get(name)
        if existing is not None and existing is not projection:
            raise ValueError(f"a different projection is already registered as {name!r}")
        _registry[name] = projection
    return projection


def registered_projections() -> list[Projection]:
    """Every registered projection, by name."""
    with _registry_lock:
        return [_registry[name] for name in sorted(_registry)]


def get_projection(name: str) -> Projection:
    """The registered projection called ``name`` (KeyError naming the known ones if none)."""
    with _registry_lock:
        try:
            return _registry[name]
        except KeyError:
            known = ", ".join(sorted(_registry)) or "none"
            raise KeyError(f"no projection named {name!r} (registered: {known})") from None


def unregister_projection(name: str) -> None:
    """Forget a projection (tests)."""
    with _registry_lock:
        _registry.pop(name, None)


ENSURE_SQL = (
    "INSERT INTO eventstore_checkpoint (name, last_tx_id, last_position, updated_at) "
    "VALUES (%s, 0, 0, now()) ON CONFLICT (name) DO NOTHING"
)

# Checkpoint rows this process has made sure of. catch_up runs every round of the
# projector for every projection, so it makes the row once per process, not once a call
# (a transaction fewer per projection per round); a row deleted since (a test's flush)
# is made again by the batch that finds it missing.
_ensured: set[str] = set()


def _ensure_checkpoint(name: str) -> None:
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(ENSURE_SQL, [name])
    _ensured.add(name)


def checkpoint_of(name: str) -> tuple[int, int]:
    """``(last_tx_id, last_position)`` of a projection; ``(0, 0)`` before its first event."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT last_tx_id, last_position FROM eventstore_checkpoint WHERE name = %s",
            [name],
        )
        row = cursor.fetchone()
    return (row[0], row[1]) if row else (0, 0)


# The bound is taken from the statement's snapshot, before this transaction has an id of
# its own (locking the checkpoint row assigns one), so our own id never holds it back.
LOCK_SQL = """
SELECT eventstore_safe_tx_bound()::text::bigint, last_tx_id, last_position
  FROM eventstore_checkpoint WHERE name = %s FOR UPDATE
"""

# The batch rows end with their transaction id (for the checkpoint).
BATCH_SQL = """
SELECT {columns}, tx_id::text::bigint
  FROM eventstore_event
 WHERE tx_id < %s::text::xid8
   AND (tx_id, position) > (%s::text::xid8, %s){filters}
 ORDER BY tx_id, position
 LIMIT %s
"""

COMPACT_COLUMNS = "stream_id, version, position, type, schema_version, data"
FULL_BATCH_SQL = BATCH_SQL.format(columns=EVENT_COLUMNS, filters="")
COMPACT_BATCH_SQL = BATCH_SQL.format(columns=COMPACT_COLUMNS, filters="")


def _like_prefix(prefix: str) -> str:
    return prefix.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"


def _filters(projection: Projection) -> tuple[str, list[Any]]:
    """The SQL (``AND ...``) and parameters of the projection's filters (empty: none)."""
    filters, extra = "", []
    if projection.stream_prefixes:
        filters += "\n   AND stream_id LIKE ANY(%s)"
        extra.append([_like_prefix(prefix) for prefix in projection.stream_prefixes])
    if projection.event_types:
        filters += "\n   AND type = ANY(%s)"
        extra.append(list(projection.event_types))
    return filters, extra


def _batch_query(projection: Projection, params: list[Any]) -> tuple[str, list[Any]]:
    """The batch's SQL and parameters, with the projection's filters (if any)."""
    columns = COMPACT_COLUMNS if projection.compact else EVENT_COLUMNS
    if not projection.stream_prefixes and not projection.event_types:
        return (COMPACT_BATCH_SQL if projection.compact else FULL_BATCH_SQL), params
    filters, extra = _filters(projection)
    sql = BATCH_SQL.format(columns=columns, filters=filters)
    return sql, [*params[:3], *extra, params[3]]


#: Events counted behind a checkpoint at most (a longer lag reads as this many).
LAG_COUNT_LIMIT = 100_000

LAG_SQL = """
SELECT count(*), EXTRACT(EPOCH FROM now() - min(recorded_at))::float8
  FROM (SELECT recorded_at
          FROM eventstore_event
         WHERE (tx_id, position) > (%s::text::xid8, %s){filters}
         ORDER BY tx_id, position
         LIMIT %s) AS behind
"""


def lag_of(projection: Projection) -> tuple[int, float]:
    """How far ``projection`` is behind the log: the committed events it has yet to read
    (at most ``LAG_COUNT_LIMIT``) and the age in seconds of the oldest one (0 when none).
    Read-only: the metrics and the readiness check (``services.metrics``, ``.health``)."""
    last_tx, last_position = checkpoint_of(projection.name)
    filters, extra = _filters(projection)
    with connection.cursor() as cursor:
        cursor.execute(
            LAG_SQL.format(filters=filters),
            [str(last_tx), last_position, *extra, LAG_COUNT_LIMIT],
        )
        count, seconds = cursor.fetchone()
    return int(count), max(0.0, float(seconds or 0.0))


SAVE_SQL = """
UPDATE eventstore_checkpoint SET last_tx_id = %s, last_position = %s, updated_at = now()
 WHERE name = %s
"""


def _catch_up_batch(projection: Projection, batch_size: int) -> int:
    try:
        return _apply_batch(projection, batch_size, stream_by_stream=False)
    except TRANSIENT_ERRORS:
        raise
    except Exception as error:
        # Some stream's events could not be applied and the whole batch rolled back. Apply
        # it again one stream at a time, each in a savepoint, so that only the streams that
        # fail are set aside (BrokenStream) and every other stream goes on.
        logger.warning(
            "projection %s: a batch failed (%s: %s); applying it stream by stream",
            projection.name,
            type(error).__name__,
            error,
        )
        return _apply_batch(projection, batch_size, stream_by_stream=True)


def _apply_batch(projection: Projection, batch_size: int, *, stream_by_stream: bool) -> int:
    with transaction.atomic(), event_cursor() as cursor:
        cursor.execute(LOCK_SQL, [projection.name])
        row = cursor.fetchone()
        if row is None:
            # The checkpoint row went away after this process made it (a test's flush):
            # make it again. This transaction writes no events, so the id the insert
            # gives it can only lower the bound (deliver later), never skip.
            cursor.execute(ENSURE_SQL, [projection.name])
            cursor.execute(LOCK_SQL, [projection.name])
            row = cursor.fetchone()
        bound, last_tx, last_position = row
        if (last_tx, last_position) >= (bound, 0):
            return 0
        params = [str(bound), str(last_tx), last_position, batch_size]
        filtered = bool(projection.stream_prefixes or projection.event_types)
        cursor.execute(*_batch_query(projection, params))
        rows = cursor.fetchall()
        if filtered and len(rows) < batch_size:
            # Every event of a transaction below the bound that passes the filters is in
            # rows: the checkpoint can move to the bound itself (what the filters left out
            # is never read again; the bound's own transaction, still running, has
            # positions above 0).
            checkpoint = (bound, 0)
        elif rows:
            # Both row shapes have the position third and end with the transaction id.
            checkpoint = (rows[-1][-1], rows[-1][2])
        else:
            return 0
        if not rows:
            cursor.execute(SAVE_SQL, [*checkpoint, projection.name])
            return 0
        if projection.compact:
            events: Sequence[Any] = compact_events(rows)
        else:
            events = stored_events([row[:-1] for row in rows])
        broken = _broken_streams(projection.name)
        if broken:
            events = [event for event in events if event.stream_id not in broken]
        if events:
            if stream_by_stream:
                _apply_stream_by_stream(projection, events)
            else:
                projection.handle_batch(events)
        cursor.execute(SAVE_SQL, [*checkpoint, projection.name])
        return len(rows)


def _apply_stream_by_stream(projection: Projection, events: Sequence[Any]) -> None:
    by_stream: dict[str, list[Any]] = {}
    for event in events:
        by_stream.setdefault(event.stream_id, []).append(event)
    for stream_events in by_stream.values():
        if _applied(projection, stream_events):
            continue
        # Find the event that fails: the ones before it stay applied.
        for event in stream_events:
            failure = _failure(projection, [event])
            if failure is not None:
                mark_broken(
                    projection.name, event.stream_id, event.version, event.position, failure
                )
                break


def _applied(projection: Projection, events: Sequence[Any]) -> bool:
    return _failure(projection, events) is None


def _failure(projection: Projection, events: Sequence[Any]) -> str | None:
    """None when ``handle_batch(events)`` succeeded in a savepoint, else why it failed
    (its writes rolled back to the savepoint)."""
    try:
        with transaction.atomic():
            projection.handle_batch(events)
    except TRANSIENT_ERRORS:
        raise
    except Exception as error:
        return f"{type(error).__name__}: {error}"[:MAX_REASON_LENGTH]
    return None


# ---------------------------------------------------------------- broken streams

# Errors of the connection or of concurrency (lost connection, deadlock, serialization
# failure): no fault of a stream's events, so the batch is retried, nothing set aside.
TRANSIENT_ERRORS: tuple[type[BaseException], ...] = (
    OperationalError,
    InterfaceError,
    psycopg.OperationalError,
    psycopg.InterfaceError,
)

MAX_REASON_LENGTH = 2000

# Per projection, the streams it no longer follows (as committed; loaded on first use).
_broken: dict[str, set[str]] = {}
_broken_lock = threading.Lock()


def _broken_streams(name: str) -> set[str]:
    with _broken_lock:
        known = _broken.get(name)
    if known is None:
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT stream_id FROM eventstore_brokenstream WHERE projection = %s", [name]
            )
            known = {row[0] for row in cursor.fetchall()}
        with _broken_lock:
            known = _broken.setdefault(name, known)
    return known


def mark_broken(name: str, stream_id: str, version: int, position: int, reason: str) -> None:
    """Stop feeding projection ``name`` the events of ``stream_id`` from ``version`` on,
    recording why (shown in the admin; ``rebuild`` clears it). Runs in the caller's
    transaction: the record commits with the batch's checkpoint."""
    logger.error(
        "projection %s: stream %s set aside at version %s: %s", name, stream_id, version, reason
    )
    with connection.cursor() as cursor:
        cursor.execute(
            """
            INSERT INTO eventstore_brokenstream
                (projection, stream_id, event_version, event_position, reason, broken_at)
            VALUES (%s, %s, %s, %s, %s, now())
            ON CONFLICT (projection, stream_id) DO NOTHING
            """,
            [name, stream_id, version, position, reason],
        )

    def remember() -> None:
        with _broken_lock:
            _broken.setdefault(name, set()).add(stream_id)

    transaction.on_commit(remember)


def broken_streams(name: str) -> list[tuple[str, int, str]]:
    """``(stream_id, event_version, reason)`` of every stream projection ``name`` set aside."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT stream_id, event_version, reason FROM eventstore_brokenstream "
            "WHERE projection = %s ORDER BY stream_id",
            [name],
        )
        return [(row[0], row[1], row[2]) for row in cursor.fetchall()]


def broken_stream_counts() -> dict[str, int]:
    """Per projection, how many streams it set aside (projections with none are absent)."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT projection, count(*) FROM eventstore_brokenstream GROUP BY projection"
        )
        return {row[0]: int(row[1]) for row in cursor.fetchall()}


def _forget_broken(name: str) -> None:
    with connection.cursor() as cursor:
        cursor.execute("DELETE FROM eventstore_brokenstream WHERE projection = %s", [name])

    def forget() -> None:
        with _broken_lock:
            _broken.pop(name, None)

    transaction.on_commit(forget)


def compact_events(rows: Sequence[Sequence[Any]]) -> list[CompactEvent]:
    """CompactEvents from batch rows (data decoded with orjson; the GC paused meanwhile,
    as in :func:`eventstore.reading.stored_events`)."""
    loads = orjson.loads
    paused = gc.isenabled()
    if paused:
        gc.disable()
    try:
        return [
            CompactEvent(
                stream_id,
                version,
                position,
                type_,
                schema_version,
                loads(data) if isinstance(data, str | bytes) else data,
            )
            for stream_id, version, position, type_, schema_version, data, _tx in rows
        ]
    finally:
        if paused:
            gc.enable()


def catch_up(
    projection: Projection,
    batch_size: int = 1000,
    max_events: int | None = None,
    progress: Progress | None = None,
) -> int:
    """Feed the projection every event after its checkpoint that is safe to read; returns
    how many it handled; ``progress(count)`` is called after each committed batch. Each
    batch and its checkpoint commit in one transaction, so after a crash the interrupted
    batch (whose writes rolled back with it) is delivered again: no event is ever skipped
    or applied twice. Call it outside any transaction that has written: that
    transaction's own id would hold the bound below its events. Concurrent callers for
    one projection take turns on the checkpoint row's lock.
    """
    if batch_size < 1:
        raise ValueError("batch_size must be at least 1")
    if projection.name not in _ensured:
        _ensure_checkpoint(projection.name)
    handled = 0
    while max_events is None or handled < max_events:
        size = batch_size if max_events is None else min(batch_size, max_events - handled)
        count = _catch_up_batch(projection, size)
        handled += count
        if progress is not None:
            progress(count)
        if count < size:
            break
    projection.after_catch_up()
    return handled


def rebuild(
    projection: Projection, batch_size: int = 5000, progress: Progress | None = None
) -> int:
    """Reset the projection and its checkpoint, then replay the whole log into it;
    ``progress(count)`` after each batch (e.g. to draw a progress bar)."""
    _ensure_checkpoint(projection.name)
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(
            "SELECT 1 FROM eventstore_checkpoint WHERE name = %s FOR UPDATE", [projection.name]
        )
        projection.reset()
        _forget_broken(projection.name)
        cursor.execute(SAVE_SQL, [0, 0, projection.name])
    return catch_up(projection, batch_size=batch_size, progress=progress)
