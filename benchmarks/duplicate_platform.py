"""A duplicate round played by bots through the whole platform (issue 20's benchmark).

The platform half of ``python -m benchmarks.duplicate`` (``--skip-platform`` leaves it
out, ``--skip-core`` runs it alone); the method and the figures are in
docs/benchmarks.md ("Duplicate").

1. **The platform** as ``benchmarks.capacity`` starts it (``platform_processes``,
   ``running``: bin/run's web, worker, projector and scheduler, each its own OS process
   on the runtime role), on a scratch database (``--db-name``, made and migrated,
   dropped at the end) and a scratch Redis database (``--redis-db``, flushed). Two
   limits are raised in the processes' environment, both for the one organiser the run
   has: its all-bot table quota (``SPADES_MAX_BOT_TABLES_PER_USER``: a round of
   ``--platform-tables`` tables of four bots) and its leagues writes a minute.
2. **The organiser's calls, over the HTTP API** (``run_round``): ``POST
   /api/competitions`` (a one-round Swiss, the standard preset, ``bot_level``
   ``--platform-level``, ``duplicate`` with ``--platform-boards`` boards a round, the
   Mitchell movement, matchpoints and the default ``par_plays``), ``2 x tables``
   entrants (``POST .../entrants``, each player accepting with ``POST
   .../entrants/{e}/accept`` with their own token), the round paired (``POST
   .../rounds``) and started (``POST .../rounds/1/start``). Accounts and tokens are
   made in bulk in the database first (no sign-up: the database is the benchmark's).
3. **Measured**, on the database's own clock (``recorded_at``, its transaction's start)
   and this process's (the same machine's): ``round_minutes``, from the start request
   to the ``RoundClosed`` that ends the round's last transaction (``BoardsRevealed``,
   the tables' match results); per board, when it was complete at every table (its
   last ``CardPlayed`` anywhere: ``board_complete_seconds``); ``par_seconds``, from the
   start request to the last ``BoardParComputed``. **traveller_lag_ms**: a board is
   revealed alone as soon as every table has finished it (``BoardRevealed``,
   docs/leagues.md), so the lag is per board, from its last ``CardPlayed`` at any table
   to ``GET .../rounds/1/boards/{b}/traveller`` first answering 200 with one line a
   table, polled by one thread a board, each with its own HTTP connection, from when at
   most ``POLL_WITHIN_CARDS`` of that board's cards remain over every table (so the
   polls do not load the machine for the whole round). ``traveller_lag_ms`` gives p50
   and p99 over the boards of every round (nearest rank: with a few boards, p99 is the
   largest); ``round_traveller_lag_ms`` the round-level figure kept from before (the
   round's last card to its last traveller shown); each round's ``legs_ms`` say where
   the round-end lag goes, its ``board_revealed_ms`` how long each board's completion
   waited for its reveal's transaction.
   ``--platform-rounds`` plays rounds one after the other (each one more reveal).
   ``traveller_selector_ms``: the traveller's selector alone, in this process after the
   run (wall and CPU ms, best of 3).
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import shutil
import sys
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from benchmarks.capacity import platform_env, platform_processes, running
from benchmarks.percentiles import percentiles
from benchmarks.store import scratch_database, setup_django
from leagues.domain.events import competition_stream_id
from leagues.domain.settings import DEFAULT_PAR_PLAYS

# Django's models are imported inside the functions that use them: they need Django set
# up on the scratch database first (setup_django), which a module-level import would
# come before.

ROOT = Path(__file__).resolve().parent.parent
#: Cards of a board left to play (over every table) when its traveller's polls begin:
#: two tables' worth, so they start before the board's last hand ends at any table.
POLL_WITHIN_CARDS = 104
#: Between two polls of one board's traveller (each poll is one request, its own time).
POLL_SECONDS = 0.01
CARDS_A_HAND = 52
CLOSED_CONNECTION = (http.client.RemoteDisconnected, BrokenPipeError, ConnectionResetError)


def log(message: str) -> None:
    print(f"[duplicate-platform] {message}", file=sys.stderr, flush=True)


@dataclass(frozen=True)
class RoundSpec:
    """The round to play: ``tables`` tables of four ``level`` bots, ``boards`` boards."""

    tables: int = 24
    boards: int = 4
    level: str = "easy"
    rounds: int = 1
    timeout: float = 1800.0
    par_timeout: float = 600.0


class Api:
    """The organiser's and players' HTTP calls to one web process (one connection per
    thread: ``http.client`` connections are not shared)."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.local = threading.local()

    def connection(self) -> http.client.HTTPConnection:
        found = getattr(self.local, "connection", None)
        if found is None:
            found = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
            self.local.connection = found
        return found

    def call(
        self, method: str, path: str, token: str | None = None, body: Any = None
    ) -> tuple[int, Any]:
        headers = {"Accept": "application/json"}
        if token is not None:
            headers["Authorization"] = f"Token {token}"
        payload = None
        if body is not None:
            payload = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        for attempt in (1, 2):
            connection = self.connection()
            try:
                connection.request(method, path, payload, headers)
                answer = connection.getresponse()
                text = answer.read()
            except (http.client.HTTPException, OSError) as error:
                connection.close()
                self.local.connection = None
                # A keep-alive connection the server had closed: once more on a new one
                # (a write only then, when it cannot have been taken; a read always).
                closed = isinstance(error, CLOSED_CONNECTION)
                if attempt == 2 or not (closed or method == "GET"):
                    raise
                continue
            return answer.status, json.loads(text) if text else None
        raise AssertionError("unreachable")

    def expect(
        self, status: int, method: str, path: str, token: str | None = None, body: Any = None
    ) -> Any:
        got, answer = self.call(method, path, token, body)
        if got != status:
            raise RuntimeError(f"{method} {path}: {got} {answer}")
        return answer


def accounts(count: int, label: str) -> list[tuple[str, str]]:
    """``count`` users with tokens, made in bulk: (user id, token)."""
    from django.contrib.auth import get_user_model
    from django.db import connections
    from rest_framework.authtoken.models import Token

    model = get_user_model()
    users = []
    for index in range(count):
        user = model(username=f"{label}-{index}")
        user.set_unusable_password()
        users.append(user)
    users = model.objects.bulk_create(users)
    tokens = Token.objects.bulk_create(
        [Token(key=Token.generate_key(), user=user) for user in users]
    )
    connections.close_all()
    return [(str(user.pk), token.key) for user, token in zip(users, tokens, strict=True)]


def competition_settings(spec: RoundSpec) -> dict[str, Any]:
    """What the organiser posts: one round, bots at every seat, duplicate boards."""
    return {
        "name": f"Duplicate benchmark ({spec.tables} tables, {spec.boards} boards)",
        "stages": [{"kind": "swiss", "rounds": spec.rounds}],
        "rules": {"preset": "standard"},
        "bot_level": spec.level,
        "duplicate": {
            "boards_per_round": spec.boards,
            "movement": "mitchell",
            "scale": "matchpoints",
            "par_plays": DEFAULT_PAR_PLAYS,
        },
    }


def organise(api: Api, spec: RoundSpec, label: str) -> tuple[str, str]:
    """The competition made, entered and paired over the API: (its id, the organiser's
    token)."""
    made = accounts(1 + 4 * spec.tables, label)
    _, organiser = made[0]
    players = made[1:]
    created = api.expect(201, "POST", "/api/competitions", organiser, competition_settings(spec))
    cid = str(created["id"])
    base = f"/api/competitions/{cid}"
    for number in range(2 * spec.tables):
        pair = players[2 * number : 2 * number + 2]
        entrant = f"e{number + 1}"
        api.expect(
            201,
            "POST",
            f"{base}/entrants",
            organiser,
            {"entrant_id": entrant, "players": [user for user, _ in pair]},
        )
        for _, token in pair:
            api.expect(200, "POST", f"{base}/entrants/{entrant}/accept", token, {})
    api.expect(201, "POST", f"{base}/rounds", organiser, {})
    return cid, organiser


@dataclass
class TravellerPoll:
    """One board's traveller polled until it answers 200 with every table's line."""

    api: Api
    path: str
    tables: int
    token: str
    first_poll: float | None = None
    last_refused: float | None = None  # when the last refused request was sent
    asked_at: float | None = None  # when the first request answered 200 was sent
    shown_at: float | None = None  # and when its answer was in
    polls: int = 0
    error: str | None = None
    stopping: threading.Event = field(default_factory=threading.Event)

    def run(self) -> None:
        try:
            while not self.stopping.is_set():
                now = time.time()
                status, answer = self.api.call("GET", self.path, self.token)
                self.polls += 1
                if self.first_poll is None:
                    self.first_poll = now
                if status == 200 and len(answer["tables"]) == self.tables:
                    self.asked_at, self.shown_at = now, time.time()
                    return
                if status not in (200, 409):
                    self.error = f"{status} {answer}"
                    return
                self.last_refused = now
                self.stopping.wait(POLL_SECONDS)
        except Exception as exc:  # noqa: BLE001 - reported in the figures, not lost
            self.error = repr(exc)


def _stream_ids(cid: str, number: int) -> list[str]:
    # Imported here: models load only after setup_django(), which main calls first.
    from leagues.models import CompetitionTable

    return [
        f"table-{table_id}"
        for table_id in CompetitionTable.objects.filter(
            competition_id=cid, round=number
        ).values_list("table_id", flat=True)
    ]


def _count(streams: Sequence[str], kind: str) -> int:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM eventstore_event WHERE stream_id = ANY(%s) AND type = %s",
            [list(streams), kind],
        )
        (count,) = cursor.fetchone()
    return int(count)


def _times(streams: Sequence[str], kind: str) -> list[float]:
    """When each event of this type on these streams was recorded (epoch seconds, its
    transaction's start), in log order."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT extract(epoch FROM recorded_at) FROM eventstore_event "
            "WHERE stream_id = ANY(%s) AND type = %s ORDER BY position",
            [list(streams), kind],
        )
        return [float(row[0]) for row in cursor.fetchall()]


def _round_times(cid: str, number: int, kind: str) -> list[float]:
    """When each of the competition's events of this type for round ``number`` was
    recorded."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT extract(epoch FROM recorded_at) FROM eventstore_event "
            "WHERE stream_id = %s AND type = %s AND (data->>'round')::int = %s "
            "ORDER BY version",
            [competition_stream_id(cid), kind, number],
        )
        return [float(row[0]) for row in cursor.fetchall()]


def _board_complete(streams: Sequence[str]) -> dict[int, float]:
    """Per board (a table's hand ``n`` is board ``n``), its last card at any table."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT (data->>'hand_number')::int, extract(epoch FROM max(recorded_at)) "
            "FROM eventstore_event WHERE stream_id = ANY(%s) AND type = %s GROUP BY 1",
            [list(streams), "CardPlayed"],
        )
        return {int(board): float(at) for board, at in cursor.fetchall()}


def _wait(condition: Any, deadline: float, what: str, poll: float = 0.1) -> None:
    while not condition():
        if time.monotonic() > deadline:
            raise RuntimeError(f"{what}: not within the time allowed")
        time.sleep(poll)


def _board_cards(streams: Sequence[str]) -> dict[int, int]:
    """Per board, the cards played of it so far over every table."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT (data->>'hand_number')::int, count(*) FROM eventstore_event "
            "WHERE stream_id = ANY(%s) AND type = %s GROUP BY 1",
            [list(streams), "CardPlayed"],
        )
        return {int(board): int(count) for board, count in cursor.fetchall()}


def _board_revealed_times(cid: str, number: int) -> dict[int, float]:
    """When each board of round ``number`` was revealed: alone (``BoardRevealed``) or,
    for a board the round's end got to first, with the round (``BoardsRevealed``)."""
    from django.db import connection

    found: dict[int, float] = {}
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT type, data, extract(epoch FROM recorded_at) FROM eventstore_event "
            "WHERE stream_id = %s AND type IN ('BoardRevealed', 'BoardsRevealed') "
            "AND (data->>'round')::int = %s ORDER BY version",
            [competition_stream_id(cid), number],
        )
        for kind, data, at in cursor.fetchall():
            data = json.loads(data) if isinstance(data, str) else data
            boards = (
                [data["board"]] if kind == "BoardRevealed" else [b["board"] for b in data["boards"]]
            )
            for board in boards:
                found.setdefault(int(board), float(at))
    return found


def play_one_round(
    api: Api, cid: str, organiser: str, number: int, spec: RoundSpec
) -> dict[str, Any]:
    """Start round ``number`` (paired), wait for its travellers, and measure it."""
    base = f"/api/competitions/{cid}"
    started_at = time.time()
    api.expect(200, "POST", f"{base}/rounds/{number}/start", organiser, {})
    deadline = time.monotonic() + spec.timeout
    streams: list[str] = []
    board_cards = CARDS_A_HAND * spec.tables
    polls = [
        TravellerPoll(
            api, f"{base}/rounds/{number}/boards/{board}/traveller", spec.tables, organiser
        )
        for board in range(1, spec.boards + 1)
    ]
    threads = [threading.Thread(target=poll.run, daemon=True) for poll in polls]
    begun: set[int] = set()
    try:
        # Each board's traveller is polled from when at most POLL_WITHIN_CARDS of its
        # cards remain over every table (the boards are revealed one by one).
        while len(begun) < spec.boards:
            if time.monotonic() > deadline:
                raise RuntimeError(f"round {number} not played within {spec.timeout:g} s")
            if len(streams) < spec.tables:
                streams = _stream_ids(cid, number)
            played = _board_cards(streams) if len(streams) == spec.tables else {}
            for board in range(1, spec.boards + 1):
                if board not in begun and board_cards - played.get(board, 0) <= POLL_WITHIN_CARDS:
                    begun.add(board)
                    log(f"round {number}: polling board {board}'s traveller")
                    threads[board - 1].start()
            time.sleep(0.25)
        _wait(lambda: not any(t.is_alive() for t in threads), deadline, "travellers shown")
        failed = [poll.error for poll in polls if poll.error]
        if failed:
            raise RuntimeError(f"traveller polls failed: {failed}")
        _wait(lambda: _round_times(cid, number, "RoundClosed"), deadline, "round closed")
        _wait(
            lambda: _count(streams, "DealSeedRevealed") == spec.tables,
            deadline,
            "tables revealed",
        )
        par_deadline = time.monotonic() + spec.par_timeout
        while len(_round_times(cid, number, "BoardParComputed")) < spec.boards:
            if time.monotonic() > par_deadline:
                break
            time.sleep(0.5)
    finally:
        for poll in polls:
            poll.stopping.set()
        for thread in threads:
            if thread.is_alive():
                thread.join(timeout=10)
    completed = _board_complete(streams)
    revealed = _board_revealed_times(cid, number)
    last_card = max(completed.values())
    closed_at = _round_times(cid, number, "RoundClosed")[0]
    pars = _round_times(cid, number, "BoardParComputed")

    def since_last_card(at: float) -> float:
        return round((at - last_card) * 1000, 1)

    # Per board shown: (board, its 200 request sent, its answer in).
    shown = [
        (board, poll.asked_at, poll.shown_at)
        for board, poll in enumerate(polls, start=1)
        if poll.asked_at is not None and poll.shown_at is not None
    ]
    refused = [poll.last_refused for poll in polls if poll.last_refused is not None]
    return {
        "round": number,
        "minutes": round((closed_at - started_at) / 60, 2),
        # Per board: its last card at any table to its traveller answering 200.
        "lags_ms": [round((at - completed[board]) * 1000, 1) for board, _, at in shown],
        # The round's last card to the last traveller shown (what the round-level
        # reveal made every board wait for).
        "round_lag_ms": since_last_card(max(at for _, _, at in shown)),
        "legs_ms": {
            # The last table's game over (its DealRevealHeld, which wakes the results).
            "reveal_held": since_last_card(max(_times(streams, "DealRevealHeld"))),
            # The round's end: the transaction with BoardsRevealed (its start)...
            "reveal_started": since_last_card(_round_times(cid, number, "BoardsRevealed")[0]),
            # ...and its commit, at the latest (the tables reveal their seeds after it).
            "reveal_committed_by": since_last_card(min(_times(streams, "DealSeedRevealed"))),
            # The last request refused (409) and the first answered 200, when sent.
            "last_refused_sent": since_last_card(max(refused)) if refused else None,
            "first_shown_sent": since_last_card(min(asked for _, asked, _ in shown)),
            # The longest 200 answer (the traveller read under this load).
            "traveller_read": round(max(at - asked for _, asked, at in shown) * 1000, 1),
        },
        "board_complete_seconds": {
            str(board): round(at - started_at, 1) for board, at in sorted(completed.items())
        },
        # A board's own completion to its reveal's transaction (BoardRevealed, or the
        # round's BoardsRevealed when the round's end got there first).
        "board_revealed_ms": {
            str(board): round((revealed[board] - at) * 1000, 1)
            for board, at in sorted(completed.items())
            if board in revealed
        },
        "par_seconds": round(max(pars) - started_at, 1) if len(pars) == spec.boards else None,
        "pars_recorded": len(pars),
        # Per board, seconds before its last card that its polls began (negative:
        # after, and its lag is then an upper bound).
        "polls_began_before_board_complete_s": {
            str(board): round(completed[board] - poll.first_poll, 2)
            for board, poll in enumerate(polls, start=1)
            if poll.first_poll is not None and board in completed
        },
        "traveller_polls": sum(poll.polls for poll in polls),
    }


def selector_read(cid: str, number: int, board: int, repeat: int = 3) -> dict[str, float]:
    """The traveller's selector (``leagues.selectors.duplicate.board_traveller``: the
    competition's stream read and folded, the board's lines scored) in this process,
    after the run: wall-clock and process CPU ms, each the best of ``repeat``. The CPU
    time is what the machine's load does not inflate."""
    # Imported here: the selector imports models, loadable only after setup_django().
    from leagues.selectors.duplicate import board_traveller

    walls, cpus = [], []
    for _ in range(repeat):
        started, cpu_started = time.perf_counter(), time.process_time()
        board_traveller(cid, number, board)
        walls.append((time.perf_counter() - started) * 1000)
        cpus.append((time.process_time() - cpu_started) * 1000)
    return {"wall": round(min(walls), 1), "cpu": round(min(cpus), 1)}


def run_round(port: int, spec: RoundSpec, label: str = "dup") -> dict[str, Any]:
    """Organise a duplicate competition over the API of the web process on ``port`` (its
    worker and projector running on the same database as this process's Django), play
    ``spec.rounds`` rounds with the bots, one after the other, and measure them."""
    from django.db import connections

    api = Api(port)
    started_setup = time.monotonic()
    cid, organiser = organise(api, spec, label)
    setup_seconds = time.monotonic() - started_setup
    log(f"competition {cid}: {2 * spec.tables} entrants entered, round 1 paired")
    rounds = []
    for number in range(1, spec.rounds + 1):
        if number > 1:
            api.expect(201, "POST", f"/api/competitions/{cid}/rounds", organiser, {})
        rounds.append(play_one_round(api, cid, organiser, number, spec))
        log(f"round {number}: {json.dumps(rounds[-1])}")
    selector = selector_read(cid, spec.rounds, 1)
    connections.close_all()
    lags = [lag for played in rounds for lag in played["lags_ms"]]
    pars = [played["par_seconds"] for played in rounds]
    return {
        "round_minutes": round(sum(r["minutes"] for r in rounds) / len(rounds), 2),
        "traveller_lag_ms": percentiles(lags),
        "round_traveller_lag_ms": percentiles([played["round_lag_ms"] for played in rounds]),
        "par_seconds": None if None in pars else max(pars),
        "traveller_selector_ms": selector,
        "platform_rounds": rounds,
        "platform_round": {
            "competition_id": cid,
            "tables": spec.tables,
            "entrants": 2 * spec.tables,
            "boards": spec.boards,
            "rounds": spec.rounds,
            "level": spec.level,
            "movement": "mitchell",
            "par_plays": DEFAULT_PAR_PLAYS,
            "setup_seconds": round(setup_seconds, 1),
        },
    }


def platform_half(args: argparse.Namespace) -> dict[str, Any]:
    """The round on a scratch database and Redis database, with the platform's processes
    as ``benchmarks.capacity`` starts them."""
    import redis

    spec = RoundSpec(
        tables=args.platform_tables,
        boards=args.platform_boards,
        level=args.platform_level,
        rounds=args.platform_rounds,
        timeout=args.platform_timeout,
    )
    base = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0").rsplit("/", 1)[0]
    redis_url = f"{base}/{args.redis_db}"
    os.environ["REDIS_URL"] = redis_url
    redis.Redis.from_url(redis_url).flushdb()
    load_before = round(os.getloadavg()[0], 2)
    run_dir = ROOT / ".run" / f"bench-duplicate-{os.getpid()}"
    with scratch_database(args.db_name, args.keep_db) as (owner_url, app_url):
        setup_django(owner_url, app_url)
        env = {
            **platform_env(redis_url, run_dir, 16, owner_url, app_url),
            # The run's one organiser answers for every all-bot table of the round.
            "SPADES_MAX_BOT_TABLES_PER_USER": str(spec.tables + 2),
            "THROTTLE_LEAGUES_WRITES": "100000/min",
            # No fixed metrics ports: another run on the machine may hold them.
            "SPADES_WORKER_METRICS_PORT": "0",
            "SPADES_PROJECTOR_METRICS_PORT": "0",
            "SPADES_SCHEDULER_METRICS_PORT": "0",
        }
        processes, ports = platform_processes(
            argparse.Namespace(web_processes=1, workers=args.platform_workers), env, run_dir
        )
        try:
            with running(processes, run_dir, keep=True):
                log(f"platform up: web on {ports[0]}, {args.platform_workers} worker(s)")
                figures = run_round(ports[0], spec)
        except BaseException:
            for process in processes:
                log(f"----- {process.name}\n{process.log_text()[-3000:]}")
            raise
        finally:
            if not args.keep_db:
                shutil.rmtree(run_dir, ignore_errors=True)
    figures["platform_round"]["workers"] = args.platform_workers
    figures["platform_round"]["worker_concurrency"] = int(
        os.environ.get("SPADES_WORKER_CONCURRENCY", "2")
    )
    figures["platform_load_average_1min"] = [load_before, round(os.getloadavg()[0], 2)]
    return figures
