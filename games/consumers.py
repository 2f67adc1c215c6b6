"""WebSocket edge of a table: ``ws/tables/<id>/`` streams the table to one viewer.

Protocol (docs/live.md):

- Connect authenticated (session cookie or ``?token=``). ``?after=VERSION`` asks for the
  events after VERSION; without it the first message is the current state:
  ``{"type": "state", "version": V, "table": {...}}``.
- After every commit the server sends ``{"type": "events", "after": A, "version": V,
  "events": [...], "table": {...}}``: the viewer's events with ``A < version <= V``
  and the viewer's table view at V, from one fold and one read
  (``games.selectors.table_updates.viewer_update``: the same renderers as the REST API's
  ``events_for_viewer`` and ``table_view``). ``after`` always equals the previous message's
  ``version``, so a client sees at once whether it missed something.
- The client may send ``{"after": VERSION}`` at any time (a gap, or after reconnecting) and
  gets the events after VERSION; anything else gets ``{"type": "error", ...}``.
- A seated player connecting to a table with an owner tag whose game has not started is
  announced once (``games.live.presence``): a competition records that the player has
  arrived.
- Refusals close the socket after an error message: 4401 not authenticated, 4404 no
  such table, 4429 too many connections (games.live.connection_limits).

Nothing polls per socket (``games.live.sockets``): a connection moves on the table's
commit notices, and the web process's safety sweep (one query for all of its sockets
every ``WS_SAFETY_SWEEP_SECONDS``) repairs a lost one.

A spectator of a table with a spectator delay (docs/live.md) is sent the table as of its
delayed version only, and only at its own pace (every ``WS_RESYNC_SECONDS``, and only when
a notice said the table moved since its last update: no query otherwise), never on a
commit notice: so neither the table's version nor the moment of a move reaches it.

Every consumer handles its messages one at a time and remembers the last version it sent,
so each event reaches a connection exactly once and in order, whatever the group messages'
timing (a notice for a version already sent is ignored).
"""

from __future__ import annotations

import asyncio
import time
import weakref
from collections.abc import Sequence
from typing import Any

import orjson
from cachetools import LRUCache
from django.conf import settings

from games.live.auth import query_parameters
from games.live.notices import table_group
from games.live.presence import announce_seated_player, is_seated_in_lobby
from games.live.sockets import LiveSocket, in_thread_pool, start_repeating
from games.live.tables import table_versions
from games.selectors.table_updates import (
    update_from_database,
    update_without_database,
    viewer_state,
)
from telemetry.metrics import observe_commit_to_socket

CLOSE_NOT_AUTHENTICATED = 4401
CLOSE_NOT_FOUND = 4404


class BadClientMessage(ValueError):
    """A client message that does not follow the protocol."""


def parse_version(raw: object, *, name: str = "after") -> int:
    """A stream version given by the client: a non-negative integer."""
    if isinstance(raw, bool):
        raise BadClientMessage(f"'{name}' must be a non-negative integer version.")
    if isinstance(raw, str) and raw.strip().isdigit():
        raw = int(raw.strip())
    if not isinstance(raw, int) or raw < 0 or raw > 2**31:
        raise BadClientMessage(f"'{name}' must be a non-negative integer version.")
    return raw


_table_locks: weakref.WeakValueDictionary[str, asyncio.Lock] = weakref.WeakValueDictionary()


def table_lock(table_id: str) -> asyncio.Lock:
    """The connections of one table read it one at a time (on the event loop, holding no
    thread): the first renders the update and puts the cached fold back, the others
    reuse the rendering (``games.selectors.table_updates``) or at least that fold."""
    lock = _table_locks.get(table_id)
    if lock is None:
        lock = _table_locks[table_id] = asyncio.Lock()
    return lock


# The last "events" messages encoded, by the identity of the rendering they carry (a
# rendering is shared by every socket of one viewer kind: games.selectors.table_updates),
# so the sockets of one seat, or the spectators, encode it once. Only the event loop
# touches it. The entry holds the rendering, so its id cannot be reused while kept.
_encoded: LRUCache[tuple[int, int, int], tuple[Any, Any, str]] = LRUCache(maxsize=1024)


def events_message(
    after: int, version: int, events: list[dict[str, Any]], view: dict[str, Any]
) -> str:
    """The JSON of ``{"type": "events", "after", "version", "events", "table"}``, encoded
    once per rendering and ``after`` (renderings are never changed once made)."""
    key = (id(view), id(events), after)
    kept = _encoded.get(key)
    if kept is not None and kept[0] is view and kept[1] is events:
        return kept[2]
    message = {"type": "events", "after": after, "version": version, "events": events}
    message["table"] = view
    text = orjson.dumps(message, option=orjson.OPT_NON_STR_KEYS).decode()
    _encoded[key] = (view, events, text)
    return text


def with_stamps(text: str, stamps: dict[str, float]) -> str:
    """``text`` (a JSON object) with ``stamps`` appended as its last members: the same
    JSON as encoding them in the object (the per-socket times, after the shared part)."""
    tail = "".join(f',"{name}":{orjson.dumps(value).decode()}' for name, value in stamps.items())
    return text[:-1] + tail + "}"


#: The viewer's table view, or None when there is no such table.
load_state = in_thread_pool(viewer_state)
#: (version, the viewer's events in (after, version], the viewer's view at version), given
#: the events a commit notice carried, if any: the read strategy that needs the database.
load_update = in_thread_pool(update_from_database)
announce_seated = in_thread_pool(announce_seated_player)


def watches_delayed(view: dict[str, Any]) -> bool:
    """Whether ``view`` is a spectator's of a game in play behind a spectator delay."""
    return (
        view.get("your_seat") is None
        and bool(view.get("spectator_delay_tricks"))
        and view.get("status") == "playing"
    )


class TableConsumer(LiveSocket):
    """One viewer's live connection to one table."""

    table_id: str
    viewer: Any
    delayed: bool
    #: The newest table version a notice (or the safety sweep) told of.
    heard: int
    #: The table version a delayed spectator's last paced update was asked at.
    paced: int

    @classmethod
    def stream_versions(cls, keys: Sequence[str]) -> dict[str, int]:
        return table_versions(keys)

    async def open_stream(self) -> bool:
        self.table_id = str(self.scope["url_route"]["kwargs"]["table_id"])
        self.viewer = self.scope.get("user")
        self.delayed = False
        self.heard = self.paced = 0
        self.pacing: asyncio.Future[None] | None = None
        # Without a token the connection is a spectator's (the one visibility filter shows it
        # no hand in play); a token that is not valid is refused rather than downgraded.
        if self.scope.get("auth_error"):
            await self.refuse(
                "not_authenticated", self.scope["auth_error"], CLOSE_NOT_AUTHENTICATED
            )
            return False
        try:
            after_values = query_parameters(self.scope).get("after")
            after = parse_version(after_values[-1]) if after_values else None
        except BadClientMessage as exc:
            await self.refuse("bad_request", str(exc), 4400)
            return False
        # Join the group before reading, so no commit falls between the read and the join.
        await self.join(table_group(self.table_id))
        state = await load_state(self.table_id, self.viewer)
        if state is None:
            await self.refuse("not_found", f"No table {self.table_id}.", CLOSE_NOT_FOUND)
            return False
        self.stream_key = self.table_id
        if after is None:
            self.last_sent = int(state["version"])
            self.note_delayed(state)
            await self.send_json({"type": "state", "version": self.last_sent, "table": state})
        else:
            self.last_sent = after
            await self.send_events()
        if is_seated_in_lobby(state):
            # After the first message, so the player's view never waits on it; its commits
            # (an arrival, the game's start) reach this connection as any other.
            await announce_seated(self.table_id, self.viewer, state["owner"])
        return True

    @staticmethod
    def resync_interval() -> float:
        return float(settings.WS_RESYNC_SECONDS)

    def note_delayed(self, view: dict[str, Any]) -> None:
        """Remember whether the viewer watches behind a spectator delay; while it does, its
        updates go at its own pace (:meth:`pace_delayed`)."""
        self.delayed = watches_delayed(view)
        if self.delayed and (self.pacing is None or self.pacing.done()):
            self.pacing = start_repeating(self.resync_interval, self.pace_delayed)

    async def pace_delayed(self) -> bool:
        """A delayed spectator's update, every ``WS_RESYNC_SECONDS`` if the table moved
        since the last one (known from the notices: no query otherwise). False once the
        viewer no longer watches behind the delay."""
        if not self.delayed:
            return False
        target = self.heard
        if target > self.paced:
            self.paced = target
            # A delayed spectator is always behind the table: its update may be shared.
            await self.send_events(at_least=target)
        return self.delayed

    async def closed(self) -> None:
        task = getattr(self, "pacing", None)
        if task is not None:
            task.cancel()

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        if self.last_sent is None:
            return
        try:
            if not isinstance(content, dict) or set(content) != {"after"}:
                raise BadClientMessage('Send {"after": VERSION} to get the events after VERSION.')
            after = parse_version(content["after"])
        except BadClientMessage as exc:
            await self.send_json({"type": "error", "code": "bad_request", "message": str(exc)})
            return
        await self.send_events(force=True, after=after)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        content: Any = None
        if text_data is not None:
            try:
                content = await self.decode_json(text_data)
            except ValueError:
                content = None  # answered as a bad request by receive_json
        await self.receive_json(content)

    async def table_committed(self, message: dict[str, Any]) -> None:
        """Group notice: the stream reached ``message["version"]`` (the commit's events
        from ``message["first_version"]`` on, carried when there are few)."""
        version = int(message["version"])
        notified = message.get("events")
        first = message.get("first_version")
        if not isinstance(notified, list) or first != (self.last_sent or 0) + 1:
            # The gap check: events that do not continue what this socket sent are no
            # use to it; it reads from its last version (a lost notice is repaired here).
            notified = []
        await self.on_table_version(version, message.get("committed_at"), notified)

    async def resync(self, version: int) -> None:
        await self.on_table_version(version)

    async def on_table_version(
        self, version: int, committed_at: float | None = None, notified: Sequence[Any] = ()
    ) -> None:
        """The table reached ``version``: a live viewer is sent what it has not had; a
        delayed spectator only remembers it (its updates go at its own pace)."""
        self.heard = max(self.heard, version)
        if self.delayed:
            # Answering the notice would time the move.
            return
        if not self.is_behind(version):
            return
        await self.send_events(committed_at=committed_at, at_least=version, notified=notified)

    async def send_events(
        self,
        *,
        force: bool = False,
        committed_at: float | None = None,
        after: int | None = None,
        at_least: int | None = None,
        notified: Sequence[Any] = (),
    ) -> None:
        """Send the viewer's events after ``last_sent`` (or ``after``) with the view, if
        there are any. One send at a time per connection, whoever asks (a group notice,
        the client, the safety sweep, the delayed pacing)."""
        async with self.sending:
            await self._send_events(force, committed_at, after, at_least, notified)

    async def _send_events(
        self,
        force: bool,
        committed_at: float | None,
        after: int | None,
        at_least: int | None,
        notified: Sequence[Any] = (),
    ) -> None:
        if after is None:
            assert self.last_sent is not None
            after = self.last_sent
        async with table_lock(self.table_id):
            loaded = None
            if at_least is not None:
                # Pure CPU when it succeeds: cheaper here than a hop to a pool thread.
                loaded = update_without_database(
                    self.table_id, self.viewer, after, at_least, notified
                )
            if loaded is None:
                loaded = await load_update(self.table_id, self.viewer, after, notified)
        version, events, view = loaded
        self.note_delayed(view)
        if version < after:
            self.last_sent = version
            await self.send_json(
                {
                    "type": "error",
                    "code": "bad_request",
                    "message": f"Version {after} is ahead of the table, which is at {version}.",
                    "version": version,
                }
            )
            return
        if version == after and not force:
            return
        text = events_message(after, version, events, view)
        stamps = {} if committed_at is None else {"committed_at": committed_at}
        if committed_at is not None:
            observe_commit_to_socket(committed_at)
        self.last_sent = version
        stamps["sent_at"] = time.time()
        await self.send(text_data=with_stamps(text, stamps))
