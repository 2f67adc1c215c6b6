"""Loading a table's folded state, with a per-process cache of recent states.

Folding a whole stream costs milliseconds; commands would pay it on every bid.  The cache
keeps the last folded :class:`TableState` per table and catches it up with the events
after its version (one indexed read).  A state is *taken out* of the cache while one
thread uses it, so no two threads ever share a mutable state, and it goes back only when
it holds committed events: after commit for commands, and for readers only outside a
transaction.
"""

from __future__ import annotations

import threading
import uuid
from collections import OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager

from django.db import connection, transaction

from eventstore.store import read_stream
from games.domain.table import TableState
from games.models import stream_id_of

from .errors import CommandRejected

CACHE_SIZE = 2000

_cache: OrderedDict[str, TableState] = OrderedDict()
_lock = threading.Lock()


def parse_table_id(table_id: object) -> uuid.UUID:
    """The table's UUID, or a 404 refusal for anything that is not one."""
    if isinstance(table_id, uuid.UUID):
        return table_id
    try:
        return uuid.UUID(str(table_id))
    except (ValueError, TypeError, AttributeError):
        raise CommandRejected("no_such_table", f"There is no table {table_id!r}.", 404) from None


def take_state(table_id: uuid.UUID) -> TableState:
    """The table's current state, owned by the caller (taken out of the cache)."""
    key = str(table_id)
    with _lock:
        state = _cache.pop(key, None)
    if state is None:
        state = TableState()
    for event in read_stream(stream_id_of(table_id), after_version=state.version):
        state.apply(event.type, event.data)
    if state.version == 0:
        raise CommandRejected("no_such_table", f"There is no table {table_id}.", 404)
    return state


def put_back(table_id: uuid.UUID, state: TableState) -> None:
    """Offer a state holding only committed events back to the cache."""
    key = str(table_id)
    with _lock:
        current = _cache.get(key)
        if current is None or current.version <= state.version:
            _cache[key] = state
            _cache.move_to_end(key)
        while len(_cache) > CACHE_SIZE:
            _cache.popitem(last=False)


def put_back_after_commit(table_id: uuid.UUID, state: TableState) -> None:
    """Return a command's state to the cache once its transaction has committed."""
    transaction.on_commit(lambda: put_back(table_id, state))


@contextmanager
def reading_state(table_id: object) -> Iterator[TableState]:
    """The table's state for reading (views, export); 404 refusal if there is no table.

    Do not change the state; it returns to the cache when the block ends.
    """
    table_uuid = parse_table_id(table_id)
    state = take_state(table_uuid)
    yield state
    if not connection.in_atomic_block:
        put_back(table_uuid, state)


def forget(table_id: object | None = None) -> None:
    """Drop cached states (one table, or all): tests, and after an owner edits history."""
    with _lock:
        if table_id is None:
            _cache.clear()
        else:
            _cache.pop(str(table_id), None)
