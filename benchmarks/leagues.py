"""League pairing and standings speed, printed as one JSON object measured in one run.

Run ``python -m benchmarks.leagues [--sizes 64,256,1024] [--results 10000,100000]
[--history-rounds 4] [--repeat 3]``.

- ``pair_ms``, keyed by entrant count: the time ``leagues.core.swiss.pair`` takes for
  one Swiss round of that many entrants (the best of ``--repeat`` runs), after
  ``--history-rounds`` earlier rounds (paired by the engine itself, random winners), so
  score groups, rematches to avoid and byes are those of a real mid-event round.
  Target: 256 entrants under 1,000 ms.
- ``standings_ms``, keyed by result count: ``leagues.core.standings.compute_standings``
  over that many results (2,000 entrants, 1,000 matches a round, default tie-breaks,
  head-to-head included), best of ``--repeat``.  Target: 100,000 results under 2,000 ms.
- ``pair_cpu_ms`` and ``standings_cpu_ms``: the same runs in process CPU time, which
  other programs on a shared machine do not inflate.

The platform half runs in a scratch database (``--db-name``, default
``$SPADES_BENCH_DB_NAME`` or ``spades_bench``; dropped unless ``--keep-db``) with real
worker and projector processes (``--skip-platform`` leaves it out):

- ``tables_per_minute``: a Swiss of ``--entrants`` (64) for ``--rounds`` (6) rounds whose
  every seat is a ``--level`` (easy) bot, games to ``--target-score`` (100), played by
  ``--workers`` x ``--concurrency`` Celery workers; tables over the rounds' wall-clock
  time (pair, start, every table played, results appended by the projector).
- ``standings_lag_ms`` (``p50``, ``p99``): for every match, from its table's last stored
  event to the moment the official standings row (the ``league_standings`` projection, in
  the projector at its production poll) first holds the result (polled every 10 ms).
- ``whatif_events_per_second``: ``leagues.selectors.competitions.what_if`` under the
  ``bicycle`` preset (every table rescored through the rescoring service), table events
  per second; ``rebuild_events_per_second``: ``eventstore.subscriptions.rebuild`` of the
  score ledger over the same log, in the same run.  Target: the first at least half the
  second (``whatif_to_rebuild`` >= 0.5).
"""

from __future__ import annotations

import argparse
import bisect
import json
import math
import os
import platform
import random
import re
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import networkx

from benchmarks.store import scratch_database, setup_django
from leagues.core.entrants import Entrant
from leagues.core.pairings import RoundPairing, histories
from leagues.core.results import Award, MatchResult
from leagues.core.standings import compute_standings
from leagues.core.swiss import SwissEntrant, pair, swiss_entrants
from leagues.domain.events import competition_stream_id
from services.testing.processes import ManagedProcess, log_contains, worker_process

# Django's models and the services and selectors over them are imported inside the
# functions that use them: they need Django set up on the scratch database first
# (setup_django, once the command line has named it), which a module-level import
# would come before.

STANDINGS_ENTRANTS = 2000
ROOT = Path(__file__).resolve().parent.parent
WHATIF_PRESET = "bicycle"


def log(message: str) -> None:
    print(f"[bench] {message}", file=sys.stderr, flush=True)


def best_ms(run: Callable[[], object], repeat: int) -> tuple[float, float]:
    """(wall-clock ms, process CPU ms), each the best of ``repeat`` runs."""
    walls, cpus = [], []
    for _ in range(repeat):
        started, cpu_started = time.perf_counter(), time.process_time()
        run()
        walls.append((time.perf_counter() - started) * 1000)
        cpus.append((time.process_time() - cpu_started) * 1000)
    return round(min(walls), 1), round(min(cpus), 1)


def swiss_field(count: int, history_rounds: int, rng: random.Random) -> list[SwissEntrant]:
    """The engine's input for round ``history_rounds + 1`` of a simulated Swiss."""
    ids = [f"e{n:05d}" for n in range(count)]
    ratings = {entrant: rng.randint(0, 50_000) for entrant in ids}
    scores = dict.fromkeys(ids, 0)
    done: list[RoundPairing] = []
    for number in range(1, history_rounds + 1):
        paired = pair(number, swiss_entrants(scores, ratings, histories(done)), "bench")
        for match in paired.matches:
            scores[rng.choice((match.north_south, match.east_west))] += 2
        for bye in paired.byes:
            scores[bye] += 2
        done.append(paired)
    return swiss_entrants(scores, ratings, histories(done))


def pair_ms(
    sizes: list[int], history_rounds: int, repeat: int
) -> tuple[dict[str, float], dict[str, float]]:
    walls, cpus = {}, {}
    for count in sizes:
        field = swiss_field(count, history_rounds, random.Random(count))
        walls[str(count)], cpus[str(count)] = best_ms(
            lambda field=field: pair(history_rounds + 1, field, "bench"), repeat
        )
    return walls, cpus


def simulated_results(
    count: int, rng: random.Random
) -> tuple[list[Entrant], list[MatchResult], list[Award]]:
    ids = [f"e{n:05d}" for n in range(STANDINGS_ENTRANTS)]
    entrants = [Entrant(entrant, (f"{entrant}a", f"{entrant}b")) for entrant in ids]
    results: list[MatchResult] = []
    per_round = STANDINGS_ENTRANTS // 2
    number = 0
    while len(results) < count:
        number += 1
        order = list(ids)
        rng.shuffle(order)
        for board in range(min(per_round, count - len(results))):
            north, east = order[2 * board], order[2 * board + 1]
            ns, ew = rng.choice([(500, 310), (420, 505), (510, 490), (260, 500)])
            results.append(
                MatchResult(
                    f"r{len(results)}",
                    number,
                    board + 1,
                    north,
                    east,
                    ns,
                    ew,
                    "north_south" if ns > ew else "east_west",
                    len(results) + 1,
                )
            )
    return entrants, results, []


def standings_ms(counts: list[int], repeat: int) -> tuple[dict[str, float], dict[str, float]]:
    walls, cpus = {}, {}
    for count in counts:
        entrants, results, awards = simulated_results(count, random.Random(count))
        walls[str(count)], cpus[str(count)] = best_ms(
            lambda e=entrants, r=results, a=awards: compute_standings(e, r, a, lots_seed="b"),
            repeat,
        )
    return walls, cpus


def percentile(values: list[float], fraction: float) -> float | None:
    """The nearest-rank percentile (None for no values)."""
    if not values:
        return None
    ordered = sorted(values)
    rank = max(1, min(len(ordered), math.ceil(fraction * len(ordered))))
    return round(ordered[rank - 1], 1)


class StandingsWatcher:
    """Polls the official standings row of one competition (its own thread and database
    connection) and keeps when each version was first seen."""

    def __init__(self, competition_id: str, poll: float) -> None:
        self.competition_id = competition_id
        self.poll = poll
        # (first seen, version, the row's updated_at: when the projection wrote it).
        self.seen: list[tuple[float, int, float]] = []
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)

    def run(self) -> None:
        from django.db import connection

        from leagues.models import OfficialStandings

        last = -1
        try:
            while not self.stopping.is_set():
                row = (
                    OfficialStandings.objects.filter(competition_id=self.competition_id)
                    .values_list("version", "updated_at")
                    .first()
                )
                if row is not None and row[0] > last:
                    self.seen.append((time.time(), row[0], row[1].timestamp()))
                    last = row[0]
                self.stopping.wait(self.poll)
        finally:
            connection.close()

    def first_seen(self, version: int) -> float | None:
        for seen_at, seen, _written in self.seen:
            if seen >= version:
                return seen_at
        return None

    def first_written(self, version: int) -> float | None:
        for _seen_at, seen, written in self.seen:
            if seen >= version:
                return written
        return None


ROUND_LINE = re.compile(r"lane (\S+) round (\d+) start=([\d.]+) (.*)$")


def projector_rounds(text: str) -> list[float]:
    """The start times of the rounds of the projector's lane that appends the results
    (the one running ``league_match_results``), from its ``--trace`` (DEBUG) log."""
    return [
        float(m.group(3))
        for m in map(ROUND_LINE.search, text.splitlines())
        if m and "league_match_results=" in m.group(4)
    ]


def projector_stats(text: str) -> dict[str, Any]:
    """Per projection, from the DEBUG log: rounds in which it handled events, and the
    p50 / p99 / max wall time of its catch-up in those rounds (ms); ``rounds`` counts
    every lane's."""
    spent: dict[str, list[float]] = {}
    rounds = 0
    for match in map(ROUND_LINE.search, text.splitlines()):
        if not match:
            continue
        rounds += 1
        for part in match.group(4).split():
            name, _, figure = part.partition("=")
            ms, _, events = figure.partition("ms/")
            if int(events):
                spent.setdefault(name, []).append(float(ms))
    return {
        "rounds": rounds,
        **{
            name: {
                "busy_rounds": len(values),
                "p50": percentile(values, 0.5),
                "p99": percentile(values, 0.99),
                "max": round(max(values), 1),
            }
            for name, values in sorted(spent.items())
        },
    }


def split_lag(
    trace: dict[str, list[float]],
    rounds_started: list[float],
    last_event_at: float,
    result_at: float,
    written_at: float | None,
    seen_at: float,
) -> None:
    """One match's lag in four legs: ``wait``, its table's last event to the start of the
    projector round that appended its result (the wake-up, the round in progress, the
    safe-read bound); ``in_round``, that round's start to the result's transaction start;
    ``written``, the result to the standings row's write (``updated_at``); ``seen``, the
    write to the benchmark's poll seeing it committed."""
    index = bisect.bisect_right(rounds_started, result_at) - 1
    if index < 0:
        return
    start = rounds_started[index]
    trace["wait"].append((start - last_event_at) * 1000)
    trace["in_round"].append((result_at - start) * 1000)
    if written_at is not None:
        trace["written"].append((written_at - result_at) * 1000)
        trace["seen"].append((seen_at - written_at) * 1000)


def bot_swiss(args: argparse.Namespace) -> dict[str, Any]:
    """A Swiss of ``--entrants`` played by ``--level`` bots for ``--rounds`` rounds through
    worker and projector processes: tables per minute and the standings lag."""
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.db import connection

    from leagues.domain.decisions import CompetitionSpec, EntrantRequest
    from leagues.models import CompetitionTable
    from leagues.services import competitions, registration
    from leagues.services.rounds import pair_next_round
    from leagues.services.streams import load
    from leagues.services.tables import start_round

    prefix = f"bench-leagues-{os.getpid()}-"
    os.environ["SPADES_QUEUE_PREFIX"] = prefix  # this process enqueues the first bot turns
    run_dir = ROOT / ".run" / f"bench-leagues-{os.getpid()}"
    run_dir.mkdir(parents=True, exist_ok=True)
    env = {
        "DATABASE_URL": os.environ["DATABASE_URL"],
        "DATABASE_OWNER_URL": os.environ["DATABASE_OWNER_URL"],
        "SPADES_DB_ROLE": "app",
        "REDIS_URL": settings.REDIS_URL,
        "SPADES_QUEUE_PREFIX": prefix,
        "DB_CONN_MAX_AGE": "60",
        "LOG_LEVEL": "WARNING",
        "PYTHONUNBUFFERED": "1",
    }
    processes = [
        worker_process(
            {**env, "LOG_LEVEL": "INFO"},
            run_dir,
            name=f"worker{index}",
            concurrency=args.concurrency,
        )
        for index in range(args.workers)
    ]
    # The projector runs as in production (notices, its safety poll): the lag is what a
    # subscriber sees.
    processes.append(
        ManagedProcess(
            "projector",
            "services.projector",
            [],
            {**env, "LOG_LEVEL": "DEBUG" if args.trace else "INFO"},
            run_dir,
            log_contains("projector started"),
        )
    )
    # A round opens one all-bot table per match, each counted against the organiser's
    # all-bot table quota (docs/leagues.md "Quotas"): room for this benchmark's rounds.
    settings.SPADES_MAX_BOT_TABLES_PER_USER = max(
        settings.SPADES_MAX_BOT_TABLES_PER_USER, args.entrants // 2 + 1
    )
    users = get_user_model()
    organiser = users.objects.create(username=f"bench-organiser-{os.getpid()}")
    state = competitions.create_competition(
        organiser,
        CompetitionSpec.parse(
            {
                "name": "Benchmark Swiss",
                "stages": [{"kind": "swiss", "rounds": args.rounds}],
                "rules": {"preset": "standard", "target_score": args.target_score},
                "bot_level": args.level,
            }
        ),
    )
    cid = state.competition_id
    tag = f"bench-{os.getpid()}"
    for number in range(1, args.entrants + 1):
        # Entrants' players are users (bots play their seats, but registration checks them).
        pair = [users.objects.create(username=f"{tag}-{number}{side}") for side in ("n", "s")]
        request = {"entrant_id": f"e{number}", "players": [str(u.pk) for u in pair]}
        registration.register_entrant(organiser, cid, EntrantRequest.parse(request))
        for player in pair:  # each player accepts the organiser's invitation
            registration.accept_invitation(player, cid, f"e{number}")
    watcher = StandingsWatcher(cid, poll=0.01)
    played_seconds = 0.0
    rounds: list[dict[str, Any]] = []
    try:
        for process in processes:
            process.start(timeout=90)
        log(f"processes up: {args.workers} worker(s) x {args.concurrency}, projector")
        watcher.thread.start()
        for number in range(1, args.rounds + 1):
            pair_next_round(organiser, cid)
            started = time.monotonic()
            start_round(organiser, cid, number)
            deadline = started + args.round_timeout
            while number not in load(cid).closed:
                if time.monotonic() > deadline:
                    logs = "\n".join(p.log_text()[-2000:] for p in processes)
                    raise RuntimeError(f"round {number} not closed in time\n{logs}")
                time.sleep(0.2)
            seconds = time.monotonic() - started
            played_seconds += seconds
            tables = CompetitionTable.objects.filter(competition_id=cid, round=number).count()
            rounds.append({"round": number, "tables": tables, "seconds": round(seconds, 1)})
            log(f"round {number}: {tables} tables in {seconds:.1f}s")
        final_version = load(cid).version
        while watcher.first_seen(final_version) is None and time.monotonic() < deadline + 30:
            time.sleep(0.05)
    finally:
        watcher.stopping.set()
        watcher.thread.join(timeout=5)
        for process in processes:
            if process.alive():
                process.terminate()
        for process in processes:
            process.stop()
    projector_log = processes[-1].log_text()
    for line in projector_log.splitlines():
        if "projector stopped" in line:
            log(line)
    rounds_started = projector_rounds(projector_log) if args.trace else []
    trace: dict[str, list[float]] = {"wait": [], "in_round": [], "written": [], "seen": []}
    lags, to_result, after_result = [], [], []
    state = load(cid)
    with connection.cursor() as cursor:
        for result in state.results:
            table_id = state.result_info[result.id].table_id
            if table_id is None:
                continue
            cursor.execute(
                "SELECT extract(epoch FROM max(recorded_at)) FROM eventstore_event "
                "WHERE stream_id = %s",
                [f"table-{table_id}"],
            )
            (last_event_at,) = cursor.fetchone()
            cursor.execute(
                "SELECT extract(epoch FROM recorded_at) FROM eventstore_event "
                "WHERE stream_id = %s AND version = %s",
                [competition_stream_id(cid), result.sequence],
            )
            row = cursor.fetchone()
            seen_at = watcher.first_seen(result.sequence)
            if seen_at is not None and last_event_at is not None:
                lags.append((seen_at - float(last_event_at)) * 1000)
                if row is not None:
                    # recorded_at is its transaction's start: the split is approximate.
                    to_result.append((float(row[0]) - float(last_event_at)) * 1000)
                    after_result.append((seen_at - float(row[0])) * 1000)
                    if rounds_started:
                        split_lag(
                            trace,
                            rounds_started,
                            float(last_event_at),
                            float(row[0]),
                            watcher.first_written(result.sequence),
                            seen_at,
                        )
    tables = sum(r["tables"] for r in rounds)
    return {
        "competition_id": cid,
        "tables_per_minute": round(tables / played_seconds * 60, 1) if played_seconds else None,
        "standings_lag_ms": {"p50": percentile(lags, 0.5), "p99": percentile(lags, 0.99)},
        # The lag's two legs: table's last event -> MatchResultRecorded stored, and that
        # event -> the standings row holding it.
        "result_append_ms": {
            "p50": percentile(to_result, 0.5),
            "p99": percentile(to_result, 0.99),
        },
        "standings_after_append_ms": {
            "p50": percentile(after_result, 0.5),
            "p99": percentile(after_result, 0.99),
        },
        **(
            {
                "lag_trace_ms": {
                    leg: {"p50": percentile(values, 0.5), "p99": percentile(values, 0.99)}
                    for leg, values in trace.items()
                },
                "projector": projector_stats(projector_log),
            }
            if args.trace
            else {}
        ),
        "platform_swiss": {
            "entrants": args.entrants,
            "rounds": rounds,
            "tables": tables,
            "results_timed": len(lags),
            "level": args.level,
            "target_score": args.target_score,
            "workers": args.workers,
            "concurrency": args.concurrency,
        },
    }


def whatif_and_rebuild(competition_id: str) -> dict[str, Any]:
    """What-if rescoring of the Swiss's tables under another scoring-only preset, against
    ``eventstore.subscriptions.rebuild`` of the score ledger over the same stored log."""
    from django.db import connection

    from eventstore.subscriptions import rebuild, registered_projections
    from leagues.selectors.competitions import what_if

    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT coalesce(sum(s.version), 0) FROM eventstore_stream s "
            "JOIN leagues_competitiontable t ON s.stream_id = 'table-' || t.table_id::text "
            "WHERE t.competition_id = %s",
            [competition_id],
        )
        (table_events,) = cursor.fetchone()
    started = time.perf_counter()
    answer = what_if(competition_id, rules=WHATIF_PRESET)
    whatif_seconds = time.perf_counter() - started
    [ledger] = [p for p in registered_projections() if p.name == "score_ledger"]
    started = time.perf_counter()
    handled = rebuild(ledger)
    rebuild_seconds = time.perf_counter() - started
    whatif_rate = round(int(table_events) / whatif_seconds, 1)
    rebuild_rate = round(handled / rebuild_seconds, 1)
    return {
        "whatif_events_per_second": whatif_rate,
        "rebuild_events_per_second": rebuild_rate,
        "whatif_to_rebuild": round(whatif_rate / rebuild_rate, 2),
        "whatif": {
            "preset": WHATIF_PRESET,
            "table_events": int(table_events),
            "comparable": answer.get("comparable"),
            "moved": len((answer.get("moves") or {}).get("moves", [])),
        },
        "rebuild": {"projection": ledger.name, "events": handled},
    }


def platform_figures(args: argparse.Namespace) -> dict[str, Any]:
    """The platform half, in a scratch database (``benchmarks.store.scratch_database``):
    the bot-played Swiss, then what-if rescoring and the ledger rebuild over its events."""
    if args.skip_platform:
        return {}
    with scratch_database(args.db_name, args.keep_db) as (owner_url, app_url):
        setup_django(owner_url, app_url)
        figures = bot_swiss(args)
        if not args.lag_only:
            figures.update(whatif_and_rebuild(figures["competition_id"]))
        from django.db import connections

        connections.close_all()
    return figures


def run(args: argparse.Namespace) -> dict[str, Any]:
    if args.lag_only:
        return {"targets": {"standings_lag_ms_p99": 1000}, **platform_figures(args)}
    pair_wall, pair_cpu = pair_ms(args.sizes, args.history_rounds, args.repeat)
    standings_wall, standings_cpu = standings_ms(args.results, args.repeat)
    figures: dict[str, Any] = {
        "pair_ms": pair_wall,
        "standings_ms": standings_wall,
        # Process CPU time: what other programs on a shared machine do not inflate.
        "pair_cpu_ms": pair_cpu,
        "standings_cpu_ms": standings_cpu,
        "targets": {
            "pair_ms_256": 1000,
            "standings_ms_100000": 2000,
            "whatif_to_rebuild": 0.5,
            "standings_lag_ms_p99": 1000,
        },
        "python": platform.python_version(),
        "networkx": networkx.__version__,
    }
    figures.update(platform_figures(args))
    return figures


def counts(text: str) -> list[int]:
    values = [int(part) for part in text.split(",") if part]
    if not values or any(not 2 <= value <= 1_000_000 for value in values):
        raise argparse.ArgumentTypeError("a comma-separated list of counts from 2 to 1,000,000")
    return values


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--sizes", type=counts, default=[64, 256, 1024])
    parser.add_argument("--results", type=counts, default=[10_000, 100_000])
    parser.add_argument("--history-rounds", type=int, default=4)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--entrants", type=int, default=64, help="platform Swiss (default 64)")
    parser.add_argument("--rounds", type=int, default=6, help="platform Swiss rounds (6)")
    parser.add_argument("--level", choices=("easy", "normal", "hard"), default="easy")
    parser.add_argument("--target-score", type=int, default=100)
    parser.add_argument("--workers", type=int, default=1, help="worker processes (1)")
    parser.add_argument("--concurrency", type=int, default=2, help="per worker (2)")
    parser.add_argument("--round-timeout", type=float, default=900, help="seconds a round")
    parser.add_argument("--skip-platform", action="store_true", help="the pure half only")
    parser.add_argument(
        "--lag-only",
        action="store_true",
        help="only the bot-played Swiss (tables per minute, standings lag): no pure half, "
        "no what-if or rebuild",
    )
    parser.add_argument(
        "--trace",
        action="store_true",
        help="run the projector at DEBUG and split the lag by its rounds (lag_trace_ms)",
    )
    parser.add_argument("--db-name", default=os.environ.get("SPADES_BENCH_DB_NAME", "spades_bench"))
    parser.add_argument("--keep-db", action="store_true", help="keep the scratch database")
    args = parser.parse_args(argv)
    if args.lag_only and args.skip_platform:
        parser.error("--lag-only and --skip-platform leave nothing to run")
    if not 2 <= args.entrants <= 1024:
        parser.error("--entrants runs from 2 to 1024")
    if not 1 <= args.rounds <= 20:
        parser.error("--rounds runs from 1 to 20")
    if not 1 <= args.workers <= 8 or not 1 <= args.concurrency <= 16:
        parser.error("--workers runs from 1 to 8, --concurrency from 1 to 16")
    if not 50 <= args.target_score <= 1000:
        parser.error("--target-score runs from 50 to 1000")
    if not 10 <= args.round_timeout <= 7200:
        parser.error("--round-timeout runs from 10 to 7200 seconds")
    if not 0 <= args.history_rounds <= 20:
        parser.error("--history-rounds runs from 0 to 20")
    if not 1 <= args.repeat <= 20:
        parser.error("--repeat runs from 1 to 20")
    if any(size > 4096 for size in args.sizes):
        parser.error("--sizes: at most 4096 entrants")
    sys.stdout.write(json.dumps(run(args)) + "\n")


if __name__ == "__main__":
    main()
