"""WebSocket edge of a table: ``ws/tables/<id>/`` streams the table to one viewer.

Protocol (docs/live.md):

- Connect authenticated (session cookie or ``?token=``). ``?after=VERSION`` asks for the
  events after VERSION; without it the first message is the current state:
  ``{"type": "state", "version": V, "table": {...}}``.
- After every commit the server sends ``{"type": "events", "after": A, "version": V,
  "events": [...], "table": {...}}``: the viewer's events with ``A < version <= V``
  and the viewer's table view at V, from one fold and one read
  (``games.selectors.visibility.viewer_update``: the same renderers as the REST API's
  ``events_for_viewer`` and ``table_view``). ``after`` always equals the previous message's
  ``version``, so a client sees at once whether it missed something.
- The client may send ``{"after": VERSION}`` at any time (a gap, or after reconnecting) and
  gets the events after VERSION; anything else gets ``{"type": "error", ...}``.
- A seated player connecting to a table with an owner tag whose game has not started is
  announced once (``games.live.presence``): a competition records that the player has
  arrived.
- Refusals close the socket after an error message: 4401 not authenticated, 4404 no
  such table, 4429 too many connections (games.live.connection_limits).

A spectator of a table with a spectator delay (docs/live.md) is sent the table as of its
delayed version only, and only on the periodic resync (every ``WS_RESYNC_SECONDS``), never
on a commit notice: so neither the table's version nor the moment of a move reaches it.

Every consumer handles its messages one at a time and remembers the last version it sent,
so each event reaches a connection exactly once and in order, whatever the group messages'
timing (a notice for a version already sent is ignored).
"""

from __future__ import annotations

import asyncio
import time
import weakref
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, TypeVar

import orjson
from asgiref.sync import sync_to_async
from channels.consumer import get_handler_name
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.conf import settings

from games.live.auth import query_parameters
from games.live.connection_limits import CLOSE_TOO_MANY_CONNECTIONS, claim_slot, over_cap_message
from games.live.connections import ensure_sound_connection
from games.live.notices import table_group
from games.live.presence import announce_seated_player, is_seated_in_lobby
from games.live.rendered_updates import events_since, notified_events, shared_update, table_state
from games.live.tables import table_version
from services.api.parsers import loads_safely
from telemetry.metrics import observe_commit_to_socket

T = TypeVar("T")

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
    reuse the rendering (``games.live.rendered_updates.shared_update``) or at least that fold."""
    lock = _table_locks.get(table_id)
    if lock is None:
        lock = _table_locks[table_id] = asyncio.Lock()
    return lock


def in_thread_pool(function: Callable[..., T]) -> Callable[..., Awaitable[T]]:
    """Run ``function`` off the event loop in a thread pool (not the one shared sync thread):
    each consumer still handles its own messages in order, while different tables' reads
    overlap their database waits. Each pool thread keeps its connection (no
    ``close_old_connections`` per call: with health checks on, that costs a ``SELECT 1``
    round trip per message); one that failed, or that the server ended, is dropped before
    the next call (``ensure_sound_connection``), so that call reconnects instead of
    failing."""

    def with_sound_connection(*args: Any) -> T:
        ensure_sound_connection()
        return function(*args)

    return sync_to_async(with_sound_connection, thread_sensitive=False)


#: The viewer's table view, or None when there is no such table.
load_state = in_thread_pool(table_state)
#: (version, the viewer's events in (after, version], the viewer's view at version), given
#: the events a commit notice carried, if any.
load_events = in_thread_pool(events_since)
current_version = in_thread_pool(table_version)
announce_seated = in_thread_pool(announce_seated_player)


def watches_delayed(view: dict[str, Any]) -> bool:
    """Whether ``view`` is a spectator's of a game in play behind a spectator delay."""
    return (
        view.get("your_seat") is None
        and bool(view.get("spectator_delay_tricks"))
        and view.get("status") == "playing"
    )


class TableConsumer(AsyncJsonWebsocketConsumer):
    """One viewer's live connection to one table."""

    table_id: str
    viewer: Any
    last_sent: int | None
    delayed: bool

    async def dispatch(self, message: dict[str, Any]) -> None:
        """Channels' dispatch, without its ``aclose_old_connections()`` before every
        handler: that is a hop to the shared sync thread for each message (7.5% of the
        web's samples at 50 busy tables, docs/benchmarks.md), and it tends connections
        this consumer never uses: its database work runs in ``in_thread_pool``, whose
        threads keep their own connections sound."""
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    @classmethod
    async def encode_json(cls, content: Any) -> str:
        """orjson: a message with a whole table view encodes several times faster than
        with the standard library (the web's CPU per event, docs/benchmarks.md)."""
        return orjson.dumps(content, option=orjson.OPT_NON_STR_KEYS).decode()

    async def connect(self) -> None:
        self.table_id = str(self.scope["url_route"]["kwargs"]["table_id"])
        self.viewer = self.scope.get("user")
        self.last_sent = None
        self.delayed = False
        self.sending = asyncio.Lock()
        self.resync_task: asyncio.Future[None] | None = None
        await self.accept()
        self.slot = await claim_slot(self.scope, self.channel_name)
        if self.slot is None:
            message = over_cap_message(self.scope)
            await self.refuse("too_many_connections", message, CLOSE_TOO_MANY_CONNECTIONS)
            return
        # Without a token the connection is a spectator's (the one visibility filter shows it
        # no hand in play); a token that is not valid is refused rather than downgraded.
        if self.scope.get("auth_error"):
            await self.refuse(
                "not_authenticated", self.scope["auth_error"], CLOSE_NOT_AUTHENTICATED
            )
            return
        try:
            after_values = query_parameters(self.scope).get("after")
            after = parse_version(after_values[-1]) if after_values else None
        except BadClientMessage as exc:
            await self.refuse("bad_request", str(exc), 4400)
            return
        # Join the group before reading, so no commit falls between the read and the join.
        await self.channel_layer.group_add(table_group(self.table_id), self.channel_name)
        state = await load_state(self.table_id, self.viewer)
        if state is None:
            await self.refuse("not_found", f"No table {self.table_id}.", CLOSE_NOT_FOUND)
            return
        if after is None:
            self.last_sent = int(state["version"])
            self.delayed = watches_delayed(state)
            await self.send_json({"type": "state", "version": self.last_sent, "table": state})
        else:
            self.last_sent = after
            await self.send_events()
        if is_seated_in_lobby(state):
            # After the first message, so the player's view never waits on it; its commits
            # (an arrival, the game's start) reach this connection as any other.
            await announce_seated(self.table_id, self.viewer, state["owner"])
        self.resync_task = asyncio.ensure_future(self.resync_periodically())

    async def resync_periodically(self) -> None:
        """Safety net for a lost group notice (the pub/sub layer delivers at most once):
        every ``settings.WS_RESYNC_SECONDS`` compare the table's version with the last one
        sent."""
        while True:
            await asyncio.sleep(settings.WS_RESYNC_SECONDS)
            version = await current_version(self.table_id)
            if version is not None and self.last_sent is not None and version > self.last_sent:
                # A delayed spectator is always behind the table: its update may be shared.
                await self.send_events(at_least=version if self.delayed else None)

    async def refuse(self, code: str, message: str, close_code: int) -> None:
        """Tell the client why, then close."""
        await self.send_json({"type": "error", "code": code, "message": message})
        await self.close(code=close_code)

    async def disconnect(self, code: int) -> None:
        if getattr(self, "slot", None) is not None:
            await self.slot.release()
        if self.resync_task is not None:
            self.resync_task.cancel()
        await self.channel_layer.group_discard(table_group(self.table_id), self.channel_name)

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

    @classmethod
    async def decode_json(cls, text_data: str) -> Any:
        """The REST API's JSON limits (``services.api.parsers``): nesting too deep for
        Python's decoder is a ``ValueError`` (a bad request), not a ``RecursionError``
        that would close the socket."""
        return loads_safely(text_data)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        content: Any = None
        if text_data is not None:
            try:
                content = await self.decode_json(text_data)
            except ValueError:
                content = None  # answered as a bad request by receive_json
        await self.receive_json(content)

    async def table_committed(self, message: dict[str, Any]) -> None:
        """Group notice: the stream reached ``message["version"]``."""
        if self.last_sent is None or int(message["version"]) <= self.last_sent:
            return
        if self.delayed:
            # Its updates wait for the resync: answering the notice would time the move.
            return
        notified = message.get("events")
        await self.send_events(
            committed_at=message.get("committed_at"),
            at_least=int(message["version"]),
            notified=notified if isinstance(notified, list) else (),
        )

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
        the client, the resync)."""
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
                loaded = shared_update(self.table_id, self.viewer, after, at_least)
                if loaded is None and notified:
                    # Pure CPU when it succeeds: cheaper here than a hop to a pool thread.
                    loaded = notified_events(self.table_id, self.viewer, after, notified)
            if loaded is None:
                loaded = await load_events(self.table_id, self.viewer, after, notified)
        version, events, view = loaded
        self.delayed = watches_delayed(view)
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
        message: dict[str, Any] = {
            "type": "events",
            "after": after,
            "version": version,
            "events": events,
            "table": view,
        }
        if committed_at is not None:
            message["committed_at"] = committed_at
            observe_commit_to_socket(committed_at)
        self.last_sent = version
        message["sent_at"] = time.time()
        await self.send_json(message)
