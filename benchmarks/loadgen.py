"""The capacity benchmark's load generator: human-paced tables on one asyncio loop.

A table is four players and two spectators, each with a WebSocket open as the browser
keeps it (``compression=None``, no client pings: browsers send none). The player whose
turn a socket message shows waits a think time drawn uniformly from
``[0.5, 1.5] x --think-seconds`` and then sends the move as the browser does: a POST
with the DRF token, an ``Idempotency-Key`` and ``expected_version`` from the view on
screen. The players of one table share one keep-alive HTTP connection (only one of them
acts at a time; a browser each would only add idle connections).

Two kinds of table, driven alike: :class:`SpadesTable` (the platform: bids and cards,
chosen at random among the legal ones the player's own view lists) and
:class:`RelayTable` (``benchmarks.relay``: a POST whose message the server fans out to
the table's sockets, no database and no game).

Every socket's receipts go to a :class:`benchmarks.deliveries.SocketLog`; every move is a
:class:`Move` with its request time and the version its commit brought the table to.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import time
import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import orjson
from websockets.asyncio.client import ClientConnection, connect

from benchmarks.deliveries import SocketLog, fanout_latency
from benchmarks.ramp import StepOutcome

SEATS = ("north", "east", "south", "west")
#: How long parking a table may wait for its moves in flight to be answered and for its
#: sockets to receive the table's last version (a busy box lags by seconds, not more).
PARK_SETTLE_SECONDS = 30.0


# ---------------------------------------------------------------- HTTP/1.1, keep-alive


class HttpError(RuntimeError):
    """A response the client could not read."""


def parse_head(head: bytes) -> tuple[int, dict[str, str]]:
    """The status and the (lower-cased) headers of a response's head, up to the blank
    line."""
    lines = head.decode("latin-1").split("\r\n")
    parts = lines[0].split(" ", 2)
    if len(parts) < 2 or not parts[0].startswith("HTTP/1.") or not parts[1].isdigit():
        raise HttpError(f"not an HTTP/1.x status line: {lines[0]!r}")
    headers: dict[str, str] = {}
    for line in lines[1:]:
        if not line:
            continue
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    return int(parts[1]), headers


class HttpConnection:
    """One keep-alive HTTP/1.1 connection, one request at a time (a raw client: the
    benchmark's own CPU per request must stay small)."""

    def __init__(self, host: str, port: int) -> None:
        self.host = host
        self.port = port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None
        self.lock = asyncio.Lock()

    async def post(self, path: str, body: bytes, headers: dict[str, str]) -> tuple[int, bytes]:
        """Send a POST; the status and the body."""
        async with self.lock:
            if self.writer is None:
                self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
            assert self.reader is not None
            lines = [
                f"POST {path} HTTP/1.1",
                f"Host: {self.host}:{self.port}",
                "Content-Type: application/json",
                "Accept: application/json",
                f"Content-Length: {len(body)}",
                *(f"{name}: {value}" for name, value in headers.items()),
            ]
            self.writer.write(("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body)
            try:
                await self.writer.drain()
                status, headers_in = parse_head(await self.reader.readuntil(b"\r\n\r\n"))
                payload = await self._body(headers_in)
            except (asyncio.IncompleteReadError, ConnectionError) as exc:
                await self.close()
                raise HttpError(f"connection lost: {exc}") from exc
            if headers_in.get("connection", "").lower() == "close":
                await self.close()
            return status, payload

    async def _body(self, headers: dict[str, str]) -> bytes:
        assert self.reader is not None
        if "content-length" in headers:
            return await self.reader.readexactly(int(headers["content-length"]))
        if headers.get("transfer-encoding", "").lower() == "chunked":
            chunks: list[bytes] = []
            while True:
                size = int((await self.reader.readline()).split(b";")[0].strip(), 16)
                if size == 0:
                    await self.reader.readuntil(b"\r\n")
                    return b"".join(chunks)
                chunks.append(await self.reader.readexactly(size))
                await self.reader.readexactly(2)
        return await self.reader.read()

    async def close(self) -> None:
        if self.writer is not None:
            writer, self.writer, self.reader = self.writer, None, None
            writer.close()
            with contextlib.suppress(Exception):
                await writer.wait_closed()


# ---------------------------------------------------------------- moves and sockets


@dataclass
class Move:
    """One move: sent at ``sent_at`` (perf_counter), answered with ``version`` (None
    while unanswered or when refused)."""

    table: Table
    sent_at: float
    version: int | None = None
    answered_at: float | None = None
    failed: bool = False


class Watcher:
    """One open WebSocket of a table (a player's when ``seat`` is set, else a spectator's)."""

    def __init__(self, table: Table, url: str, seat: int | None) -> None:
        self.table = table
        self.url = url
        self.seat = seat
        self.log = SocketLog()
        self.connection: ClientConnection | None = None
        self.ready = asyncio.Event()
        self.task: asyncio.Task[None] | None = None
        self.closing = False
        #: The version its log had reached when the load generator closed it.
        self.closed_at_version: int | None = None

    @property
    def gone(self) -> bool:
        """Whether it can receive nothing more (closed, or its connection ended)."""
        return self.task is None or self.task.done()

    def start(self) -> None:
        self.task = asyncio.ensure_future(self.run())

    async def run(self) -> None:
        load = self.table.load
        try:
            async with connect(
                self.url,
                origin=self.table.origin,  # type: ignore[arg-type]
                compression=None,
                ping_interval=None,
                max_size=None,
                proxy=None,
                open_timeout=120,
            ) as connection:
                self.connection = connection
                async for raw in connection:
                    now = time.perf_counter()
                    load.messages += 1
                    load.message_bytes += len(raw)
                    message = orjson.loads(raw)
                    kind = message.get("type")
                    if kind == "state":
                        self.log.record(None, int(message["version"]), (), now)
                        self.ready.set()
                    elif kind == "events":
                        self.log.record(
                            int(message["after"]),
                            int(message["version"]),
                            [int(event["version"]) for event in message["events"]],
                            now,
                        )
                        self.ready.set()
                    else:
                        load.error(f"socket message {str(message)[:200]}")
                        continue
                    self.table.progressed()
                    if self.seat is not None:
                        self.table.seen(self.seat, message)
        except Exception as exc:
            if not self.closing:
                load.error(f"socket {self.url}: {type(exc).__name__}: {exc}")
        finally:
            self.ready.set()
            self.table.progressed()
            if not self.closing and not load.stopping:
                load.error(f"socket {self.url} closed")

    async def close(self) -> None:
        self.closing = True
        if self.closed_at_version is None:
            self.closed_at_version = self.log.version
        if self.connection is not None:
            with contextlib.suppress(Exception):
                await self.connection.close()
        if self.task is not None:
            with contextlib.suppress(Exception):
                await self.task


class Table:
    """Four players and two spectators of one table; subclasses say what a move is."""

    def __init__(self, load: Load, key: str, port: int) -> None:
        self.load = load
        self.key = key
        self.port = port
        self.origin = f"http://127.0.0.1:{port}"
        self.http = HttpConnection("127.0.0.1", port)
        self.watchers: list[Watcher] = []
        self.playing = False
        self.parked = False
        self.acted_at = [-1] * 4
        self.pending: asyncio.TimerHandle | None = None
        #: Its moves sent and not yet answered.
        self.inflight = 0
        #: The highest version a move's answer reported.
        self.committed = 0
        #: Set whenever a socket receives a message or a move is answered (parking waits
        #: on it).
        self.progress = asyncio.Event()
        #: The version every socket was waited for when parked (the accounting's end).
        self.final_version: int | None = None

    def socket_url(self, seat: int | None) -> str:
        raise NotImplementedError

    def open(self) -> None:
        self.watchers = [Watcher(self, self.socket_url(seat), seat) for seat in range(4)]
        self.watchers += [Watcher(self, self.socket_url(None), None) for _ in range(2)]
        for watcher in self.watchers:
            watcher.start()

    @property
    def logs(self) -> list[SocketLog]:
        return [watcher.log for watcher in self.watchers]

    def begin(self) -> None:
        """Every socket is open: the players start acting."""
        self.playing = True
        self.resume()

    def resume(self) -> None:
        raise NotImplementedError

    def seen(self, seat: int, message: dict[str, Any]) -> None:
        """A message on ``seat``'s socket (the player may have to act)."""
        raise NotImplementedError

    def schedule(self, seat: int, version: int, act: Any) -> None:
        """``seat`` acts at ``version`` after a think time (once per version)."""
        if not self.playing or self.parked or self.acted_at[seat] >= version:
            return
        self.acted_at[seat] = version
        delay = self.load.think_time()
        self.pending = asyncio.get_running_loop().call_later(
            delay, lambda: self.load.spawn(self.send(act))
        )

    def progressed(self) -> None:
        self.progress.set()

    async def send(self, act: Any) -> None:
        if self.load.paused or self.parked:
            return
        self.inflight += 1
        try:
            await self._send(act)
        finally:
            self.inflight -= 1
            self.progressed()

    async def _send(self, act: Any) -> None:
        load = self.load
        path, body, headers = act
        move = Move(self, time.perf_counter())
        load.moves.append(move)
        load.inflight += 1
        try:
            status, payload = await self.http.post(path, body, headers)
        except Exception as exc:
            move.failed = True
            load.error(f"POST {path}: {type(exc).__name__}: {exc}")
            return
        finally:
            load.inflight -= 1
        move.answered_at = time.perf_counter()
        load.response_bytes += len(payload)
        load.responses += 1
        if status != 200:
            move.failed = True
            load.error(f"POST {path}: {status} {payload[:200]!r}")
            return
        move.version = self.answered_version(payload)
        self.committed = max(self.committed, move.version)

    def answered_version(self, payload: bytes) -> int:
        return int(orjson.loads(payload)["version"])

    @property
    def last_version(self) -> int:
        """The highest version a move's answer or any of its sockets reported."""
        return max(self.committed, *((log.version or 0) for log in self.logs), 0)

    async def until(self, condition: Any, deadline: float) -> bool:
        """Wait until ``condition()`` holds (re-checked at each socket message and move
        answer) or ``deadline`` (perf_counter) passes; whether it holds."""
        while not condition():
            remaining = deadline - time.perf_counter()
            if remaining <= 0:
                return False
            self.progress.clear()
            try:
                await asyncio.wait_for(self.progress.wait(), remaining)
            except TimeoutError:
                return bool(condition())
        return True

    async def park(self, settle_seconds: float = PARK_SETTLE_SECONDS) -> None:
        """Stop playing and close the sockets (a step that needs fewer tables).

        A move sent before parking may commit after it: the players stop, the moves in
        flight are answered, then every socket is given (bounded) until it has the
        table's last version, and only then are they closed, together. That version is
        ``final_version``, what each socket is accounted for up to: closing the sockets
        one by one while a commit was still on its way counted the first ones closed as
        having lost events they never could receive (docs/benchmarks.md, Capacity)."""
        self.parked = True
        if self.pending is not None:
            self.pending.cancel()
        deadline = time.perf_counter() + settle_seconds
        if not await self.until(lambda: self.inflight == 0, deadline):
            self.load.error(f"table {self.key}: {self.inflight} move(s) unanswered when parked")
        final = self.final_version = self.last_version
        if not await self.until(
            lambda: all(
                watcher.gone or (watcher.log.version or 0) >= final for watcher in self.watchers
            ),
            deadline,
        ):
            behind = sum((watcher.log.version or 0) < final for watcher in self.watchers)
            self.load.error(
                f"table {self.key}: {behind} socket(s) short of version {final} when parked"
            )
        await asyncio.gather(*(watcher.close() for watcher in self.watchers))
        await self.http.close()


class SpadesTable(Table):
    """A table of the platform, played by four people through the HTTP API."""

    def __init__(
        self,
        load: Load,
        table_id: str,
        tokens: Sequence[str],
        port: int,
        user_ids: Sequence[int] = (),
    ) -> None:
        super().__init__(load, table_id, port)
        self.tokens = list(tokens)
        #: The players' user ids by seat (the final accounting's viewers).
        self.user_ids = tuple(user_ids)
        self.views: list[dict[str, Any] | None] = [None] * 4

    def socket_url(self, seat: int | None) -> str:
        query = f"?token={self.tokens[seat]}" if seat is not None else ""
        return f"ws://127.0.0.1:{self.port}/ws/tables/{self.key}/{query}"

    def seen(self, seat: int, message: dict[str, Any]) -> None:
        view = message.get("table")
        if isinstance(view, dict):
            self.views[seat] = view
            self.consider(seat)

    def resume(self) -> None:
        for seat in range(4):
            self.consider(seat)

    def consider(self, seat: int) -> None:
        view = self.views[seat]
        if view is None or view.get("status") != "playing":
            return
        hand = view.get("hand") or {}
        if hand.get("turn") != SEATS[seat] or hand.get("phase") not in ("bidding", "playing"):
            return
        version = int(view["version"])
        if self.acted_at[seat] >= version:
            return
        you = hand.get("you") or {}
        rng = self.load.rng
        body: dict[str, Any] = {"seat": SEATS[seat], "expected_version": version}
        if hand["phase"] == "bidding":
            bids = [bid for bid in you.get("legal_bids", []) if 1 <= bid <= 4]
            if not bids:
                return
            body["bid"] = rng.choice(bids)
            kind = "bid"
        else:
            cards = you.get("legal_cards") or []
            if not cards:
                return
            body["card"] = rng.choice(cards)
            kind = "play"
        headers = {
            "Authorization": f"Token {self.tokens[seat]}",
            "Idempotency-Key": uuid.uuid4().hex,
        }
        act = (f"/api/tables/{self.key}/{kind}", orjson.dumps(body), headers)
        self.schedule(seat, version, act)


class RelayTable(Table):
    """A table of the bare relay (``benchmarks.relay``): a move is a POST of the next
    version, which the server fans out as a message of ``message_bytes`` to the table's
    sockets, answering with ``response_bytes``; seats take turns by version. ``key``
    names its group: unique to the run, as Redis pub/sub channels are server-wide."""

    def __init__(
        self, load: Load, key: str, port: int, message_bytes: int, response_bytes: int
    ) -> None:
        super().__init__(load, key, port)
        self.message_bytes = message_bytes
        self.response_bytes = response_bytes

    def socket_url(self, seat: int | None) -> str:
        return f"ws://127.0.0.1:{self.port}/ws/relay/{self.key}/"

    def resume(self) -> None:
        version = max((log.version or 0) for log in self.logs) if self.watchers else 0
        self.consider(version % 4, version)

    def seen(self, seat: int, message: dict[str, Any]) -> None:
        version = int(message["version"])
        if version % 4 == seat:
            self.consider(seat, version)

    def consider(self, seat: int, version: int) -> None:
        body = orjson.dumps(
            {
                "version": version + 1,
                "message_bytes": self.message_bytes,
                "response_bytes": self.response_bytes,
            }
        )
        self.schedule(seat, version, (f"/relay/{self.key}", body, {}))


# ---------------------------------------------------------------- the load


@dataclass
class Window:
    """The load's counters at one moment (a step's start or end)."""

    at: float
    moves: int
    messages: int
    cpu: float
    duplicated: int
    sequence_breaks: int


@dataclass
class StepFigures:
    """A step's outcome (for the ramp's verdict) and its rates."""

    outcome: StepOutcome
    seconds: float
    moves: int
    moves_per_second: float
    socket_messages_per_second: float
    http_ms: list[float] = field(default_factory=list)
    unanswered: int = 0
    load_cpu_share: float = 0.0
    errors: list[str] = field(default_factory=list)


class Load:
    """Every table on this loop, the moves sent and the errors seen."""

    def __init__(self, think_seconds: float, seed: int) -> None:
        self.think_seconds = think_seconds
        self.rng = random.Random(seed)
        self.tables: list[Table] = []
        self.moves: list[Move] = []
        self.errors: list[tuple[float, str]] = []
        self.messages = 0
        self.message_bytes = 0
        self.responses = 0
        self.response_bytes = 0
        self.inflight = 0
        self.paused = False
        self.stopping = False
        self.tasks: set[asyncio.Task[None]] = set()

    def think_time(self) -> float:
        return self.rng.uniform(0.5, 1.5) * self.think_seconds

    def spawn(self, coroutine: Any) -> None:
        task = asyncio.ensure_future(coroutine)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    def error(self, text: str) -> None:
        self.errors.append((time.perf_counter(), text))

    @property
    def active(self) -> list[Table]:
        return [table for table in self.tables if not table.parked]

    async def add(self, tables: Sequence[Table], concurrency: int = 64) -> None:
        """Open the tables' sockets (at most ``concurrency`` handshakes at once), wait
        for every first message, then let their players act."""
        gate = asyncio.Semaphore(concurrency)

        async def opened(table: Table) -> None:
            async with gate:
                table.open()
                await asyncio.gather(*(watcher.ready.wait() for watcher in table.watchers))

        await asyncio.gather(*(opened(table) for table in tables))
        self.tables.extend(tables)
        for table in tables:
            table.begin()

    async def park_down_to(self, count: int) -> None:
        """Park the newest active tables until ``count`` remain active."""
        active = self.active
        await asyncio.gather(*(table.park() for table in active[count:]))

    def window(self) -> Window:
        logs = [log for table in self.tables for log in table.logs]
        return Window(
            at=time.perf_counter(),
            moves=len(self.moves),
            messages=self.messages,
            cpu=time.process_time(),
            duplicated=sum(log.duplicated for log in logs),
            sequence_breaks=sum(log.sequence_breaks for log in logs),
        )

    def figures(self, start: Window, end: Window, tables: int) -> StepFigures:
        """The step between ``start`` and ``end``, judged now: its moves' deliveries
        until now, its errors, duplicates and sequence breaks until now."""
        now = self.window()
        seconds = end.at - start.at
        latencies: list[float] = []
        http_ms: list[float] = []
        undelivered = unanswered = 0
        for move in self.moves[start.moves : end.moves]:
            if move.failed:
                continue  # counted among the errors
            if move.version is None or move.answered_at is None:
                unanswered += 1
                continue
            http_ms.append((move.answered_at - move.sent_at) * 1000)
            latency = fanout_latency(move.sent_at, move.version, move.table.logs)
            if latency is None:
                if not move.table.parked:
                    undelivered += 1
                continue
            latencies.append(latency * 1000)
        errors = [text for at, text in self.errors if start.at <= at]
        outcome = StepOutcome(
            tables=tables,
            latencies_ms=tuple(latencies),
            errors=len(errors) + unanswered,
            undelivered=undelivered,
            duplicated=now.duplicated - start.duplicated,
            sequence_breaks=now.sequence_breaks - start.sequence_breaks,
        )
        moves = end.moves - start.moves
        return StepFigures(
            outcome=outcome,
            seconds=seconds,
            moves=moves,
            moves_per_second=moves / seconds if seconds > 0 else 0.0,
            socket_messages_per_second=(end.messages - start.messages) / seconds
            if seconds > 0
            else 0.0,
            http_ms=http_ms,
            unanswered=unanswered,
            load_cpu_share=(end.cpu - start.cpu) / seconds if seconds > 0 else 0.0,
            errors=errors[:5],
        )

    async def quiesce(self, timeout: float = 30.0) -> None:
        """Stop sending moves and wait for those in flight to be answered."""
        self.paused = True
        deadline = time.perf_counter() + timeout
        while self.inflight and time.perf_counter() < deadline:
            await asyncio.sleep(0.05)

    async def close(self) -> None:
        self.stopping = True
        self.paused = True
        for table in self.tables:
            if table.pending is not None:
                table.pending.cancel()
        await asyncio.gather(*(table.park() for table in self.tables if not table.parked))
        for task in list(self.tasks):
            task.cancel()
