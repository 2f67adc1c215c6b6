"""Loading a table's folded state, with a per-process cache of recent states.

Folding a whole stream costs milliseconds; commands would pay it on every bid.  The cache
keeps the last folded :class:`TableState` per table with the hash of its last event.

- An entry put back *after its transaction committed* is history: stored events never
  change, so the state is exact up to its version.  Commands may use it without reading
  the stream first ("trusted"): if another process appended meanwhile, the append's
  expected version fails (and the command is retried on a fresh fold), and a refusal met
  on a trusted state is re-checked on a fresh fold before it is reported.
- Any other entry (put back inside a transaction that may still roll back) is verified
  before use: the stored event at its version must still carry its hash (the hash chain
  then vouches for the whole prefix); otherwise the stream is folded again.

A state is *taken out* of the cache while one thread uses it, so no two threads ever share
a mutable state.

Readers (the selectors) use the read-only interface: :func:`reading_state`,
:func:`reading_with_events`, :func:`reading_notified` and :func:`prefix_state` hand them a
state for the length of a block and put it back themselves; only the command services
take a state out (:func:`take_state`) and offer one back (:func:`put_back`).
"""

from __future__ import annotations

import threading
import uuid
from collections.abc import Iterator, Sequence
from contextlib import contextmanager

from cachetools import LRUCache
from django.db import connection

from eventstore.reading import read_stream
from eventstore.records import StoredEvent
from games.domain.streams import table_stream_id
from games.domain.table import TableState

from .errors import CommandRejected

CACHE_SIZE = 2000
PREFIX_CACHE_SIZE = 512

# table id -> (state, hash of its last event, committed)
_cache: LRUCache[str, tuple[TableState, str, bool]] = LRUCache(maxsize=CACHE_SIZE)
# (table id, version) -> (state folded up to version, hash of that event); read-only states
_prefixes: LRUCache[tuple[str, int], tuple[TableState, str]] = LRUCache(maxsize=PREFIX_CACHE_SIZE)
_lock = threading.Lock()


def parse_table_id(table_id: object) -> uuid.UUID:
    """The table's UUID, or a 404 refusal for anything that is not one."""
    if isinstance(table_id, uuid.UUID):
        return table_id
    try:
        return uuid.UUID(str(table_id))
    except (ValueError, TypeError, AttributeError):
        raise CommandRejected("no_such_table", f"There is no table {table_id!r}.", 404) from None


def _caught_up(
    table_id: uuid.UUID, state: TableState | None, head_hash: str
) -> tuple[TableState, str]:
    stream_id = table_stream_id(table_id)
    events = None
    if state is not None:
        tail = read_stream(stream_id, after_version=state.version - 1)
        if tail and tail[0].version == state.version and tail[0].hash == head_hash:
            events = tail[1:]
    if events is None:
        state, head_hash = TableState(), ""
        events = read_stream(stream_id)
    assert state is not None
    for event in events:
        state.apply(event.type, event.data)
        head_hash = event.hash
    if state.version == 0:
        raise CommandRejected("no_such_table", f"There is no table {table_id}.", 404)
    return state, head_hash


def take_state(table_id: uuid.UUID, trust_committed: bool = False) -> tuple[TableState, str, bool]:
    """``(state, head_hash, verified)`` owned by the caller (taken out of the cache).

    With ``trust_committed`` a committed cache entry is returned as is (``verified`` False:
    the stream may have moved on); otherwise the state is checked and caught up.
    """
    with _lock:
        entry = _cache.pop(str(table_id), None)
    if entry is not None and entry[2] and trust_committed:
        return entry[0], entry[1], False
    state, head_hash = _caught_up(table_id, entry[0] if entry else None, entry[1] if entry else "")
    return state, head_hash, True


def take_committed(table_id: uuid.UUID) -> tuple[TableState, str] | None:
    """``(state, head_hash)`` of a committed cache entry, taken out of the cache, or None
    (no entry, or one that may still roll back). Never reads the database."""
    key = str(table_id)
    with _lock:
        entry = _cache.get(key)
        if entry is None or not entry[2]:
            return None
        del _cache[key]
    return entry[0], entry[1]


def fresh_state(table_id: uuid.UUID) -> tuple[TableState, str]:
    """The table folded from its stream, ignoring the cache."""
    return _caught_up(table_id, None, "")


def put_back(table_id: uuid.UUID, state: TableState, head_hash: str, committed: bool) -> None:
    """Offer a state (and the hash of its last event) back to the cache."""
    key = str(table_id)
    with _lock:
        current = _cache.get(key)
        if current is None or current[0].version <= state.version:
            _cache[key] = (state, head_hash, committed)


@contextmanager
def reading_state(table_id: object) -> Iterator[TableState]:
    """The table's state for reading (views, export); 404 refusal if there is no table.

    Do not change the state; it returns to the cache when the block ends.
    """
    table_uuid = parse_table_id(table_id)
    state, head_hash, _ = take_state(table_uuid)
    yield state
    # Outside a transaction every event read was committed.
    put_back(table_uuid, state, head_hash, committed=not connection.in_atomic_block)


def chained_tail(
    notified: Sequence[StoredEvent], version: int, head_hash: str
) -> list[StoredEvent] | None:
    """``notified`` if they are the events right after ``version``, whose event has hash
    ``head_hash``: versions contiguous, each chained to the one before and hashing to its
    stored hash (so they are exactly the stored events, as a read would give). Else None."""
    if not notified or notified[0].version != version + 1:
        return None
    previous = head_hash
    for offset, event in enumerate(notified):
        if event.version != version + 1 + offset or event.prev_hash != previous:
            return None
        if event.expected_hash() != event.hash:
            return None
        previous = event.hash
    return list(notified)


def tail_reaching(
    notified: Sequence[StoredEvent], after_version: int, version: int, head_hash: str
) -> list[StoredEvent] | None:
    """``notified`` if they are the events after ``after_version`` up to ``version``, whose
    event has hash ``head_hash``: versions contiguous, each chained to the one before and
    hashing to its stored hash, the last one being the committed head (so, by the hash
    chain, they are exactly the stored events, as a read would give). Else None."""
    if not notified or notified[0].version != after_version + 1:
        return None
    if notified[-1].version != version or notified[-1].hash != head_hash:
        return None
    for offset, event in enumerate(notified):
        if event.version != after_version + 1 + offset or event.expected_hash() != event.hash:
            return None
        if offset and event.prev_hash != notified[offset - 1].hash:
            return None
    return list(notified)


@contextmanager
def reading_with_events(
    table_id: uuid.UUID, after_version: int, notified: Sequence[StoredEvent] = ()
) -> Iterator[tuple[TableState, list[StoredEvent]]]:
    """The table's state caught up, for reading only, with its stored events after
    ``after_version`` (up to the state's version), from ONE read of the stream at most, or
    none: ``notified`` (events a commit notice carried) are used when they chain onto the
    cached committed state (:func:`chained_tail`). Raises the 404 refusal.

    A committed cached state is taken without reading the stream; the single read fetches
    the events from just before the older of (cached version, ``after_version``), checks
    that the cached head still carries its hash (as the cache's own catch-up does), folds
    the new events in and keeps the viewer's slice. The state goes back to the cache when
    the block ends.
    """
    stream_id = table_stream_id(table_id)
    state, head_hash, verified = take_state(table_id, trust_committed=True)
    tail = None
    if not verified and after_version == state.version:
        tail = chained_tail(notified, state.version, head_hash)
    if tail is not None:
        # The commit notice carried the new events and they chain onto the cached head:
        # the read would give exactly these (the reader is at the cached version).
        stored = tail
        for event in stored:
            state.apply(event.type, event.data)
            head_hash = event.hash
    elif verified:
        # Caught up by the cache (it read the stream): read the reader's events only.
        wanted = state.version - after_version
        stored = (
            read_stream(stream_id, after_version=after_version, limit=wanted) if wanted > 0 else []
        )
    else:
        start = min(after_version, state.version - 1)
        stored = read_stream(stream_id, after_version=start)
        head = state.version - 1 - start
        if head >= len(stored) or stored[head].hash != head_hash:
            # The cached head is not the stored one: fold afresh (rare; the cache decides).
            state, head_hash = fresh_state(table_id)
            stored = read_stream(stream_id, after_version=after_version)
        for event in stored:
            if event.version > state.version:
                state.apply(event.type, event.data)
                head_hash = event.hash
    try:
        yield state, [event for event in stored if after_version < event.version <= state.version]
    finally:
        # Outside a transaction every event read was committed.
        put_back(table_id, state, head_hash, committed=not connection.in_atomic_block)


@contextmanager
def reading_notified(
    table_id: uuid.UUID, after_version: int, notified: Sequence[StoredEvent]
) -> Iterator[tuple[TableState, list[StoredEvent]] | None]:
    """The cached committed state advanced by a commit notice's events, for reading only,
    with those events; None when that needs the database (no committed state cached at
    ``after_version``, or events that do not chain onto it: :func:`chained_tail`; or one
    cached further on, by a command of this process, that the events do not reach exactly:
    :func:`tail_reaching`). Never touches the database, so an async consumer may call it
    on its event loop."""
    taken = take_committed(table_id)
    if taken is None:
        yield None
        return
    state, head_hash = taken
    tail = None
    if state.version == after_version:
        tail = chained_tail(notified, state.version, head_hash)
        for event in tail or ():
            state.apply(event.type, event.data)
            head_hash = event.hash
    elif state.version > after_version:
        # This process's command already folded them (the socket and the command share
        # the cache): the notice brings the events, the state is already there.
        tail = tail_reaching(notified, after_version, state.version, head_hash)
    try:
        yield None if tail is None else (state, tail)
    finally:
        # Committed: the events came from a commit notice and chain onto committed ones.
        put_back(table_id, state, head_hash, committed=True)


def prefix_state(
    table_id: uuid.UUID, version: int, *, read: bool = True
) -> tuple[TableState, str] | None:
    """``(state, hash of its last event)``: the table folded up to ``version`` only (what a
    spectator of a table with a spectator delay is shown), or None when it is not cached and
    ``read`` is False (so the caller never touches the database).

    The state is shared by every thread that asks for the same prefix: read it, never apply
    to it. Stored events never change, so a prefix folded from committed events stays exact.
    """
    key = (str(table_id), version)
    with _lock:
        hit = _prefixes.get(key)
    if hit is not None or not read:
        return hit
    events = read_stream(table_stream_id(table_id), after_version=0, limit=version)
    state = TableState.fold(events)
    if state.version == 0:
        raise CommandRejected("no_such_table", f"There is no table {table_id}.", 404)
    found = (state, events[-1].hash)
    if not connection.in_atomic_block:
        # Outside a transaction every event read was committed.
        with _lock:
            _prefixes[key] = found
    return found


def forget(table_id: object | None = None) -> None:
    """Drop cached states (one table, or all)."""
    with _lock:
        if table_id is None:
            _cache.clear()
            _prefixes.clear()
        else:
            _cache.pop(str(table_id), None)
            for key in [key for key in _prefixes if key[0] == str(table_id)]:
                _prefixes.pop(key, None)
