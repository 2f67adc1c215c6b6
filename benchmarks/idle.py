"""What an idle platform costs the database, by the number of open sockets.

``python -m benchmarks.idle [--sockets 0,50,200] [--idle-seconds 30]`` starts the
platform as ``benchmarks.capacity`` does (a scratch database and Redis database; web,
worker, projector and scheduler as ``bin/run`` runs them), makes enough tables in play for
the largest count (four players each, no turn timer, nobody moves), then for each count
opens that many table sockets (six a table, the players' four and two spectators'; the
last table gets the rest) and counts the scratch database's transactions in
PostgreSQL's own statistics over ``--idle-seconds``, as ``benchmarks.capacity``'s idle
window does (``measure_idle``: after the statistics settle). Prints one JSON object:
per count the transactions and table scans a second, per 100 tables, and each process's
CPU share. docs/benchmarks.md, "Idle".
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import resource
import sys
import time
from pathlib import Path
from typing import Any

from benchmarks.capacity import (
    STATS_SETTLE_SECONDS,
    Meters,
    create_tables,
    database_activity,
    load_average,
    platform_env,
    platform_processes,
    redis_port,
    running,
    shares,
)
from benchmarks.loadgen import Load, SpadesTable, Watcher
from benchmarks.store import scratch_database, setup_django

SOCKETS_PER_TABLE = 6
ROOT = Path(__file__).resolve().parent.parent


def log(message: str) -> None:
    print(f"[idle] {message}", file=sys.stderr, flush=True)


class IdleTable(SpadesTable):
    """A table whose first ``sockets`` sockets open (players first), whose players never
    act (the load stays paused)."""

    def __init__(self, *args: Any, sockets: int = SOCKETS_PER_TABLE) -> None:
        super().__init__(*args)
        self.sockets = sockets

    def open(self) -> None:
        seats: list[int | None] = [0, 1, 2, 3, None, None]
        self.watchers = [Watcher(self, self.socket_url(seat), seat) for seat in seats]
        self.watchers = self.watchers[: self.sockets]
        for watcher in self.watchers:
            watcher.start()


async def window(
    app_url: str, database: str, meters: Meters, seconds: float
) -> tuple[float, float, dict[str, float]]:
    """(transactions/s, scans/s, CPU shares) of the scratch database over ``seconds``."""
    await asyncio.sleep(STATS_SETTLE_SECONDS)
    before = await asyncio.to_thread(database_activity, app_url, database)
    cpu_before = await asyncio.to_thread(meters.read)
    started = time.perf_counter()
    await asyncio.sleep(seconds)
    after = await asyncio.to_thread(database_activity, app_url, database)
    cpu_after = await asyncio.to_thread(meters.read)
    elapsed = time.perf_counter() - started
    # One transaction of each reading is the benchmark's own.
    transactions = max(0, after[0] - before[0] - 1) / elapsed
    scans = max(0, after[1] - before[1]) / elapsed
    return transactions, scans, shares(cpu_before, cpu_after, elapsed)


async def drive(
    args: argparse.Namespace, app_url: str, database: str, port: int, meters: Meters
) -> list[dict[str, Any]]:
    largest = max(args.sockets)
    seatings = await asyncio.to_thread(
        create_tables, math.ceil(largest / SOCKETS_PER_TABLE), "idle"
    )
    load = Load(think_seconds=2.0, seed=args.seed)
    load.paused = True  # nobody moves: a player's turn schedules nothing that is sent
    results = []
    opened = 0
    try:
        for sockets in sorted(args.sockets):
            new = []
            while opened < sockets:
                seating = seatings[opened // SOCKETS_PER_TABLE]
                count = min(SOCKETS_PER_TABLE, sockets - opened)
                new.append(
                    IdleTable(
                        load,
                        seating.table_id,
                        seating.tokens,
                        port,
                        seating.user_ids,
                        sockets=count,
                    )
                )
                opened += count
            if new:
                await load.add(new)
            tables = math.ceil(sockets / SOCKETS_PER_TABLE)
            transactions, scans, cpu = await window(app_url, database, meters, args.idle_seconds)
            row = {
                "sockets": sockets,
                "tables": tables,
                "transactions_per_second": round(transactions, 2),
                "table_scans_per_second": round(scans, 2),
                "per_100_tables": round(100 * transactions / tables, 3) if tables else None,
                "cpu_share": cpu,
                "errors": [text for _, text in load.errors][:5],
                "load_average_1min": load_average(),
            }
            log(f"{sockets} sockets: {row}")
            results.append(row)
    finally:
        await load.close()
    return results


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.idle", description=__doc__)
    parser.add_argument("--sockets", default="0,50,200", help="socket counts, e.g. 0,50,200")
    parser.add_argument("--idle-seconds", type=float, default=30.0)
    parser.add_argument("--seed", type=int, default=21)
    parser.add_argument("--redis-db", type=int, default=13, help="scratch Redis database")
    parser.add_argument(
        "--db-name", default=os.environ.get("SPADES_BENCH_DB_NAME", "spades_bench_idle")
    )
    parser.add_argument("--keep-db", action="store_true")
    args = parser.parse_args(argv)
    try:
        args.sockets = [int(part) for part in args.sockets.split(",") if part.strip()]
    except ValueError:
        parser.error("--sockets takes comma-separated counts")
    if not args.sockets or min(args.sockets) < 0 or max(args.sockets) > 6000:
        parser.error("--sockets: counts from 0 to 6000")
    if not 1 <= args.idle_seconds <= 600:
        parser.error("--idle-seconds: 1 to 600")
    if not 0 <= args.redis_db <= 15:
        parser.error("--redis-db must be 0..15")
    args.web_processes = 1
    args.workers = 1
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    base = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0").rsplit("/", 1)[0]
    redis_url = f"{base}/{args.redis_db}"
    os.environ["REDIS_URL"] = redis_url
    os.environ.setdefault("LOG_LEVEL", "WARNING")
    import redis

    redis.Redis.from_url(redis_url).flushdb()
    with scratch_database(args.db_name, args.keep_db) as (owner_url, app_url):
        setup_django(owner_url, app_url)
        from django.conf import settings

        database = str(settings.DATABASES["default"]["NAME"])
        run_dir = ROOT / ".run" / f"bench-idle-{os.getpid()}"
        env = platform_env(redis_url, run_dir, max(args.sockets), owner_url, app_url)
        processes, ports = platform_processes(args, env, run_dir)
        with running(processes, run_dir, keep=args.keep_db):
            meters = Meters(processes, database, redis_port(redis_url))
            rows = asyncio.run(drive(args, app_url, database, ports[0], meters))
    print(json.dumps({"idle": rows, "idle_seconds": args.idle_seconds, "cpus": os.cpu_count()}))


if __name__ == "__main__":
    main()
