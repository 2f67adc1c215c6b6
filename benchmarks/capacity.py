"""How many live tables of people one box serves, against a bare relay, in one run.

Run ``python -m benchmarks.capacity [--quick] [--web-processes N --workers M]``; the
method, the figures and where the time goes are in docs/benchmarks.md ("Capacity").

1. **The platform.** A scratch database (``--db-name``, default
   ``spades_bench_capacity``, made and migrated, dropped at the end) and a scratch Redis
   database (``--redis-db``, flushed); the platform's processes as ``bin/run`` runs them,
   each its own OS process on the runtime role with the platform's defaults: ``web``
   (``--web-processes``, one port each; the tables are split across the ports, as a load
   balancer would), ``worker`` (``--workers``), ``projector``, ``scheduler``. Only the
   limits that one benchmark address would trip are raised (below). Then a ramp: each
   step adds tables of four players (accounts and tokens made in bulk in the scratch
   database, seated, the game started) with two spectators, every socket open; the
   players act through the HTTP API after a think time around ``--think-seconds``
   (``benchmarks.loadgen``). After ``--warmup`` seconds a step measures for ``--step-seconds``:
   each move from its request to the last of its table's six sockets receiving it. A
   step holds when its p99 is at most 100 ms and nothing failed, went missing, came
   twice or out of sequence (``benchmarks.ramp``); the ramp grows by ``--factor`` until a
   step fails (stepping down by the same factor if the first fails), then bisects
   ``--refine`` times between the last count that held and the first that failed.
   ``max_tables`` is the largest count that held.
2. **Idle.** The players stop; with every socket of the last step still open, PostgreSQL's
   own statistics (``pg_stat_database``) count the transactions of the scratch database
   over ``--idle-seconds``: ``db_queries_per_second_idle`` (a safety sweep's query is
   one autocommit statement, one transaction; an idle projector round, one transaction
   of a few statements).
3. **Lost and duplicated.** Each socket's events are compared with what the platform's
   one visibility filter (``events_for_viewer``) gives that viewer.
4. **The relay** (``benchmarks.relay``): the same ramp, the same load generator, on
   ``--web-processes`` daphnes serving a bare relay with the same channel layer, its
   messages and answers of the mean sizes the platform's had.

Limits raised for the benchmark's processes (every client is one address, 127.0.0.1):
``WS_CONNECTIONS_PER_ADDRESS`` (the spectators have no login), ``WS_CONNECTIONS_PER_USER``
and the per-user command throttle (``THROTTLE_COMMANDS``), none of which a person at
human pace reaches; their checks still run (a Redis round trip each, as in production).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import resource
import shutil
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import psycopg

from benchmarks.deliveries import account
from benchmarks.loadgen import Load, RelayTable, SpadesTable, StepFigures, Table
from benchmarks.percentiles import percentiles
from benchmarks.ramp import LATENCY_LIMIT_MS, Ramp, failure
from benchmarks.store import libpq_to_url, scratch_database, setup_django
from services.testing.processes import (
    ManagedProcess,
    database_backends_cpu_seconds,
    free_port,
    listening,
    log_contains,
    web_process,
    worker_process,
)

# Django's models and the services and selectors over them are imported inside the
# functions that use them: they need Django set up on the scratch database first
# (setup_django, once the command line has named it), which a module-level import
# would come before.

ROOT = Path(__file__).resolve().parent.parent
#: File descriptors the load generator holds per table: six sockets, one HTTP connection.
FDS_PER_TABLE = 7
#: A backend flushes its statistics at most once a second while busy and within 10 s of
#: going idle (PGSTAT_IDLE_INTERVAL): the idle count starts after that, or the last
#: moves' transactions would land in it.
STATS_SETTLE_SECONDS = 11.0
#: Targets of issue 21.
TARGETS = {
    "ratio_to_relay_min": 0.5,
    "max_tables_min": 500,
    "db_queries_per_second_idle_per_100_tables_max": 1.0,
    "p99_ms_max": LATENCY_LIMIT_MS,
    "lost": 0,
    "duplicated": 0,
}
QUICK = {
    "start": 4,
    "factor": 2.0,
    "max_tables": 16,
    "refine": 0,
    "warmup": 3.0,
    "step_seconds": 8.0,
    "grace": 2.0,
    "idle_seconds": 8.0,
}
FULL = {
    "start": 25,
    "factor": 1.5,
    "max_tables": 2000,
    "refine": 2,
    "warmup": 10.0,
    "step_seconds": 30.0,
    "grace": 3.0,
    "idle_seconds": 30.0,
}


def log(message: str) -> None:
    print(f"[capacity] {message}", file=sys.stderr, flush=True)


def load_average() -> float:
    return round(os.getloadavg()[0], 2)


# ---------------------------------------------------------------- processes


def platform_env(
    redis_url: str, run_dir: Path, sockets: int, owner_url: str, app_url: str
) -> dict[str, str]:
    """The platform processes' environment on the scratch database, as the app role."""
    return {
        **base_env(redis_url, run_dir, sockets),
        "DATABASE_URL": libpq_to_url(app_url),
        "DATABASE_OWNER_URL": libpq_to_url(owner_url),
        "SPADES_DB_ROLE": "app",
    }


def base_env(redis_url: str, run_dir: Path, sockets: int) -> dict[str, str]:
    """What every process of the run shares: bin/run's settings, the scratch Redis, the
    raised per-address limits."""
    return {
        "REDIS_URL": redis_url,
        "PYTHONUNBUFFERED": "1",
        "DEBUG": "0",
        "DB_CONN_MAX_AGE": "60",
        "LOG_LEVEL": "INFO",  # bin/run's (the settings' default); the readiness probes read it
        "SPADES_BEAT_SCHEDULE": str(run_dir / "beat-schedule"),
        "SPADES_BEAT_PIDFILE": str(run_dir / "beat.pid"),
        "SPADES_PROJECTOR_HEARTBEAT": str(run_dir / "projector.heartbeat"),
        "WS_CONNECTIONS_PER_ADDRESS": str(min(10_000, max(16, sockets))),
        "WS_CONNECTIONS_PER_USER": "1000",
        "THROTTLE_COMMANDS": "100000/min",
    }


def platform_processes(
    args: argparse.Namespace, env: dict[str, str], run_dir: Path
) -> tuple[list[ManagedProcess], list[int]]:
    """web x N, worker x M, projector, scheduler: bin/run's Procfile, each a process."""
    ports = [free_port() for _ in range(args.web_processes)]
    processes = [
        web_process(env, run_dir, port, name=f"web{index}") for index, port in enumerate(ports)
    ]
    concurrency = int(os.environ.get("SPADES_WORKER_CONCURRENCY", "2"))
    processes += [
        worker_process(env, run_dir, name=f"worker{index}", concurrency=concurrency)
        for index in range(args.workers)
    ]
    processes.append(
        ManagedProcess(
            "projector",
            "services.projector",
            [],
            env,
            run_dir,
            log_contains("projector started"),
        )
    )
    processes.append(
        ManagedProcess(
            "scheduler",
            "services.scheduler",
            [],
            env,
            run_dir,
            log_contains("beat: Starting"),
        )
    )
    return processes, ports


def relay_processes(
    args: argparse.Namespace, env: dict[str, str], run_dir: Path
) -> tuple[list[ManagedProcess], list[int]]:
    """``benchmarks.relay`` x N, each on services.web's command line and port settings."""
    ports = [free_port() for _ in range(args.web_processes)]
    processes = [
        ManagedProcess(
            f"relay{index}",
            "benchmarks.relay",
            [],
            {**env, "SPADES_BIND": "127.0.0.1", "SPADES_HTTP_PORT": str(port)},
            run_dir,
            listening(port),
        )
        for index, port in enumerate(ports)
    ]
    return processes, ports


@contextmanager
def running(processes: list[ManagedProcess], run_dir: Path, keep: bool) -> Iterator[None]:
    """The processes started (each ready) for the block, then stopped by their PIDs; their
    logs removed unless ``keep``."""
    try:
        for process in processes:
            process.start(timeout=90)
        yield
    finally:
        for process in processes:
            process.terminate()
        for process in reversed(processes):
            process.stop()
        if not keep:
            shutil.rmtree(run_dir, ignore_errors=True)


def redis_port(redis_url: str) -> int:
    return urlparse(redis_url).port or 6379


def redis_server_cpu_seconds(port: int) -> float | None:
    """CPU time of the redis-server listening on ``port`` (its command line names it),
    shared with whatever else uses that server; None when not found here."""
    ticks = os.sysconf("SC_CLK_TCK")
    for proc in Path("/proc").glob("[0-9]*"):
        try:
            title = (proc / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            if "redis-server" not in title or f":{port}" not in title:
                continue
            fields = (proc / "stat").read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        return sum(int(value) for value in fields[11:13]) / ticks
    return None


@dataclass
class Meters:
    """CPU time of every process the run measures."""

    processes: list[ManagedProcess]
    database: str | None
    redis_port: int

    def read(self) -> dict[str, float]:
        seconds = {process.name: process.cpu_seconds() for process in self.processes}
        if self.database is not None:
            # Backends that closed meanwhile are missing: a lower bound.
            seconds["postgres"] = database_backends_cpu_seconds(self.database)
        redis_seconds = redis_server_cpu_seconds(self.redis_port)
        if redis_seconds is not None:
            seconds["redis_server_shared"] = redis_seconds
        seconds["load_generator"] = time.process_time()
        return seconds


def shares(before: dict[str, float], after: dict[str, float], seconds: float) -> dict[str, float]:
    """CPU seconds per second of wall time (1.0 is one core busy) of each process."""
    return {
        name: round((after[name] - before[name]) / seconds, 3)
        for name in after
        if name in before and seconds > 0
    }


# ---------------------------------------------------------------- the ramp


@dataclass
class Step:
    """One step's figures, as reported."""

    tables: int
    figures: StepFigures
    cpu_share: dict[str, float]
    load_average: tuple[float, float]
    failure: str | None
    #: What the players would send with no wait at all: one move per think time a table.
    offered_moves_per_second: float

    def report(self) -> dict[str, Any]:
        outcome = self.figures.outcome
        http = percentiles(self.figures.http_ms)
        return {
            "tables": self.tables,
            "held": self.failure is None,
            "failure": self.failure,
            "moves": self.figures.moves,
            "p50_ms": outcome.p50_ms,
            "p99_ms": outcome.p99_ms,
            "http_p50_ms": http["p50"],
            "http_p99_ms": http["p99"],
            "commands_per_second": round(self.figures.moves_per_second, 1),
            "offered_commands_per_second": round(self.offered_moves_per_second, 1),
            "socket_messages_per_second": round(self.figures.socket_messages_per_second, 1),
            "errors": outcome.errors,
            "undelivered": outcome.undelivered,
            "duplicated": outcome.duplicated,
            "sequence_breaks": outcome.sequence_breaks,
            "error_examples": self.figures.errors,
            "cpu_share": self.cpu_share,
            "load_average_1min": {"start": self.load_average[0], "end": self.load_average[1]},
        }


@dataclass
class RampResult:
    steps: list[Step] = field(default_factory=list)
    largest_held: int = 0

    def at_max(self) -> Step | None:
        """The last step at the largest count that held."""
        held = [step for step in self.steps if step.failure is None]
        held = [step for step in held if step.tables == self.largest_held]
        return held[-1] if held else None


async def run_ramp(
    load: Load,
    make_tables: Callable[[int], Awaitable[list[Table]]],
    args: argparse.Namespace,
    meters: Meters,
    profile: Callable[[int], subprocess.Popen[bytes] | None] = lambda tables: None,
) -> RampResult:
    """Step up the table count until a step fails (then bisect), as ``benchmarks.ramp``
    decides; the processes' CPU is read at each window's ends."""
    ramp = Ramp(args.start, args.factor, args.max_tables, args.refine)
    result = RampResult()
    tables: int | None = ramp.first
    while tables is not None:
        active = len(load.active)
        if tables > active:
            log(f"adding {tables - active} table(s) to {active}")
            new = await make_tables(tables - active)
            await load.add(new)
        elif tables < active:
            log(f"parking {active - tables} table(s) of {active}")
            parking = time.perf_counter()
            await load.park_down_to(tables)
            log(f"parked in {time.perf_counter() - parking:.2f} s")
        await asyncio.sleep(args.warmup)
        # The receipt times are the measurement: no full collection of this process may
        # delay them (it only appends samples meanwhile; collected after the step).
        gc.collect()
        gc.disable()
        load_start = load_average()
        cpu_start = await asyncio.to_thread(meters.read)
        start = load.window()
        profiler = profile(tables)
        await asyncio.sleep(args.step_seconds)
        end = load.window()
        cpu_end = await asyncio.to_thread(meters.read)
        load_end = load_average()
        await asyncio.sleep(args.grace)
        figures = load.figures(start, end, tables)
        gc.enable()
        if profiler is not None:
            profiler.wait()
        cpu = shares(cpu_start, cpu_end, end.at - start.at)
        cpu["load_generator"] = round(figures.load_cpu_share, 3)
        reason = failure(figures.outcome, args.p99_limit_ms)
        offered = tables / args.think_seconds
        step = Step(tables, figures, cpu, (load_start, load_end), reason, offered)
        result.steps.append(step)
        log(
            f"{tables} tables: p50 {figures.outcome.p50_ms} p99 {figures.outcome.p99_ms} ms, "
            f"{figures.moves_per_second:.1f} moves/s, {figures.socket_messages_per_second:.0f} "
            f"msgs/s, load {load_start}->{load_end}: {reason or 'held'}"
        )
        tables = ramp.after(tables, reason is None)
    result.largest_held = ramp.largest_held
    return result


# ---------------------------------------------------------------- the platform's tables


@dataclass(frozen=True)
class Seating:
    """A table made for the run: its id, its players' user ids and tokens by seat."""

    table_id: str
    user_ids: tuple[int, ...]
    tokens: tuple[str, ...]


def create_tables(count: int, label: str) -> list[Seating]:
    """``count`` tables in play, four new players each: accounts and tokens in bulk (no
    sign-up, no password hashing: the scratch database is the benchmark's), then each
    table created, seated and started through the tables' service in one transaction."""
    from django.contrib.auth import get_user_model
    from django.db import connections, transaction
    from rest_framework.authtoken.models import Token

    from games.services.table_commands import StartGame, TakeSeat, create_table, execute

    user_model = get_user_model()
    users = []
    for index in range(count * 4):
        user = user_model(username=f"{label}-{index}")
        user.set_unusable_password()
        users.append(user)
    users = user_model.objects.bulk_create(users)
    tokens = Token.objects.bulk_create(
        [Token(key=Token.generate_key(), user=user) for user in users]
    )
    seatings = []
    for number in range(count):
        players = users[number * 4 : number * 4 + 4]
        with transaction.atomic():
            created = create_table(
                actor=players[0], rules={"preset": "standard", "target_score": 10_000}
            )
            for seat, player in enumerate(players):
                execute(TakeSeat(created.table_id, seat), player)
            execute(StartGame(created.table_id), players[0])
        seatings.append(
            Seating(
                str(created.table_id),
                tuple(player.pk for player in players),
                tuple(token.key for token in tokens[number * 4 : number * 4 + 4]),
            )
        )
    connections.close_all()
    return seatings


def platform_lost_and_duplicated(tables: Sequence[SpadesTable]) -> tuple[int, int, list[str]]:
    """Every socket's events against ``events_for_viewer`` for its viewer after the
    version it connected at, up to the table's ``accounted_until`` (what was committed
    before its sockets closed)."""
    from django.contrib.auth import get_user_model
    from django.db import connections

    from games.selectors.visibility import events_for_viewer

    users = get_user_model().objects.in_bulk(
        [user_id for table in tables for user_id in table.user_ids]
    )
    lost = duplicated = 0
    examples: list[str] = []
    for table in tables:
        ceiling = accounted_until(table)
        for watcher in table.watchers:
            viewer = users[table.user_ids[watcher.seat]] if watcher.seat is not None else None
            after = watcher.log.start or 0
            expected = [
                int(event["version"])
                for event in events_for_viewer(table.key, viewer, after_version=after)
            ]
            if ceiling is not None:
                expected = [version for version in expected if version <= ceiling]
            counted = account(expected, watcher.log.events)
            if counted.lost and len(examples) < 5:
                missing = sorted(set(expected) - set(watcher.log.events))
                examples.append(
                    f"{table.key} seat {watcher.seat}: {counted.lost} lost "
                    f"(versions {missing[0]}..{missing[-1]}; the socket started at "
                    f"{watcher.log.start}, reached {watcher.log.version}, accounted to {ceiling})"
                )
            lost += counted.lost
            duplicated += counted.duplicated
    connections.close_all()
    return lost, duplicated, examples


def accounted_until(table: Table) -> int | None:
    """The last version each socket of ``table`` must have received: the one parking
    waited for (``Table.park``: moves in flight answered, then every socket given time
    to reach it, then all closed together), None (the whole stream) for a table never
    parked. Not the highest version any one socket reached: a commit landing while the
    sockets closed one after another reached only those still open."""
    if not table.parked:
        return None
    if table.final_version is None:  # parking did not get that far
        return max((log.version or 0) for log in table.logs)
    return table.final_version


def relay_lost_and_duplicated(tables: Sequence[Table]) -> tuple[int, int]:
    """Every relay socket got every version from 1 to the one its table was parked at
    (the relay keeps no stream to compare with)."""
    lost = duplicated = 0
    for table in tables:
        until = accounted_until(table)
        ceiling = until if until is not None else max((log.version or 0) for log in table.logs)
        for log in table.logs:
            counted = account(range(1, ceiling + 1), log.events)
            lost += counted.lost
            duplicated += counted.duplicated
    return lost, duplicated


def database_activity(app_url: str, database: str) -> tuple[int, int]:
    """(transactions, table scans) of ``database`` so far, from PostgreSQL's statistics."""
    with psycopg.connect(app_url, autocommit=True) as connection:
        transactions = connection.execute(
            "SELECT xact_commit + xact_rollback FROM pg_stat_database WHERE datname = %s",
            [database],
        ).fetchone()
        scans = connection.execute(
            "SELECT coalesce(sum(coalesce(seq_scan, 0) + coalesce(idx_scan, 0)), 0) "
            "FROM pg_stat_user_tables"
        ).fetchone()
    assert transactions is not None and scans is not None
    return int(transactions[0]), int(scans[0])


async def measure_idle(load: Load, app_url: str, database: str, seconds: float) -> dict[str, Any]:
    """Queries per second with every socket open and nobody moving."""
    await load.quiesce()
    await asyncio.sleep(STATS_SETTLE_SECONDS)
    tables = len(load.active)
    before = await asyncio.to_thread(database_activity, app_url, database)
    started = time.perf_counter()
    await asyncio.sleep(seconds)
    after = await asyncio.to_thread(database_activity, app_url, database)
    elapsed = time.perf_counter() - started
    # One transaction and one scan of each reading are the benchmark's own.
    transactions = max(0, after[0] - before[0] - 1) / elapsed
    scans = max(0, after[1] - before[1]) / elapsed
    return {
        "tables": tables,
        "sockets": tables * 6,
        "seconds": round(elapsed, 1),
        "transactions_per_second": round(transactions, 2),
        "table_scans_per_second": round(scans, 2),
        "per_100_tables": round(100 * transactions / tables, 3) if tables else None,
        "load_average_1min": load_average(),
    }


def py_spy(directory: Path | None, process: ManagedProcess, seconds: float) -> Any:
    """A ``py-spy record`` of ``process`` for ``seconds`` per step (raw collapsed stacks
    in ``directory``), when asked."""
    if directory is None:
        return lambda tables: None
    directory.mkdir(parents=True, exist_ok=True)
    executable = shutil.which("py-spy") or str(Path(sys.executable).parent / "py-spy")

    def start(tables: int) -> subprocess.Popen[bytes]:
        output = directory / f"{process.name}-{tables}-tables.txt"
        return subprocess.Popen(
            [
                executable,
                "record",
                "--pid",
                str(process.pid),
                "--duration",
                str(max(1, int(seconds))),
                "--rate",
                "100",
                "--nonblocking",
                "--gil",
                "--format",
                "raw",
                "--output",
                str(output),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )

    return start


def run_platform(
    args: argparse.Namespace, owner_url: str, app_url: str, redis_url: str
) -> dict[str, Any]:
    from django.conf import settings

    database = str(settings.DATABASES["default"]["NAME"])
    run_dir = ROOT / ".run" / f"bench-capacity-{os.getpid()}"
    env = platform_env(redis_url, run_dir, args.max_tables * 2, owner_url, app_url)
    processes, ports = platform_processes(args, env, run_dir)
    with running(processes, run_dir, keep=args.keep_db):
        log(f"platform up: web on {ports}, {args.workers} worker(s), projector, scheduler")
        meters = Meters(processes, database, redis_port(redis_url))
        return asyncio.run(drive_platform(args, app_url, database, ports, meters, processes))


async def drive_platform(
    args: argparse.Namespace,
    app_url: str,
    database: str,
    ports: list[int],
    meters: Meters,
    processes: list[ManagedProcess],
) -> dict[str, Any]:
    load = Load(args.think_seconds, args.seed)
    made = [0]

    async def make_tables(count: int) -> list[Table]:
        seatings = await asyncio.to_thread(create_tables, count, f"cap{made[0]}")
        tables: list[Table] = []
        for seating in seatings:
            port = ports[made[0] % len(ports)]
            tables.append(
                SpadesTable(load, seating.table_id, seating.tokens, port, seating.user_ids)
            )
            made[0] += 1
        return tables

    web = next(process for process in processes if process.name == "web0")
    profile = py_spy(args.py_spy, web, args.step_seconds)
    try:
        ramp = await run_ramp(load, make_tables, args, meters, profile)
        idle = await measure_idle(load, app_url, database, args.idle_seconds)
        log(f"idle: {idle}")
        await asyncio.sleep(1.0)
        await load.close()
    finally:
        if not load.stopping:
            await load.close()
    lost, duplicated, examples = await asyncio.to_thread(
        platform_lost_and_duplicated,
        [table for table in load.tables if isinstance(table, SpadesTable)],
    )
    sizes = {
        "socket_message_bytes": round(load.message_bytes / load.messages) if load.messages else 0,
        "response_bytes": round(load.response_bytes / load.responses) if load.responses else 0,
    }
    return {
        "ramp": ramp,
        "idle": idle,
        "lost": lost,
        "duplicated": duplicated,
        "lost_examples": examples,
        "sizes": sizes,
    }


def run_relay(args: argparse.Namespace, redis_url: str, sizes: dict[str, int]) -> dict[str, Any]:
    run_dir = ROOT / ".run" / f"bench-capacity-relay-{os.getpid()}"
    env = base_env(redis_url, run_dir, args.max_tables * 6)
    processes, ports = relay_processes(args, env, run_dir)
    with running(processes, run_dir, keep=False):
        log(f"relay up on {ports}: messages of {sizes['socket_message_bytes']} bytes")
        meters = Meters(processes, None, redis_port(redis_url))
        return asyncio.run(drive_relay(args, ports, sizes, meters))


async def drive_relay(
    args: argparse.Namespace, ports: list[int], sizes: dict[str, int], meters: Meters
) -> dict[str, Any]:
    load = Load(args.think_seconds, args.seed)

    async def make_tables(count: int) -> list[Table]:
        first = len(load.tables)
        return [
            RelayTable(
                load,
                f"{os.getpid()}-{first + offset}",
                ports[(first + offset) % len(ports)],
                sizes["socket_message_bytes"],
                sizes["response_bytes"],
            )
            for offset in range(count)
        ]

    try:
        ramp = await run_ramp(load, make_tables, args, meters)
        await load.quiesce()
        await asyncio.sleep(1.0)
    finally:
        await load.close()
    lost, duplicated = relay_lost_and_duplicated(load.tables)
    return {"ramp": ramp, "lost": lost, "duplicated": duplicated}


# ---------------------------------------------------------------- the report


def report(
    args: argparse.Namespace, platform: dict[str, Any], relay: dict[str, Any]
) -> dict[str, Any]:
    ramp: RampResult = platform["ramp"]
    relay_ramp: RampResult = relay["ramp"]
    at_max = ramp.at_max()
    relay_at_max = relay_ramp.at_max()
    idle = platform["idle"]
    figures = at_max.report() if at_max is not None else {}
    return {
        "max_tables": ramp.largest_held,
        "relay_max_tables": relay_ramp.largest_held,
        "ratio_to_relay": round(ramp.largest_held / relay_ramp.largest_held, 3)
        if relay_ramp.largest_held
        else None,
        "p50_ms": figures.get("p50_ms"),
        "p99_ms": figures.get("p99_ms"),
        "commands_per_second": figures.get("commands_per_second"),
        "socket_messages_per_second": figures.get("socket_messages_per_second"),
        "lost": platform["lost"],
        "duplicated": platform["duplicated"],
        "db_queries_per_second_idle": idle["transactions_per_second"],
        "cpu_share": figures.get("cpu_share"),
        "idle": idle,
        "relay": {
            "p50_ms": relay_at_max.figures.outcome.p50_ms if relay_at_max else None,
            "p99_ms": relay_at_max.figures.outcome.p99_ms if relay_at_max else None,
            "cpu_share": relay_at_max.cpu_share if relay_at_max else None,
            "lost": relay["lost"],
            "duplicated": relay["duplicated"],
        },
        "lost_examples": platform["lost_examples"],
        "message_sizes": platform["sizes"],
        "steps": [step.report() for step in ramp.steps],
        "relay_steps": [step.report() for step in relay_ramp.steps],
        "targets": TARGETS,
        "settings": {
            "web_processes": args.web_processes,
            "workers": args.workers,
            "think_seconds": args.think_seconds,
            "start": args.start,
            "factor": args.factor,
            "max_tables": args.max_tables,
            "refine": args.refine,
            "p99_limit_ms": args.p99_limit_ms,
            "warmup_seconds": args.warmup,
            "step_seconds": args.step_seconds,
            "grace_seconds": args.grace,
            "idle_seconds": args.idle_seconds,
            "quick": args.quick,
        },
        "cpus": os.cpu_count(),
        "load_average_1min_end": load_average(),
    }


# ---------------------------------------------------------------- command line


def positive(kind: type) -> Callable[[str], Any]:
    def parse(raw: str) -> Any:
        value = kind(raw)
        if value <= 0:
            raise argparse.ArgumentTypeError(f"must be positive, got {raw}")
        return value

    return parse


def parse_arguments(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.capacity", description=__doc__.splitlines()[0]
    )
    parser.add_argument("--quick", action="store_true", help=f"a short run: {QUICK}")
    parser.add_argument("--web-processes", type=positive(int), default=1)
    parser.add_argument("--workers", type=positive(int), default=1)
    parser.add_argument("--think-seconds", type=positive(float), default=2.0)
    parser.add_argument("--start", type=positive(int), help="tables of the first step")
    parser.add_argument("--factor", type=float, help="growth of each step (above 1)")
    parser.add_argument("--max-tables", type=positive(int), help="the ramp's ceiling")
    parser.add_argument("--refine", type=int, help="bisections after the first failure")
    parser.add_argument("--warmup", type=float, help="seconds before a step measures")
    parser.add_argument("--step-seconds", type=positive(float), help="a step's window")
    parser.add_argument("--grace", type=float, help="seconds its deliveries may lag")
    parser.add_argument("--idle-seconds", type=positive(float), help="the idle window")
    parser.add_argument(
        "--p99-limit-ms",
        type=positive(float),
        default=LATENCY_LIMIT_MS,
        help=f"a step holds while its p99 is at most this (default {LATENCY_LIMIT_MS:g}, "
        "the issue's; a higher one shows the curve beyond it on a busy machine)",
    )
    parser.add_argument("--seed", type=int, default=21)
    parser.add_argument("--redis-db", type=int, default=12, help="scratch Redis database")
    parser.add_argument(
        "--db-name", default=os.environ.get("SPADES_BENCH_DB_NAME", "spades_bench_capacity")
    )
    parser.add_argument("--keep-db", action="store_true")
    parser.add_argument("--skip-relay", action="store_true", help="the platform's ramp only")
    parser.add_argument(
        "--py-spy", type=Path, metavar="DIR", help="py-spy record web0 during every step"
    )
    args = parser.parse_args(argv)
    preset = QUICK if args.quick else FULL
    for name, value in preset.items():
        if getattr(args, name) is None:
            setattr(args, name, value)
    if args.factor <= 1:
        parser.error("--factor must be above 1")
    if args.refine < 0 or args.warmup < 0 or args.grace < 0:
        parser.error("--refine, --warmup and --grace cannot be negative")
    if args.start > args.max_tables:
        parser.error("--start cannot be above --max-tables")
    if not 0 <= args.redis_db <= 15:
        parser.error("--redis-db must be 0..15")
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    ceiling = (hard - 256) // FDS_PER_TABLE if hard != resource.RLIM_INFINITY else args.max_tables
    if args.max_tables > ceiling:
        log(f"--max-tables {args.max_tables} lowered to {ceiling}: {hard} file descriptors")
        args.max_tables = ceiling
        args.start = min(args.start, ceiling)
    return args


def main(argv: list[str] | None = None) -> None:
    args = parse_arguments(argv)
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # the children inherit it
    base = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0").rsplit("/", 1)[0]
    redis_url = f"{base}/{args.redis_db}"
    os.environ["REDIS_URL"] = redis_url
    os.environ.setdefault("LOG_LEVEL", "WARNING")
    import redis

    redis.Redis.from_url(redis_url).flushdb()
    log(f"load average {load_average()} on {os.cpu_count()} cores")
    with scratch_database(args.db_name, args.keep_db) as (owner_url, app_url):
        setup_django(owner_url, app_url)
        platform = run_platform(args, owner_url, app_url, redis_url)
    if args.skip_relay:
        relay: dict[str, Any] = {"ramp": RampResult(), "lost": 0, "duplicated": 0}
    else:
        redis.Redis.from_url(redis_url).flushdb()
        relay = run_relay(args, redis_url, platform["sizes"])
    print(json.dumps(report(args, platform, relay)))


if __name__ == "__main__":
    main()
