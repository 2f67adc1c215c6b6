"""The events table as it grows: bytes per event, append rate and a table's catch-up read
at several sizes of the log, in one run, printed as one JSON object.

Run ``python -m benchmarks.store_scale [--sizes 1000000,10000000] [--quick]``.

In a scratch database (``--db-name``, default ``spades_bench_scale``; dropped at the end
unless ``--keep-db``):

1. ``--games`` whole games are played through the tables' service (``benchmarks.store``'s
   ``ServiceGame``): events and moves per game, and the template of the filler.
2. The log is filled to each of ``--sizes`` with copies of the first game under new table
   ids, in SQL (``INSERT ... SELECT`` over ``generate_series``, batches of
   ``FILL_GAMES`` games interleaved version by version, so a table's events lie on
   different pages as when thousands of tables play at once), each with its stream head
   row. The copies keep the template's hashes, so their chains do not verify (their
   stream ids differ): this database measures sizes and speed, never verification.
3. At the starting size and at each size: the relation sizes per event, the append rate
   (``store_appends_per_second``: one event per transaction to a stream of its own;
   ``service_commands_per_second``: bids and plays of a new table through the service,
   measured in alternating slices as in ``benchmarks.store``) and a table's catch-up read
   (``eventstore.reading.read_stream`` of ``--reads`` random tables: the whole stream, as
   a fold from nothing; and its last 8 events, as a reconnecting socket's read).

A year at 10,000 tables is projected from the measured events per move and bytes per
event, at one move per ``--think-seconds`` per table (docs/eventstore.md).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import sys
import time
import uuid
from typing import Any

import psycopg

from benchmarks.percentiles import percentiles
from benchmarks.store import (
    ServiceGame,
    interleaved,
    scratch_database,
    setup_django,
    store_append_step,
)

# Django's models and the services and selectors over them are imported inside the
# functions that use them: they need Django set up on the scratch database first
# (setup_django, once the command line has named it), which a module-level import
# would come before.

#: Games copied per INSERT (one transaction): their events interleaved by version.
FILL_GAMES = 200
#: A reconnecting socket reads the events after its last version: a few.
TAIL_EVENTS = 8
SECONDS_PER_YEAR = 365 * 24 * 3600


def log(message: str) -> None:
    print(f"[scale] {message}", file=sys.stderr, flush=True)


def play_games(count: int, label: str) -> tuple[list[str], int]:
    """``count`` whole games through the service: their stream ids and the moves made."""
    streams: list[str] = []
    moves = 0
    for number in range(count):
        game = ServiceGame(f"{label}-{number}")
        while game.next_move() is not None:
            moves += game.step(0)
        streams.append(f"table-{game.table_id}")
    return streams, moves


def stream_versions(owner_url: str, streams: list[str]) -> dict[str, int]:
    with psycopg.connect(owner_url, autocommit=True) as connection:
        rows = connection.execute(
            "SELECT stream_id, version FROM eventstore_stream WHERE stream_id = ANY(%s)",
            [streams],
        ).fetchall()
    return {row[0]: int(row[1]) for row in rows}


def event_count(owner_url: str) -> int:
    with psycopg.connect(owner_url, autocommit=True) as connection:
        row = connection.execute("SELECT count(*) FROM eventstore_event").fetchone()
    assert row is not None
    return int(row[0])


def secondary_indexes(connection: psycopg.Connection[Any]) -> list[tuple[str, str]]:
    """(drop, create) statements of the events table's indexes besides its primary key,
    from the catalogue, so they come back exactly as the migrations made them."""
    statements = []
    for name, definition in connection.execute(
        "SELECT conname, pg_get_constraintdef(oid) FROM pg_constraint "
        "WHERE conrelid = 'eventstore_event'::regclass AND contype = 'u'"
    ).fetchall():
        statements.append(
            (
                f"ALTER TABLE eventstore_event DROP CONSTRAINT {name}",
                f"ALTER TABLE eventstore_event ADD CONSTRAINT {name} {definition}",
            )
        )
    for name, definition in connection.execute(
        "SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'eventstore_event' "
        "AND indexname NOT IN (SELECT conname FROM pg_constraint "
        "WHERE conrelid = 'eventstore_event'::regclass)"
    ).fetchall():
        statements.append((f"DROP INDEX {name}", definition))
    return statements


def fill(owner_url: str, template: str, first_game: int, games: int) -> None:
    """Copy the stream ``template`` as ``games`` new tables (``fill-<n>``, from
    ``first_game``), FILL_GAMES per transaction, with their head rows. The secondary
    indexes are dropped for the load and built again after it (sorting once is much
    cheaper than millions of inserts at random places of a unique index); the unique
    constraints are checked again as they are rebuilt."""
    with psycopg.connect(owner_url, autocommit=True) as connection:
        connection.execute(
            "CREATE TEMP TABLE template AS SELECT version, type, schema_version, data, "
            "metadata, command_id, hash, prev_hash FROM eventstore_event "
            "WHERE stream_id = %s",
            [template],
        )
        head = connection.execute(
            "SELECT version, hash FROM template ORDER BY version DESC LIMIT 1"
        ).fetchone()
        assert head is not None
        indexes = secondary_indexes(connection)
        for drop, _ in indexes:
            connection.execute(drop)  # type: ignore[arg-type]
        try:
            for start in range(first_game, first_game + games, FILL_GAMES):
                end = min(first_game + games, start + FILL_GAMES) - 1
                with connection.transaction():
                    connection.execute(
                        """
                        INSERT INTO eventstore_event (stream_id, version, type,
                               schema_version, data, metadata, command_id, hash, prev_hash)
                        SELECT 'table-' || md5('fill-' || g)::uuid, t.version, t.type,
                               t.schema_version, t.data, t.metadata, t.command_id, t.hash,
                               t.prev_hash
                          FROM generate_series(%s::int, %s::int) AS g
                               CROSS JOIN template AS t
                         ORDER BY t.version, g
                        """,
                        [start, end],
                    )
                    connection.execute(
                        """
                        INSERT INTO eventstore_stream (stream_id, version, head_hash,
                                                       head_tx_id)
                        SELECT 'table-' || md5('fill-' || g)::uuid, %s, %s,
                               pg_current_xact_id()
                          FROM generate_series(%s::int, %s::int) AS g
                        """,
                        [head[0], head[1], start, end],
                    )
        finally:
            connection.execute("SET maintenance_work_mem = '256MB'")
            for _, create in indexes:
                connection.execute(create)  # type: ignore[arg-type]
        connection.execute("ANALYZE eventstore_event")
        connection.execute("ANALYZE eventstore_stream")


def relation_sizes(owner_url: str) -> dict[str, Any]:
    """The events table's bytes (heap with its TOAST, indexes) per event."""
    with psycopg.connect(owner_url, autocommit=True) as connection:
        row = connection.execute(
            """
            SELECT (SELECT count(*) FROM eventstore_event),
                   pg_table_size('eventstore_event'),
                   pg_indexes_size('eventstore_event'),
                   pg_total_relation_size('eventstore_event'),
                   pg_total_relation_size('eventstore_stream')
            """
        ).fetchone()
    assert row is not None
    events, table, indexes, total, streams = (int(value) for value in row)
    return {
        "events": events,
        "table_bytes": table,
        "index_bytes": indexes,
        "total_bytes": total,
        "stream_heads_bytes": streams,
        "bytes_per_event": round(total / events, 1) if events else None,
        "table_bytes_per_event": round(table / events, 1) if events else None,
        "index_bytes_per_event": round(indexes / events, 1) if events else None,
    }


def catch_up_reads(streams: list[str], reads: int, rng: random.Random) -> dict[str, Any]:
    """A whole table's stream and its last few events, for ``reads`` random tables."""
    from eventstore.reading import read_stream

    whole: list[float] = []
    tail: list[float] = []
    events = 0
    seconds = 0.0
    for stream_id in rng.sample(streams, min(reads, len(streams))):
        started = time.perf_counter()
        read = read_stream(stream_id)
        elapsed = time.perf_counter() - started
        whole.append(elapsed * 1000)
        events += len(read)
        seconds += elapsed
        started = time.perf_counter()
        read_stream(stream_id, after_version=max(0, len(read) - TAIL_EVENTS))
        tail.append((time.perf_counter() - started) * 1000)
    return {
        "whole_stream_ms": percentiles(whole),
        "last_events_ms": percentiles(tail),
        "events_read_per_second": round(events / seconds, 1) if seconds else None,
    }


#: Pages a query touched (shared buffers hit or read), from EXPLAIN (ANALYZE, BUFFERS).
PAGES = "Shared Hit Blocks", "Shared Read Blocks"


def pages_touched(owner_url: str, streams: list[str], rng: random.Random) -> dict[str, Any]:
    """What a table's read and an append's unique-index probe cost in pages, whatever
    the machine's load: the count grows with the indexes' depth, not with the time
    other programs take (median over 20 random tables)."""
    whole: list[float] = []
    probe: list[float] = []
    with psycopg.connect(owner_url, autocommit=True) as connection:
        for stream_id in rng.sample(streams, min(20, len(streams))):
            for sql, samples in (
                (
                    "SELECT stream_id, version, position, type, schema_version, data, "
                    "metadata, recorded_at, hash, prev_hash FROM eventstore_event "
                    "WHERE stream_id = %s AND version > 0 ORDER BY version",
                    whole,
                ),
                (
                    "SELECT 1 FROM eventstore_event WHERE stream_id = %s AND version = 1000000",
                    probe,
                ),
            ):
                row = connection.execute(
                    "EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) " + sql,  # type: ignore[operator]
                    [stream_id],
                ).fetchone()
                assert row is not None
                plan = row[0][0]["Plan"]
                samples.append(float(sum(plan.get(key, 0) for key in PAGES)))
    return {
        "whole_stream_pages": percentiles(whole)["p50"],
        "index_probe_pages": percentiles(probe)["p50"],
    }


def measure(
    args: argparse.Namespace,
    owner_url: str,
    streams: list[str],
    label: str,
    rng: random.Random,
) -> dict[str, Any]:
    steps = {
        "store_appends_per_second": store_append_step(f"bench-scale-{label}"),
        "service_commands_per_second": ServiceGame(f"scale-{label}").step,
    }
    figures: dict[str, Any] = relation_sizes(owner_url)
    figures.update(interleaved(steps, args.seconds))
    figures.update(catch_up_reads(streams, args.reads, rng))
    figures.update(pages_touched(owner_url, streams, rng))
    figures["load_average_1min"] = round(os.getloadavg()[0], 2)
    log(
        f"{figures['events']:,} events: {figures['bytes_per_event']} B/event, "
        f"service {figures['service_commands_per_second']}/s, store "
        f"{figures['store_appends_per_second']}/s, read p50 "
        f"{figures['whole_stream_ms']['p50']} ms"
    )
    return figures


def year_at(
    tables: int, think_seconds: float, events_per_move: float, bytes_per_event: float
) -> dict[str, Any]:
    """The log a year of ``tables`` tables playing without a pause would write."""
    events_per_second = tables / think_seconds * events_per_move
    events = events_per_second * SECONDS_PER_YEAR
    return {
        "tables": tables,
        "think_seconds": think_seconds,
        "events_per_second": round(events_per_second),
        "events_per_year": round(events),
        "terabytes_per_year": round(events * bytes_per_event / 1e12, 1),
        "days_to_a_billion_events": round(1e9 / events_per_second / 86400, 1),
    }


def ratio(later: float | None, earlier: float | None) -> float | None:
    return round(later / earlier, 3) if later and earlier else None


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.store_scale", description=__doc__.splitlines()[0]
    )
    parser.add_argument("--sizes", default=None, help="log sizes, e.g. 1000000,10000000")
    parser.add_argument("--quick", action="store_true", help="sizes 20000,200000, short runs")
    parser.add_argument("--games", type=int, default=None, help="whole games played first")
    parser.add_argument("--seconds", type=float, default=None, help="append measurement")
    parser.add_argument("--reads", type=int, default=None, help="tables read at each size")
    parser.add_argument("--think-seconds", type=float, default=2.0)
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument(
        "--db-name", default=os.environ.get("SPADES_BENCH_DB_NAME", "spades_bench_scale")
    )
    parser.add_argument("--keep-db", action="store_true")
    args = parser.parse_args(argv)
    preset = (
        {"sizes": "20000,200000", "games": 1, "seconds": 2.0, "reads": 50}
        if args.quick
        else {"sizes": "1000000,10000000", "games": 3, "seconds": 6.0, "reads": 200}
    )
    for name, value in preset.items():
        if getattr(args, name) is None:
            setattr(args, name, value)
    try:
        sizes = sorted(int(size) for size in str(args.sizes).split(","))
    except ValueError:
        parser.error("--sizes takes whole numbers separated by commas")
    if not sizes or sizes[0] < 1 or sizes[-1] > 2_000_000_000:
        parser.error("--sizes must be between 1 and 2,000,000,000")
    if min(args.games, args.reads) < 1 or args.seconds <= 0 or args.think_seconds <= 0:
        parser.error("--games, --reads, --seconds and --think-seconds must be positive")

    rng = random.Random(args.seed)
    result: dict[str, Any] = {"load_average_1min_start": round(os.getloadavg()[0], 2)}
    with scratch_database(args.db_name, args.keep_db) as (owner_url, app_url):
        setup_django(owner_url, app_url)
        log(f"playing {args.games} whole game(s) through the service")
        played, moves = play_games(args.games, f"scale-{int(time.time())}")
        versions = stream_versions(owner_url, played)
        events = sum(versions.values())
        result["games"] = {
            "games": args.games,
            "events_per_game": round(events / args.games, 1),
            "moves_per_game": round(moves / args.games, 1),
            "events_per_move": round(events / moves, 3),
        }
        template = played[0]
        per_copy = versions[template]
        streams = list(played)
        copies = 0
        measured = [dict(measure(args, owner_url, streams, "start", rng), size="start")]
        for size in sizes:
            wanted = max(0, -(-(size - event_count(owner_url)) // per_copy))
            started = time.perf_counter()
            log(f"filling to {size:,} events: {wanted} copies of a {per_copy}-event game")
            fill(owner_url, template, copies, wanted)
            fill_seconds = time.perf_counter() - started
            streams += [_fill_stream(n) for n in range(copies, copies + wanted)]
            copies += wanted
            figures = measure(args, owner_url, streams, str(size), rng)
            figures["size"] = size
            figures["fill_events_per_second"] = (
                round(wanted * per_copy / fill_seconds) if fill_seconds else None
            )
            measured.append(figures)
    first, last = measured[1], measured[-1]
    bytes_per_event = last["bytes_per_event"]
    result.update(
        {
            "sizes": measured,
            "service_commands_ratio": ratio(
                last["service_commands_per_second"], first["service_commands_per_second"]
            ),
            "store_appends_ratio": ratio(
                last["store_appends_per_second"], first["store_appends_per_second"]
            ),
            "whole_stream_read_p50_ratio": ratio(
                last["whole_stream_ms"]["p50"], first["whole_stream_ms"]["p50"]
            ),
            "last_events_read_p50_ratio": ratio(
                last["last_events_ms"]["p50"], first["last_events_ms"]["p50"]
            ),
            "year": year_at(
                10_000,
                args.think_seconds,
                result["games"]["events_per_move"],
                bytes_per_event,
            ),
            "load_average_1min_end": round(os.getloadavg()[0], 2),
            "cpus": os.cpu_count(),
        }
    )
    print(json.dumps(result))


def _fill_stream(number: int) -> str:
    """The stream id ``fill`` gives copy ``number`` (the same md5 as its SQL)."""
    return f"table-{uuid.UUID(hashlib.md5(f'fill-{number}'.encode()).hexdigest())}"


if __name__ == "__main__":
    main()
