"""Audit of stored history: hash chains plus verifiers other apps register.

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
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from django.db import connection

from eventstore.store import StoredEvent, chain_break, iter_streams


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


def set_table_stream_resolver(resolver: TableStreamResolver) -> None:
    """Let the tables app say which stream holds table ``ID`` (for ``--table ID``)."""
    _table_stream_resolver[:] = [resolver]


def table_stream_id(table_id: str) -> str:
    """The stream of a table: the registered resolver's answer, else the first of
    ``table-<ID>`` and ``<ID>`` that has events (``table-<ID>`` when neither has)."""
    if _table_stream_resolver:
        return _table_stream_resolver[0](table_id)
    for candidate in (f"table-{table_id}", table_id):
        if stream_exists(candidate):
            return candidate
    return f"table-{table_id}"
