"""Live play through the whole stack, printed as one JSON object measured in one run.

Run ``python -m benchmarks.live [--tables N] [--level easy] [--target-score 100]``.

It creates a scratch database (``$SPADES_BENCH_DB_NAME``, default ``spades_bench_live``),
migrates it, and starts the platform's own processes, each in its own OS process, as the
runtime role: ``services.web`` (daphne), ``--workers`` Celery workers
(``services.worker``, ``--pool`` with ``--concurrency`` each; default 2 x threads 4, one
worker process per core) and ``services.scheduler`` (beat: watchdog and timers). Redis
is ``$REDIS_URL``'s server with database ``--redis-db`` (default 13), flushed first: a
scratch database too. Then it creates N tables of four bots, connects ``--listeners``
WebSocket listeners per table (spectators, by token; default 1), starts every game at
once, and waits until every table is finished.

Figures:

- ``events_per_second``: events committed by all tables / (last commit - first start);
- ``bot_move_ms``: for every commit made by a bot, the time from the previous commit of
  its table (the moment the bot became due) to the bot's commit;
- ``ws_delivery_ms``: for every event a listener received, from its commit to its receipt;
- ``lost_or_duplicated``: events a listener should have received (``events_for_viewer``
  for a spectator, read at the end) but did not, plus events it received more than once,
  plus messages whose ``after`` did not continue the previous message (must be 0).

Commit times are the ``committed_at`` of the commit notices (``games.live.notices``) that
``games.live.fanout`` publishes on Redis right after each commit (wall clock of the
committing process: all processes share one machine). Each figure has p50, p95 and p99 (ms).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import shutil
import sys
import threading
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

from benchmarks.percentiles import percentiles
from benchmarks.store import libpq_to_url, scratch_database, setup_django
from services.testing.processes import (
    ManagedProcess,
    database_backends_cpu_seconds,
    free_port,
    log_contains,
    web_process,
    worker_process,
)

# Django's models and the services and selectors over them are imported inside the
# functions that use them: they need Django set up on the scratch database first
# (setup_django, once the command line has named it), which a module-level import
# would come before.

ROOT = Path(__file__).resolve().parent.parent
HARD_BUDGET_MS = 250


def log(message: str) -> None:
    print(f"[bench] {message}", file=sys.stderr, flush=True)


# ---------------------------------------------------------------- commit notices


class CommitLog:
    """Every commit notice published on Redis, in a thread of its own."""

    def __init__(self, redis_url: str) -> None:
        import redis

        from games.live.notices import commits_channel, parse_commit_notices

        self.parse = parse_commit_notices
        self.client = redis.Redis.from_url(redis_url)
        self.pubsub = self.client.pubsub(ignore_subscribe_messages=True)
        self.pubsub.subscribe(commits_channel())
        self.notices: list[dict[str, Any]] = []
        self.stopping = False
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def run(self) -> None:
        while not self.stopping:
            message = self.pubsub.get_message(timeout=0.2)
            if message and message.get("type") == "message":
                self.notices += self.parse(message["data"])

    def stop(self) -> None:
        self.stopping = True
        self.thread.join(5)
        self.pubsub.close()

    def by_stream(self) -> dict[str, list[dict[str, Any]]]:
        streams: dict[str, list[dict[str, Any]]] = defaultdict(list)
        for notice in self.notices:
            streams[notice["stream_id"]].append(notice)
        for notices in streams.values():
            notices.sort(key=lambda n: n["version"])
        return streams


def is_bot_actor(actor: Any) -> bool:
    """Whether a notice's actor (the event metadata's ``actor``) is a bot."""
    if isinstance(actor, dict):
        return actor.get("kind") == "bot"
    return isinstance(actor, str) and actor.startswith("bot")


# ---------------------------------------------------------------- listeners


class Listener:
    """One spectator WebSocket on one table; records (version, receipt time) per event."""

    def __init__(self, table_id: str, url: str, origin: str) -> None:
        self.table_id = table_id
        self.url = url
        self.origin = origin
        self.received: list[tuple[int, float]] = []
        self.sent_at: dict[int, float] = {}
        self.start_version = 0
        self.broken_sequence = 0
        self.finished = asyncio.Event()
        self.ready = asyncio.Event()
        self.error: str | None = None

    async def run(self, stop: asyncio.Event) -> None:
        from websockets.asyncio.client import connect

        try:
            async with connect(self.url, origin=self.origin, max_size=None) as socket:  # type: ignore[arg-type]
                first = json.loads(await socket.recv())
                if first.get("type") != "state":
                    raise RuntimeError(f"first message {first!r}")
                last = self.start_version = int(first["version"])
                self.ready.set()
                while not stop.is_set():
                    try:
                        raw = await asyncio.wait_for(socket.recv(), timeout=0.5)
                    except TimeoutError:
                        continue
                    now = time.time()
                    message = json.loads(raw)
                    if message.get("type") != "events":
                        self.error = f"unexpected message {message!r}"
                        continue
                    if int(message["after"]) != last:
                        self.broken_sequence += 1
                    last = int(message["version"])
                    for event in message["events"]:
                        self.received.append((int(event["version"]), now))
                        self.sent_at[int(event["version"])] = float(message["sent_at"])
                    if message["table"].get("status") == "finished":
                        self.finished.set()
        except Exception as exc:  # reported in the figures, never hidden
            self.error = f"{type(exc).__name__}: {exc}"
            self.ready.set()
            self.finished.set()


class ListenerLoop:
    """All listeners on one asyncio loop in a background thread."""

    def __init__(self, listeners: list[Listener]) -> None:
        self.listeners = listeners
        self.loop = asyncio.new_event_loop()
        self.stop_event: asyncio.Event | None = None
        self.all_ready = threading.Event()
        self.all_finished = threading.Event()
        self.thread = threading.Thread(target=self.loop.run_until_complete, args=(self.main(),))
        self.thread.start()

    async def main(self) -> None:
        self.stop_event = asyncio.Event()
        tasks = [asyncio.create_task(listener.run(self.stop_event)) for listener in self.listeners]
        await asyncio.gather(*(listener.ready.wait() for listener in self.listeners))
        self.all_ready.set()
        await asyncio.gather(*(listener.finished.wait() for listener in self.listeners))
        self.all_finished.set()
        await self.stop_event.wait()
        await asyncio.gather(*tasks)

    def stop(self) -> None:
        if self.stop_event is not None:
            self.loop.call_soon_threadsafe(self.stop_event.set)
        self.thread.join(30)


# ---------------------------------------------------------------- the run


def create_tables(count: int, level: str, target_score: int) -> tuple[list[str], Any]:
    """N tables of four bots (lobby), and a spectator user with a token."""
    from django.contrib.auth import get_user_model
    from rest_framework.authtoken.models import Token

    from games.services.table_commands import create_table

    user_model = get_user_model()
    host, _ = user_model.objects.get_or_create(username="bench-host")
    spectator, _ = user_model.objects.get_or_create(username="bench-spectator")
    token, _ = Token.objects.get_or_create(user=spectator)
    seats = {seat: {"kind": "bot", "level": level} for seat in ("north", "east", "south", "west")}
    table_ids = []
    for _ in range(count):
        result = create_table(
            actor=host,
            rules={"preset": "standard", "target_score": target_score},
            seats=seats,
            command_id=None,
        )
        table_ids.append(str(result.table_id))
    return table_ids, (host, token.key)


def start_games(table_ids: list[str], host: Any) -> float:
    """Start every game; returns the wall-clock time of the first start."""
    from games.services.table_commands import StartGame, execute

    started = time.time()
    for table_id in table_ids:
        execute(StartGame(table_id), host)
    return started


def expected_versions(table_id: str, after: int) -> list[int]:
    """What a spectator may see of the table's stream after ``after`` (the REST filter)."""
    from games.selectors.visibility import events_for_viewer

    return [int(e["version"]) for e in events_for_viewer(table_id, None, after_version=after)]


def worker_nice_env(nice: int | None) -> dict[str, str]:
    """``$SPADES_WORKER_NICE`` for the workers when ``--worker-nice`` was given; otherwise
    nothing, so they run with the platform's default (services/worker.py)."""
    return {} if nice is None else {"SPADES_WORKER_NICE": str(nice)}


def effective_worker_nice(nice: int | None) -> int:
    """The nice level the workers ran at."""
    from services.worker import DEFAULT_NICE

    if nice is not None:
        return nice
    return int(os.environ.get("SPADES_WORKER_NICE", DEFAULT_NICE))


def measure(args: argparse.Namespace, owner_url: str, app_url: str) -> dict[str, Any]:
    import redis
    from django.conf import settings

    redis_url = settings.REDIS_URL
    database = str(settings.DATABASES["default"]["NAME"])
    redis.Redis.from_url(redis_url).flushdb()
    run_dir = ROOT / ".run" / f"bench-live-{os.getpid()}"
    run_dir.mkdir(parents=True, exist_ok=True)
    env = {
        "DATABASE_URL": libpq_to_url(app_url),
        "DATABASE_OWNER_URL": libpq_to_url(owner_url),
        "SPADES_DB_ROLE": "app",
        "REDIS_URL": redis_url,
        "DB_CONN_MAX_AGE": "60",
        "LOG_LEVEL": "WARNING",
        "PYTHONUNBUFFERED": "1",
        "SPADES_BEAT_SCHEDULE": str(run_dir / "beat-schedule"),
        "SPADES_BEAT_PIDFILE": str(run_dir / "beat.pid"),
    }
    port = free_port()
    processes: list[ManagedProcess] = [web_process(env, run_dir, port)]
    for index in range(args.workers):
        processes.append(
            worker_process(
                {**env, "LOG_LEVEL": "INFO", **worker_nice_env(args.worker_nice)},
                run_dir,
                name=f"worker{index}",
                concurrency=args.concurrency,
                pool=args.pool,
            )
        )
    processes.append(
        ManagedProcess(
            "scheduler",
            "services.scheduler",
            [],
            {**env, "LOG_LEVEL": "INFO"},
            run_dir,
            log_contains("beat: Starting"),
        )
    )
    commits: CommitLog | None = None
    listeners_loop: ListenerLoop | None = None
    try:
        for process in processes:
            process.start(timeout=60)
        log(f"processes up: web on :{port}, {args.workers} worker(s) x {args.concurrency}")
        table_ids, (host, token) = create_tables(args.tables, args.level, args.target_score)
        log(
            f"created {len(table_ids)} tables of four {args.level} bots "
            f"(target {args.target_score})"
        )
        commits = CommitLog(redis_url)
        origin = f"http://127.0.0.1:{port}"
        listeners = [
            Listener(table_id, f"ws://127.0.0.1:{port}/ws/tables/{table_id}/?token={token}", origin)
            for table_id in table_ids
            for _ in range(args.listeners)
        ]
        listeners_loop = ListenerLoop(listeners)
        if not listeners_loop.all_ready.wait(60):
            raise RuntimeError("listeners did not connect")
        cpu_before = {process.name: process.cpu_seconds() for process in processes}
        cpu_before["postgres"] = database_backends_cpu_seconds(database)
        cpu_before["benchmark"] = time.process_time()
        load_before = os.getloadavg()[0]
        # The listeners' receipt times are the measurement: this process's own full
        # collections (up to 80 ms, measured) must not delay them. It only collects samples
        # meanwhile, and collects once the run is over.
        gc.collect()
        gc.freeze()
        gc.disable()
        started = start_games(table_ids, host)
        log("games started")
        if not listeners_loop.all_finished.wait(args.timeout):
            unfinished = sum(1 for listener in listeners if not listener.finished.is_set())
            raise RuntimeError(f"{unfinished} table(s) unfinished after {args.timeout}s")
        time.sleep(1.0)  # let the last notices and messages land
        cpu_used = {
            process.name: process.cpu_seconds() - cpu_before[process.name] for process in processes
        }
        # Backends that closed during the run are missing: a lower bound.
        cpu_used["postgres"] = database_backends_cpu_seconds(database) - cpu_before["postgres"]
        cpu_used["benchmark"] = time.process_time() - cpu_before["benchmark"]
        load_after = os.getloadavg()[0]
        gc.enable()
        listeners_loop.stop()
        commits.stop()
    finally:
        gc.enable()
        if listeners_loop is not None:
            listeners_loop.stop()
        if commits is not None:
            commits.stop()
        for process in processes:
            process.terminate()
        for process in reversed(processes):
            process.stop()
        if not args.keep_db:
            shutil.rmtree(run_dir, ignore_errors=True)

    streams = commits.by_stream()
    commit_time: dict[tuple[str, int], float] = {}
    bot_moves: list[float] = []
    total_events = 0
    last_commit = started
    for stream_id, notices in streams.items():
        previous: dict[str, Any] | None = None
        for notice in notices:
            for version in range(notice["first_version"], notice["version"] + 1):
                commit_time[(stream_id, version)] = notice["committed_at"]
            if notice["committed_at"] >= started:
                total_events += notice["version"] - notice["first_version"] + 1
                last_commit = max(last_commit, notice["committed_at"])
            if previous is not None and is_bot_actor(notice.get("actor")):
                bot_moves.append((notice["committed_at"] - previous["committed_at"]) * 1000)
            previous = notice

    deliveries: list[float] = []
    server_side: list[float] = []
    samples: list[tuple[float, str, int, float, float]] = []
    lost = duplicated = broken = 0
    lost_examples: list[str] = []
    errors = []
    for listener in listeners:
        stream_id = f"table-{listener.table_id}"
        versions = [version for version, _ in listener.received]
        expected = expected_versions(listener.table_id, listener.start_version)
        received = set(versions)
        missing = sorted(set(expected) - received)
        if missing and len(lost_examples) < 5:
            lost_examples.append(f"{listener.table_id} v{missing[:5]} of {len(expected)}")
        lost += len(missing)
        duplicated += len(versions) - len(received)
        broken += listener.broken_sequence
        if listener.error:
            errors.append(listener.error)
        for version, received_at in listener.received:
            committed = commit_time.get((stream_id, version))
            if committed is not None:
                deliveries.append((received_at - committed) * 1000)
                server_side.append((listener.sent_at[version] - committed) * 1000)
                samples.append(
                    (
                        round(committed - started, 4),
                        listener.table_id,
                        version,
                        round(deliveries[-1], 2),
                        round(server_side[-1], 2),
                    )
                )
    duration = last_commit - started
    if args.samples:
        with open(args.samples, "w") as out:
            out.write("committed_s,table,version,ws_delivery_ms,ws_commit_to_send_ms\n")
            out.writelines(",".join(map(str, sample)) + "\n" for sample in sorted(samples))
    return {
        "tables": args.tables,
        "level": args.level,
        "target_score": args.target_score,
        "workers": args.workers,
        "worker_concurrency": args.concurrency,
        "worker_pool": args.pool,
        "worker_nice": effective_worker_nice(args.worker_nice),
        "listeners_per_table": args.listeners,
        "events": total_events,
        "seconds": round(duration, 2),
        "events_per_second": round(total_events / duration, 1) if duration > 0 else None,
        "bot_move_ms": percentiles(bot_moves),
        "ws_delivery_ms": percentiles(deliveries),
        "ws_commit_to_send_ms": percentiles(server_side),
        "lost_or_duplicated": lost + duplicated + broken,
        "lost": lost,
        "duplicated": duplicated,
        "sequence_breaks": broken,
        "lost_examples": lost_examples,
        "targets": {
            "ws_delivery_p99_ms_below": 100,
            "bot_move_p95_ms_below": HARD_BUDGET_MS + 100,
        },
        "listener_errors": errors[:5],
        "cpu_ms_per_event": {
            name: round(1000 * used / total_events, 2) if total_events else None
            for name, used in cpu_used.items()
        },
        "load_average_1min": {"before": round(load_before, 2), "after": round(load_after, 2)},
        "cpus": os.cpu_count(),
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.live", description=__doc__)
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--level", choices=("easy", "normal", "hard"), default="easy")
    parser.add_argument("--target-score", type=int, default=100)
    parser.add_argument("--workers", type=int, default=2, help="worker processes (default 2)")
    parser.add_argument(
        "--concurrency", type=int, default=4, help="pool size per worker (default 4)"
    )
    parser.add_argument(
        "--pool",
        choices=("prefork", "threads", "solo"),
        default="threads",
        help="Celery pool (default threads: measured best for Easy/Normal bots, docs/live.md)",
    )
    parser.add_argument(
        "--listeners", type=int, default=1, help="WebSocket spectators per table (default 1)"
    )
    parser.add_argument(
        "--worker-nice",
        type=int,
        default=None,
        help="workers' nice level ($SPADES_WORKER_NICE; default: the platform's, 10)",
    )
    parser.add_argument("--redis-db", type=int, default=13, help="scratch Redis database")
    parser.add_argument("--timeout", type=float, default=600, help="seconds for all games")
    parser.add_argument("--keep-db", action="store_true")
    parser.add_argument(
        "--samples", metavar="CSV", help="write every WebSocket delivery (time, table, ms) here"
    )
    args = parser.parse_args(argv)
    if min(args.tables, args.workers, args.concurrency, args.target_score, args.listeners) < 1:
        parser.error(
            "--tables, --workers, --concurrency, --target-score and --listeners must be positive"
        )
    if not 0 <= args.redis_db <= 15:
        parser.error("--redis-db must be 0..15")

    base = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0").rsplit("/", 1)[0]
    os.environ["REDIS_URL"] = f"{base}/{args.redis_db}"
    os.environ.setdefault("LOG_LEVEL", "WARNING")
    # One host creates every table: the per-user quotas (services/settings.py) let it.
    os.environ["SPADES_MAX_OPEN_TABLES_PER_USER"] = str(args.tables)
    os.environ["SPADES_MAX_BOT_TABLES_PER_USER"] = str(args.tables)
    # One listener user and one address hold every table's sockets: lift the live caps
    # (games.live.connection_limits) to what the run opens, or most listeners are refused.
    sockets = str(min(1000, max(8, args.tables * args.listeners)))
    os.environ["WS_CONNECTIONS_PER_USER"] = sockets
    os.environ["WS_CONNECTIONS_PER_ADDRESS"] = sockets
    name = os.environ.get("SPADES_BENCH_DB_NAME", "spades_bench_live")
    with scratch_database(name, args.keep_db) as (owner_url, app_url):
        setup_django(owner_url, app_url)
        figures = measure(args, owner_url, app_url)
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
