"""The one base of the platform's live sockets (the table's, ``games.consumers``, and the
competition's, ``leagues.consumers``): the connection slot, the refusal, the version gate
and the resync. Each socket streams one versioned stream to one viewer; a subclass says
how it opens (:meth:`LiveSocket.open_stream`), what it sends when the stream moved
(:meth:`LiveSocket.resync`) and how to read many of its streams' versions in one query
(:meth:`LiveSocket.stream_versions`).

Nothing here polls per socket. A socket moves on when its stream's commit notice reaches
its Channels group (a table's ``table.committed``, a competition's ``standings.changed``);
the notices are delivered at most once, so each web process runs one safety sweep
(:class:`SafetySweep`) every ``settings.WS_SAFETY_SWEEP_SECONDS``: one query per kind of
socket for the versions of every stream its open sockets follow, however many sockets,
and a :meth:`LiveSocket.resync` for each socket whose stream is ahead of what it heard.
A socket also repairs a gap by itself: it always reads from the last version it sent, so
the next notice that reaches it brings whatever an earlier lost one would have.

Refusals close the socket after an error message: 4429 over the connection cap
(``games.live.connection_limits``), the others the subclass's.
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, TypeVar

import orjson
from asgiref.sync import sync_to_async
from channels.consumer import get_handler_name
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.conf import settings

from games.live.connection_limits import (
    CLOSE_TOO_MANY_CONNECTIONS,
    ConnectionSlot,
    claim_slot,
    over_cap_message,
)
from games.live.connections import ensure_sound_connection
from services.api.parsers import loads_safely

logger = logging.getLogger(__name__)

T = TypeVar("T")


def in_thread_pool(function: Callable[..., T]) -> Callable[..., Awaitable[T]]:
    """Run ``function`` off the event loop in a thread pool (not the one shared sync thread):
    each consumer still handles its own messages in order, while different streams' reads
    overlap their database waits. Each pool thread keeps its connection (no
    ``close_old_connections`` per call: with health checks on, that costs a ``SELECT 1``
    round trip per message); one that failed, or that the server ended, is dropped before
    the next call (``ensure_sound_connection``), so that call reconnects instead of
    failing."""

    def with_sound_connection(*args: Any) -> T:
        ensure_sound_connection()
        return function(*args)

    return sync_to_async(with_sound_connection, thread_sensitive=False)


class LiveSocket(AsyncJsonWebsocketConsumer):
    """One viewer's live connection to one versioned stream."""

    #: The stream this socket follows (a table id, a competition id); "" until known.
    stream_key: str
    #: The last version sent (the version gate); None until the first message.
    last_sent: int | None
    slot: ConnectionSlot | None

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

    @classmethod
    async def decode_json(cls, text_data: str) -> Any:
        """The REST API's JSON limits (``services.api.parsers``): nesting too deep for
        Python's decoder is a ``ValueError`` (a bad request), not a ``RecursionError``
        that would close the socket."""
        return loads_safely(text_data)

    # ------------------------------------------------------------ what a subclass says

    async def open_stream(self) -> bool:
        """After the slot is claimed: check the request, join the stream's group
        (:meth:`join`) before reading, send the first message. False when it refused."""
        raise NotImplementedError

    async def resync(self, version: int) -> None:
        """The stream has reached ``version`` (heard from the safety sweep): send what
        this viewer has not had yet, if anything."""
        raise NotImplementedError

    @classmethod
    def stream_versions(cls, keys: Sequence[str]) -> dict[str, int]:
        """The current version of each of these streams, in one query (runs in a pool
        thread; streams that do not exist are left out)."""
        raise NotImplementedError

    async def closed(self) -> None:
        """The socket closed: stop what the subclass started."""

    # ------------------------------------------------------------ the common part

    async def connect(self) -> None:
        self.stream_key = ""
        self.last_sent = None
        self.slot = None
        self.group: str | None = None
        self.sending = asyncio.Lock()
        await self.accept()
        self.slot = await claim_slot(self.scope, self.channel_name)
        if self.slot is None:
            message = over_cap_message(self.scope)
            await self.refuse("too_many_connections", message, CLOSE_TOO_MANY_CONNECTIONS)
            return
        if await self.open_stream():
            safety_sweep().add(self)

    async def join(self, group: str) -> None:
        """Join the stream's Channels group (before the first read, so no commit falls
        between the read and the join)."""
        self.group = group
        await self.channel_layer.group_add(group, self.channel_name)

    async def refuse(self, code: str, message: str, close_code: int) -> None:
        """Tell the client why, then close."""
        await self.send_json({"type": "error", "code": code, "message": message})
        await self.close(code=close_code)

    def is_behind(self, version: int) -> bool:
        """The version gate: whether ``version`` is newer than the last one sent (a
        notice for a version already sent is ignored)."""
        return self.last_sent is not None and version > self.last_sent

    async def disconnect(self, code: int) -> None:
        safety_sweep().discard(self)
        if self.slot is not None:
            await self.slot.release()
        await self.closed()
        if self.group is not None:
            await self.channel_layer.group_discard(self.group, self.channel_name)


def start_repeating(
    interval: Callable[[], float], step: Callable[[], Awaitable[bool]]
) -> asyncio.Future[None]:
    """Await ``step()`` every ``interval()`` seconds until it answers False (a socket's
    in-memory pacing: no query unless ``step`` has something to send)."""

    async def repeat() -> None:
        while True:
            await asyncio.sleep(interval())
            try:
                if not await step():
                    return
            except Exception:  # a read that failed: the next step tries again
                logger.warning("a live socket's paced step failed", exc_info=True)

    return asyncio.ensure_future(repeat())


class SafetySweep:
    """This event loop's open live sockets, and the sweep that repairs lost notices: every
    ``settings.WS_SAFETY_SWEEP_SECONDS``, for each kind of socket one query for the
    versions of all the streams its sockets follow, then a resync of each socket whose
    stream is ahead of what it sent. It runs while sockets are open."""

    def __init__(self) -> None:
        self.sockets: set[LiveSocket] = set()
        self.task: asyncio.Future[None] | None = None
        #: Sweeps made and queries they cost (tests and the idle benchmark read them).
        self.sweeps = 0
        self.queries = 0

    def add(self, socket: LiveSocket) -> None:
        self.sockets.add(socket)
        if self.task is None or self.task.done():
            self.task = asyncio.ensure_future(self.run())

    def discard(self, socket: LiveSocket) -> None:
        self.sockets.discard(socket)

    async def run(self) -> None:
        while self.sockets:
            await asyncio.sleep(float(settings.WS_SAFETY_SWEEP_SECONDS))
            try:
                await self.sweep()
            except Exception:  # the next sweep tries again; a socket's own notices go on
                logger.exception("the live sockets' safety sweep failed")

    async def sweep(self) -> None:
        """One sweep over every open socket of this loop."""
        kinds: dict[type[LiveSocket], dict[str, list[LiveSocket]]] = {}
        for socket in list(self.sockets):
            if socket.stream_key and socket.last_sent is not None:
                keyed = kinds.setdefault(type(socket), {})
                keyed.setdefault(socket.stream_key, []).append(socket)
        self.sweeps += 1
        for kind, keyed in kinds.items():
            versions = await in_thread_pool(kind.stream_versions)(sorted(keyed))
            self.queries += 1
            for key, sockets in keyed.items():
                version = versions.get(key)
                if version is None:
                    continue
                for socket in sockets:
                    if socket in self.sockets:
                        asyncio.ensure_future(_resync(socket, version))


async def _resync(socket: LiveSocket, version: int) -> None:
    try:
        await socket.resync(version)
    except Exception:  # a socket that closed meanwhile, a read that failed: next sweep
        logger.warning("resync of a live socket failed", exc_info=True)


_sweeps: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, SafetySweep] = (
    weakref.WeakKeyDictionary()
)


def safety_sweep() -> SafetySweep:
    """This event loop's sweep (one a web process: daphne serves on one loop)."""
    loop = asyncio.get_running_loop()
    sweep = _sweeps.get(loop)
    if sweep is None:
        sweep = _sweeps[loop] = SafetySweep()
    return sweep
