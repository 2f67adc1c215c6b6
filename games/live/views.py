"""What a WebSocket consumer sends, through the ONE per-viewer filter of the REST API
(``games.selectors.views``): the viewer's table view and events."""

from __future__ import annotations

import threading
from typing import Any


def table_state(table_id: str, viewer: Any) -> dict[str, Any] | None:
    """The viewer's ``table_view``, or None when there is no such table."""
    from games.selectors.views import table_view
    from games.services.errors import CommandRejected

    try:
        return table_view(table_id, viewer)
    except CommandRejected as refusal:
        if refusal.status == 404:
            return None
        raise


def events_since(
    table_id: str, viewer: Any, after: int
) -> tuple[int, list[dict[str, Any]], dict[str, Any]]:
    """(V, the viewer's events with ``after < version <= V``, the viewer's view at V).

    One fold and one read (``games.selectors.views.viewer_update``), so the view and the
    events are of one version. Connections of one table take turns here: the cached fold
    is taken out of the cache while in use, so a second connection reading at the same
    moment would fold the whole stream again instead of catching up the cached one.
    """
    from games.selectors.views import viewer_update

    with _table_lock(table_id):
        update = viewer_update(table_id, viewer, after_version=after)
    return update.version, update.events, update.view


_locks_guard = threading.Lock()
_table_locks: dict[str, threading.Lock] = {}


def _table_lock(table_id: str) -> threading.Lock:
    key = str(table_id)
    with _locks_guard:
        lock = _table_locks.get(key)
        if lock is None:
            if len(_table_locks) > 4096:
                _table_locks.clear()  # locks of finished tables; a live one is re-made
            lock = _table_locks[key] = threading.Lock()
        return lock
