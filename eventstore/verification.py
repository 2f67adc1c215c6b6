"""Audit of stored history: hash chains, the digest over stream heads, and verifiers other
apps register.

The event store checks what it owns (versions, prev_hash links, hashes, stream heads);
an app registers a verifier for what only it understands, e.g. the tables app checks
every deal against the revealed seed's commitment::

    from eventstore.verification import register_verifier
    register_verifier(check_deals)   # check_deals(stream_id, events) -> problem or None

A verifier returns None when the stream is sound, else a :class:`Problem` or a sentence
(str). Verifiers must only read.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import connection

from eventstore.hashing import GENESIS_HASH, heads_digest
from eventstore.reading import heads_as_of, iter_streams, read_stream
from eventstore.records import StoredEvent

__all__ = [
    "ChainBreak",
    "NoTableStreamResolver",
    "Problem",
    "chain_break",
    "digest",
    "find_problems",
    "register_verifier",
    "set_table_stream_resolver",
    "table_stream_id",
    "verify_all",
    "verify_stream",
]


def digest(as_of: int | None = None) -> dict[str, Any]:
    """A digest over every stream head, to publish and compare later.

    ``{"streams", "events", "digest", "as_of"}``: ``digest`` is SHA-256 over one canonical
    JSON line ``[stream_id, version, head_hash]`` per stream in stream-id order (see
    :func:`eventstore.hashing.heads_digest`), over the events of transactions below
    ``as_of``. Keep the whole object: ``digest(as_of=<kept as_of>)`` recomputes the same
    value unless history was rewritten.
    """
    bound, heads, events = heads_as_of(as_of)
    return {
        "streams": len(heads),
        "events": events,
        "digest": heads_digest(heads),
        "as_of": bound,
        "algorithm": "sha256 over canonical JSON lines [stream_id, version, head_hash]",
    }


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


def verify_all() -> StoredEvent | None:
    """The first broken event over all streams (in stream-id order), or None."""
    for events in iter_streams():
        found = chain_break(events)
        if found:
            return found.event
    return None


@dataclass(frozen=True)
class Problem:
    """Something wrong with a stream: where (the event, when known) and what differs."""

    stream_id: str
    message: str
    version: int | None = None
    position: int | None = None
    check: str = "hash chain"

    def __str__(self) -> str:
        where = f"stream {self.stream_id}"
        if self.version is not None:
            where += f", version {self.version}"
        if self.position is not None:
            where += f", position {self.position}"
        return f"{where} [{self.check}]: {self.message}"

    @classmethod
    def at(cls, event: StoredEvent, message: str, check: str) -> Problem:
        """A problem located at one stored event."""
        return cls(event.stream_id, message, event.version, event.position, check)


Verifier = Callable[[str, Sequence[StoredEvent]], "Problem | str | None"]

_verifiers: list[tuple[str, Verifier]] = []
_verifiers_lock = threading.Lock()


def register_verifier(verifier: Verifier, name: str | None = None) -> Verifier:
    """Add a check run on every stream by ``verify_events`` (idempotent per function)."""
    label = name or getattr(verifier, "__qualname__", repr(verifier))
    with _verifiers_lock:
        if all(existing is not verifier for _, existing in _verifiers):
            _verifiers.append((label, verifier))
    return verifier


def unregister_verifier(verifier: Verifier) -> None:
    """Remove a verifier (tests)."""
    with _verifiers_lock:
        _verifiers[:] = [(n, v) for n, v in _verifiers if v is not verifier]


def registered_verifiers() -> list[tuple[str, Verifier]]:
    with _verifiers_lock:
        return list(_verifiers)


def _head_problem(stream_id: str, events: Sequence[StoredEvent]) -> Problem | None:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT version, head_hash FROM eventstore_stream WHERE stream_id = %s", [stream_id]
        )
        row = cursor.fetchone()
    last = events[-1]
    if row is None:
        return Problem.at(last, "the stream has events but no head row", "stream head")
    if (row[0], row[1]) != (last.version, last.hash):
        return Problem.at(
            last,
            f"head row says version {row[0]} hash {row[1]}, last event is version "
            f"{last.version} hash {last.hash}",
            "stream head",
        )
    return None


def stream_problems(stream_id: str, events: Sequence[StoredEvent]) -> Iterator[Problem]:
    """Every problem of one stream: its chain first, then its head row, then verifiers."""
    if not events:
        return
    found = chain_break(events)
    if found is not None:
        yield Problem.at(found.event, found.reason, "hash chain")
    head = _head_problem(stream_id, events)
    if head is not None:
        yield head
    for label, verifier in registered_verifiers():
        try:
            outcome = verifier(stream_id, events)
        except Exception as exc:  # a crashing verifier is itself a finding, not a pass
            outcome = f"verifier raised {type(exc).__name__}: {exc}"
        if outcome is None:
            continue
        if isinstance(outcome, Problem):
            yield outcome
        else:
            yield Problem(stream_id, str(outcome), check=label)


def find_problems(stream_id: str | None = None) -> Iterator[Problem]:
    """Problems over all streams (stream-id order), or over one stream."""
    for events in iter_streams(stream_id):
        if events:
            yield from stream_problems(events[0].stream_id, events)


def stream_exists(stream_id: str) -> bool:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1 FROM eventstore_event WHERE stream_id = %s LIMIT 1", [stream_id])
        return cursor.fetchone() is not None


TableStreamResolver = Callable[[str], str]
_table_stream_resolver: list[TableStreamResolver] = []


class NoTableStreamResolver(LookupError):
    """No app said how a table id names its stream (the store knows no tables)."""


def set_table_stream_resolver(resolver: TableStreamResolver) -> None:
    """Let the tables app say which stream holds table ``ID`` (for ``--table ID``)."""
    _table_stream_resolver[:] = [resolver]


def table_stream_id(table_id: str) -> str:
    """The stream of a table, as the registered resolver spells it."""
    if not _table_stream_resolver:
        raise NoTableStreamResolver("no app registered a table stream resolver")
    return _table_stream_resolver[0](table_id)
