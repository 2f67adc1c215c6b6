"""The updates a WebSocket consumer sends, rendered through the ONE per-viewer filter of
the REST API (``games.selectors.visibility``), and this process's cache of them: the
viewer's table view and events, rendered once per seat and commit for all of a table's
connections (:class:`RenderedUpdates`)."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Any

from cachetools import LRUCache

from eventstore.records import StoredEvent
from games.domain.streams import table_stream_id
from games.selectors.visibility import (
    notified_update,
    table_view,
    viewer_update,
    viewer_user_id,
)
from games.services.errors import CommandRejected


def table_state(table_id: str, viewer: Any) -> dict[str, Any] | None:
    """The viewer's ``table_view``, or None when there is no such table."""
    try:
        return table_view(table_id, viewer)
    except CommandRejected as refusal:
        if refusal.status == 404:
            return None
        raise


def decoded_events(table_id: str, notified: Sequence[Sequence[Any]]) -> list[Any] | None:
    """The ``StoredEvent``s a commit notice carried (``StoredEvent.to_wire``), or None if
    they are not what a notice carries. Their content is checked later, against the fold's
    hash chain (``games.selectors.visibility.chained_tail``)."""
    try:
        return [StoredEvent.from_wire(table_stream_id(table_id), item) for item in notified]
    except ValueError:
        return None


def events_since(
    table_id: str, viewer: Any, after: int, notified: Sequence[Sequence[Any]] = ()
) -> tuple[int, list[dict[str, Any]], dict[str, Any]]:
    """(V, the viewer's events with ``after < version <= V``, the viewer's view at V).

    One fold and at most one read (``games.selectors.visibility.viewer_update``), so the view
    and the events are of one version; ``notified`` are the events a commit notice
    carried (``StoredEvent.to_wire``), which spare the read when they chain onto the
    cached fold. The rendering is kept for the table's other connections
    (:func:`shared_update`).
    """
    # Anything that is not what a notice carries is ignored: the stream is read instead.
    events = decoded_events(table_id, notified) or []
    update = viewer_update(table_id, viewer, after_version=after, notified=events)
    _rendered.keep(str(table_id), after, update)
    return update.version, update.events, update.view


def notified_events(
    table_id: str, viewer: Any, after: int, notified: Sequence[Sequence[Any]]
) -> tuple[int, list[dict[str, Any]], dict[str, Any]] | None:
    """:func:`events_since` from the events a commit notice carried, without the database
    (``games.selectors.visibility.notified_update``), or None when that needs a read. Safe to
    call on the event loop."""
    events = decoded_events(table_id, notified)
    update = notified_update(table_id, viewer, after, events) if events else None
    if update is None:
        return None
    _rendered.keep(str(table_id), after, update)
    return update.version, update.events, update.view


def shared_update(
    table_id: str, viewer: Any, after: int, at_least: int
) -> tuple[int, list[dict[str, Any]], dict[str, Any]] | None:
    """An update already rendered in this process for the viewer's seat and ``after`` from
    a table version >= ``at_least`` (a commit notice's: the table has reached it), or None.

    The four seats and the spectators of a table each get one rendering per commit, not
    one per connection. No database work: safe to call on the event loop.
    """
    shared = _rendered.find(str(table_id), at_least, after, viewer_user_id(viewer))
    if shared is None:
        return None
    return shared.version, shared.events, shared.view


class RenderedUpdates:
    """The latest rendered updates of each table in this process, by (after, seat).

    A viewer's seat is read from the players of the rendered version (the first seat the
    user holds, as ``TableState.seat_of``), so a hit gives exactly what a fresh
    ``viewer_update`` at that version gives that viewer.
    """

    def __init__(self, tables: int = 512) -> None:
        self.tables = tables
        self.lock = threading.Lock()
        # table -> (version, players by seat, {(after, seat): update}), least recent out
        self.latest: LRUCache[str, tuple[int, list[Any], dict[tuple[int, int | None], Any]]]
        self.latest = LRUCache(maxsize=tables)

    def find(self, table_id: str, at_least: int, after: int, user_id: int | None) -> Any:
        """A rendered update at a version >= ``at_least`` for this viewer, or None."""
        with self.lock:
            entry = self.latest.get(table_id)
            if entry is None or entry[0] < at_least:
                return None
            version, players, updates = entry
            seat = players.index(user_id) if user_id is not None and user_id in players else None
            return updates.get((after, seat))

    def keep(self, table_id: str, after: int, update: Any) -> None:
        """Remember ``update`` (it replaces older versions of the table). Kept by the
        table's version it was rendered from: a delayed spectator's update is behind it."""
        players = [row["user_id"] for row in update.view["seats"]]
        version = update.table_version
        with self.lock:
            entry = self.latest.get(table_id)
            if entry is None or entry[0] < version:
                entry = (version, players, {})
                self.latest[table_id] = entry
            if entry[0] == version:
                entry[2][(after, update.seat)] = update


_rendered = RenderedUpdates()
