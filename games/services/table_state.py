"""Loading a table's folded state, with a per-process cache of recent states.

Folding a whole stream costs milliseconds; commands would pay it on every bid.  The cache
keeps the last folded :class:`TableState` per table with the hash of the last event it
folded, and catches it up with one indexed read of the events from that version on.  The
hash chain makes the check complete: if the stored event at the cached version still has
the cached hash, the whole prefix is the one the state was folded from; otherwise (a
rolled-back transaction, another connection's uncommitted events) the stream is re-folded.

A state is *taken out* of the cache while one thread uses it, so no two threads ever share
a mutable state.
"""

from __future__ import annotations

import threading
import uuid
from collections import OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager

from eventstore.store import read_stream
from games.domain.table import TableState
from games.models import stream_id_of

from .errors import CommandRejected

CACHE_SIZE = 2000

_cache: OrderedDict[str, tuple[TableState, str]] = OrderedDict()
_lock = threading.Lock()


def parse_table_id(table_id: object) -> uuid.UUID:
    """The table's UUID, or a 404 refusal for anything that is not one."""
    if isinstance(table_id, uuid.UUID):
        return table_id
    try:
        return uuid.UUID(str(table_id))
    except (ValueError, TypeError, AttributeError):
        raise CommandRejected("no_such_table", f"There is no table {table_id!r}.", 404) from None


def take_state(table_id: uuid.UUID) -> tuple[TableState, str]:
    """The table's current state and head hash, owned by the caller (out of the cache)."""
    key = str(table_id)
    stream_id = stream_id_of(table_id)
    with _lock:
        entry = _cache.pop(key, None)
    state = TableState()
    head_hash = ""
    events = None
    if entry is not None:
        cached, cached_hash = entry
        tail = read_stream(stream_id, after_version=cached.version - 1)
        if tail and tail[0].version == cached.version and tail[0].hash == cached_hash:
            state, head_hash, events = cached, cached_hash, tail[1:]
    if events is None:
        events = read_stream(stream_id)
    for event in events:
        state.apply(event.type, event.data)
        head_hash = event.hash
    if state.version == 0:
        raise CommandRejected("no_such_table", f"There is no table {table_id}.", 404)
    return state, head_hash


def put_back(table_id: uuid.UUID, state: TableState, head_hash: str) -> None:
    """Offer a state (and the hash of its last event) back to the cache."""
    key = str(table_id)
    with _lock:
        current = _cache.get(key)
        if current is None or current[0].version <= state.version:
            _cache[key] = (state, head_hash)
            _cache.move_to_end(key)
        while len(_cache) > CACHE_SIZE:
            _cache.popitem(last=False)


@contextmanager
def reading_state(table_id: object) -> Iterator[TableState]:
    """The table's state for reading (views, export); 404 refusal if there is no table.

    Do not change the state; it returns to the cache when the block ends.
    """
    table_uuid = parse_table_id(table_id)
    state, head_hash = take_state(table_uuid)
    yield state
    put_back(table_uuid, state, head_hash)


def forget(table_id: object | None = None) -> None:
    """Drop cached states (one table, or all)."""
    with _lock:
        if table_id is None:
            _cache.clear()
        else:
            _cache.pop(str(table_id), None)
