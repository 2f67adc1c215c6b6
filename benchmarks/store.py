"""Event store throughput, printed as one JSON object measured in one run.

Run ``python -m benchmarks.store [--seconds S] [--keep-db]``.

It creates a scratch database (``$SPADES_BENCH_DB_NAME``, default ``spades_bench``) as the
owner role, migrates it, and measures as the runtime role over the same TCP settings:

- ``raw_commits_per_second``: psycopg, autocommit, one single-row INSERT of a row shaped
  like an event into a copy of the events table (same columns, indexes and defaults, no
  trigger) per commit. The physical floor of an append: one round trip and one WAL flush.
- ``store_appends_per_second`` (1 client) and ``store_appends_per_second_4`` (4 clients,
  one stream each): ``transaction.atomic()`` + ``eventstore.recorder.append`` of one event.
- ``service_commands_per_second`` (1 client) / ``service_commands_per_second_4`` (4
  clients, separate tables): bids and plays through ``games.services.table_commands``.
- ``http_commands_per_second``: the same commands over HTTP against the ASGI app (daphne
  on a loopback port in a subprocess), 4 clients.
- ``rebuild_events_per_second``: ``eventstore.subscriptions.rebuild`` of the ledger
  projection over the events the service runs stored; ``catch_up_events_per_second``: the
  same read path with a projection that only counts (the store's own ceiling).
- ``naive_reader_missed_fraction``: share of events a ``position > last`` reader skipped
  while 4 writers committed out of order, next to ``tailing_reader_missed`` (must be 0).

Figures that need a part of the platform not present yet are ``null`` with a note.
The scratch database is dropped at the end unless ``--keep-db``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import psycopg
from psycopg import sql
from psycopg.conninfo import conninfo_to_dict, make_conninfo

from eventstore.records import NewEvent, StoredEvent
from eventstore.signals import events_committed
from games.domain.table import FINISHED, TableState
from games.engine.cards import card_name
from games.engine.hand import BIDDING, PLAYING
from games.engine.play import legal_cards
from services.testing import LOCAL_ONLY_SECRET_KEY

# Django's models and the services and selectors over them are imported inside the
# functions that use them: they need Django set up on the scratch database first
# (setup_django, once the command line has named it), which a module-level import
# would come before. service_available's import is itself the probe.

ROOT = Path(__file__).resolve().parent.parent
# DEBUG is off in benchmarks (and in the processes they start, which inherit this).
os.environ.setdefault("SECRET_KEY", LOCAL_ONLY_SECRET_KEY)
DEFAULT_APP_URL = "postgresql://spades_app:spades_app@127.0.0.1:5432/spades"
DEFAULT_OWNER_URL = "postgresql://spades_owner:spades_owner@127.0.0.1:5432/spades"

PAYLOAD = {"seat": 2, "card": 38, "trick": 7, "hand": 3, "note": "a card played in trick 7"}
METADATA = {"actor": {"kind": "user", "id": 17}, "command_id": "0" * 32}


def log(message: str) -> None:
    print(f"[bench] {message}", file=sys.stderr, flush=True)


# ---------------------------------------------------------------- scratch database


def database_urls(name: str) -> tuple[str, str]:
    owner = os.environ.get("DATABASE_OWNER_URL", DEFAULT_OWNER_URL)
    app = os.environ.get("DATABASE_URL", DEFAULT_APP_URL)
    return make_conninfo(owner, dbname=name), make_conninfo(app, dbname=name)


def libpq_to_url(conninfo: str) -> str:
    """The ``postgresql://`` URL our settings accept, for a libpq conninfo string."""
    params = conninfo_to_dict(conninfo)
    user = params.pop("user", "")
    password = params.pop("password", "")
    host = params.pop("host", "127.0.0.1")
    port = params.pop("port", "5432")
    dbname = params.pop("dbname")
    query = "&".join(f"{k}={v}" for k, v in params.items())
    auth = f"{user}:{password}@" if password else f"{user}@"
    return f"postgresql://{auth}{host}:{port}/{dbname}" + (f"?{query}" if query else "")


@contextmanager
def scratch_database(name: str, keep: bool) -> Iterator[tuple[str, str]]:
    """Create (fresh) and migrate ``name`` as the owner; yield (owner, app) URLs."""
    owner_url, app_url = database_urls(name)
    admin_url = make_conninfo(owner_url, dbname="postgres")
    with psycopg.connect(admin_url, autocommit=True) as admin:
        admin.execute(sql.SQL("DROP DATABASE IF EXISTS {}").format(sql.Identifier(name)))
        admin.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    # The same defaults the bootstrap (bin/lib/env.sh) gives the real database.
    with psycopg.connect(owner_url, autocommit=True) as owner:
        owner.execute("GRANT USAGE ON SCHEMA public TO spades_app")
        owner.execute(
            "ALTER DEFAULT PRIVILEGES IN SCHEMA public "
            "GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO spades_app"
        )
        owner.execute(
            "ALTER DEFAULT PRIVILEGES IN SCHEMA public "
            "GRANT USAGE, SELECT ON SEQUENCES TO spades_app"
        )
    env = {
        **os.environ,
        "SPADES_DB_ROLE": "owner",
        "DATABASE_OWNER_URL": libpq_to_url(owner_url),
        "DATABASE_URL": libpq_to_url(app_url),
    }
    log(f"migrating scratch database {name}")
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--verbosity", "0"], cwd=ROOT, env=env, check=True
    )
    try:
        yield owner_url, app_url
    finally:
        if not keep:
            from django.db import connections

            connections.close_all()
            try:
                with psycopg.connect(admin_url, autocommit=True) as admin:
                    admin.execute(
                        sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(
                            sql.Identifier(name)
                        )
                    )
            except psycopg.Error as exc:
                log(f"could not drop the scratch database {name}: {exc}")


def setup_django(owner_url: str, app_url: str) -> None:
    os.environ["SPADES_DB_ROLE"] = "app"
    os.environ["DATABASE_URL"] = libpq_to_url(app_url)
    os.environ["DATABASE_OWNER_URL"] = libpq_to_url(owner_url)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "services.settings")
    os.environ.setdefault("LOG_LEVEL", "WARNING")
    import django

    django.setup()


# ---------------------------------------------------------------- timing helpers


def rate(count: int, seconds: float) -> float:
    return round(count / seconds, 1) if seconds > 0 else 0.0


def timed_loop(step: Callable[[int], int], seconds: float) -> float:
    """Call ``step(i)`` (returns units done) until ``seconds`` pass; units per second."""
    done, i = 0, 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        done += step(i)
        i += 1
    return rate(done, time.perf_counter() - start)


def in_threads(count: int, body: Callable[[int], int]) -> int:
    """Run ``body(n)`` in ``count`` threads (each with its own Django connection)."""
    from django.db import connections

    results = [0] * count
    errors: list[BaseException] = []

    def run(n: int) -> None:
        try:
            results[n] = body(n)
        except BaseException as exc:
            errors.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(n,)) for n in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if errors:
        raise errors[0]
    return sum(results)


# ---------------------------------------------------------------- store-level figures


def raw_insert_step(
    owner_url: str, app_url: str
) -> tuple[Callable[[int], int], Callable[[], None]]:
    """A step that inserts one event-shaped row and commits (autocommit), and a closer."""
    with psycopg.connect(owner_url, autocommit=True) as owner:
        owner.execute("CREATE TABLE bench_raw (LIKE eventstore_event INCLUDING ALL)")
        owner.execute("GRANT SELECT, INSERT ON bench_raw TO spades_app")
    data, metadata = json.dumps(PAYLOAD), json.dumps(METADATA)
    conn = psycopg.connect(app_url, autocommit=True)

    def insert(i: int) -> int:
        conn.execute(
            "INSERT INTO bench_raw (stream_id, version, type, schema_version, data, "
            "metadata, hash, prev_hash) VALUES (%s, %s, %s, 1, %s, %s, %s, %s)",
            ["raw", i + 1, "CardPlayed", data, metadata, "a" * 64, "b" * 64],
        )
        return 1

    return insert, conn.close


def store_append_step(stream_id: str) -> Callable[[int], int]:
    """A step that appends one event to ``stream_id`` in its own transaction.

    The ``events_committed`` receivers (live fan-out, bot dispatch) are detached for the
    step: they belong to the service figures; this one is the store's own cost.
    """
    from django.db import transaction

    from eventstore.recorder import append

    def step(i: int) -> int:
        with receivers_detached(), transaction.atomic():
            append(stream_id, i, [NewEvent("CardPlayed", PAYLOAD, metadata=METADATA)])
        return 1

    return step


_detach_lock = threading.Lock()
_detached_depth = [0]
_detached_receivers: list[Any] = []


@contextmanager
def receivers_detached() -> Iterator[None]:
    """No ``events_committed`` receivers inside the block (shared by threads: the
    receivers come back when the last block ends)."""
    with _detach_lock:
        if _detached_depth[0] == 0:
            _detached_receivers[:] = events_committed.receivers
            events_committed.receivers = []
            events_committed.sender_receivers_cache.clear()
        _detached_depth[0] += 1
    try:
        yield
    finally:
        with _detach_lock:
            _detached_depth[0] -= 1
            if _detached_depth[0] == 0:
                events_committed.receivers = list(_detached_receivers)
                events_committed.sender_receivers_cache.clear()


def interleaved(steps: dict[str, Callable[[int], int]], seconds: float) -> dict[str, float]:
    """Rates of several steps measured in alternating slices, so that a change in load
    (other processes flushing WAL, checkpoints) hits each figure alike."""
    slices = max(4, int(seconds / 0.25))
    counts = dict.fromkeys(steps, 0)
    elapsed = dict.fromkeys(steps, 0.0)
    calls = dict.fromkeys(steps, 0)
    for _ in range(slices):
        for name, step in steps.items():
            start = time.perf_counter()
            deadline = start + seconds / slices
            while time.perf_counter() < deadline:
                counts[name] += step(calls[name])
                calls[name] += 1
            elapsed[name] += time.perf_counter() - start
    return {name: rate(counts[name], elapsed[name]) for name in steps}


def store_appends_per_second_4(seconds: float) -> float:
    def body(n: int) -> int:
        step = store_append_step(f"bench-4-{n}")
        done, i = 0, 0
        deadline = time.perf_counter() + seconds
        while time.perf_counter() < deadline:
            done += step(i)
            i += 1
        return done

    start = time.perf_counter()
    total = in_threads(4, body)
    return rate(total, time.perf_counter() - start)


def naive_reader_experiment(seconds: float) -> dict[str, Any]:
    """4 writers commit out of order; a naive reader and a tailing projection follow."""
    from django.db import connection, transaction

    from eventstore.recorder import append
    from eventstore.subscriptions import Projection, catch_up

    prefix = f"naive-{random.randrange(10**9)}"
    seen: list[int] = []

    class Tail(Projection):
        name = f"bench-tail-{prefix}"

        def handle(self, event: StoredEvent) -> None:
            if event.stream_id.startswith(prefix):
                seen.append(event.position)

        def reset(self) -> None:
            seen.clear()

    done = threading.Event()
    naive_seen: list[int] = []

    def writer(n: int) -> int:
        rng = random.Random(n)
        version = 0
        deadline = time.perf_counter() + seconds
        while time.perf_counter() < deadline:
            with transaction.atomic():
                append(f"{prefix}-{n}", version, [NewEvent("E", {"n": version})])
                if rng.random() < 0.3:
                    time.sleep(rng.uniform(0.0005, 0.005))
            version += 1
        return version

    def reader(_: int) -> int:
        last = 0
        projection = Tail()
        while True:
            finished = done.is_set()
            catch_up(projection)
            with connection.cursor() as cursor:
                cursor.execute(
                    "SELECT position, stream_id FROM eventstore_event WHERE position > %s "
                    "ORDER BY position",
                    [last],
                )
                for position, stream_id in cursor.fetchall():
                    last = position
                    if stream_id.startswith(prefix):
                        naive_seen.append(position)
            if finished:
                break
            time.sleep(0.0005)
        deadline = time.perf_counter() + 30
        while len(seen) < written[0] and time.perf_counter() < deadline:
            catch_up(projection)
            time.sleep(0.01)
        return 0

    written = [0]
    reader_thread = threading.Thread(target=lambda: in_threads(1, reader))
    reader_thread.start()
    written[0] = in_threads(4, writer)
    done.set()
    reader_thread.join()
    return {
        "out_of_order_events": written[0],
        "naive_reader_missed": written[0] - len(set(naive_seen)),
        "naive_reader_missed_fraction": round(1 - len(set(naive_seen)) / written[0], 4),
        "tailing_reader_missed": written[0] - len(set(seen)),
        "tailing_reader_duplicates": len(seen) - len(set(seen)),
    }


def catch_up_events_per_second() -> dict[str, Any]:
    from eventstore.subscriptions import Projection, rebuild

    class Count(Projection):
        name = "bench-count"
        count = 0

        def handle(self, event: StoredEvent) -> None:
            self.count += 1

        def reset(self) -> None:
            self.count = 0

    projection = Count()
    start, cpu = time.perf_counter(), time.process_time()
    handled = rebuild(projection)
    return {
        "catch_up_events": handled,
        "catch_up_events_per_second": rate(handled, time.perf_counter() - start),
        "catch_up_events_per_client_cpu_second": rate(handled, time.process_time() - cpu),
    }


# ---------------------------------------------------------------- service and HTTP figures


class ServiceGame:
    """One client playing whole games through ``games.services.table_commands``: four users take
    the seats, then every bid and card is a command with the expected version. Bids are 3,
    cards the first legal one; a finished game starts a new table. Only bids and plays
    count as measured commands (creating and seating a table does not)."""

    def __init__(self, label: str) -> None:
        from django.contrib.auth import get_user_model

        users = get_user_model().objects
        self.users = [users.create_user(username=f"{label}-{seat}") for seat in range(4)]
        self.new_table()

    def new_table(self) -> None:
        from games.services.table_commands import StartGame, TakeSeat, create_table, execute

        created = create_table(actor=self.users[0], rules="standard")
        self.table_id = created.table_id
        self.state = TableState()
        self.follow(created.events)
        for seat, user in enumerate(self.users):
            self.follow(
                execute(
                    TakeSeat(self.table_id, seat), user, expected_version=self.state.version
                ).events
            )
        self.follow(
            execute(
                StartGame(self.table_id, first_dealer=0),
                self.users[0],
                expected_version=self.state.version,
            ).events
        )

    def follow(self, events: Any) -> None:
        for event in events:
            if event.version > self.state.version:
                self.state.apply(event.type, event.data)

    def next_move(self) -> tuple[str, int, Any] | None:
        """(``"bid"``/``"play"``, seat, argument) for the seat to act, None when over."""

        hand = self.state.hand
        if self.state.status == FINISHED or hand is None:
            return None
        if hand.phase == BIDDING:
            return "bid", hand.turn, 3
        if hand.phase == PLAYING:
            return "play", hand.turn, legal_cards(hand)[0]
        return None

    def step(self, _: int) -> int:
        from games.services.table_commands import PlaceBid, PlayCard, execute

        move = self.next_move()
        if move is None:
            self.new_table()
            return 0
        kind, seat, argument = move
        command = (PlaceBid if kind == "bid" else PlayCard)(self.table_id, seat, argument)
        result = execute(command, self.users[seat], expected_version=self.state.version)
        self.follow(result.events)
        return 1


def service_available() -> str | None:
    """None when the tables' services can be driven, else why not."""
    try:
        from games.services import table_commands  # noqa: F401
    except ImportError as exc:
        return f"service figures need games.services.table_commands ({exc})"
    return None


def service_command_step(label: str) -> tuple[Callable[[int], int] | None, list[str]]:
    """A step that sends one bid or play through the tables' application service."""
    missing = service_available()
    if missing:
        return None, [missing]
    return ServiceGame(label).step, []


def service_commands_per_second_4(seconds: float, label: str) -> float:
    def body(n: int) -> int:
        game = ServiceGame(f"{label}-{n}")
        done, i = 0, 0
        deadline = time.perf_counter() + seconds
        while time.perf_counter() < deadline:
            done += game.step(i)
            i += 1
        return done

    start = time.perf_counter()
    total = in_threads(4, body)
    return rate(total, time.perf_counter() - start)


def grow_history(target_events: int) -> int:
    """Copy the longest table stream the runs stored under new table ids until the log
    holds ``target_events`` events, so the rebuild is timed over a realistic volume of
    valid games (the service runs alone store a few thousand). Returns the log's size."""
    import uuid

    from django.db import connection, transaction

    from eventstore.reading import read_stream
    from eventstore.recorder import append

    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT stream_id FROM eventstore_stream WHERE stream_id LIKE 'table-%%' "
            "ORDER BY version DESC LIMIT 1"
        )
        row = cursor.fetchone()
        cursor.execute("SELECT count(*) FROM eventstore_event")
        (total,) = cursor.fetchone()
    if row is None:
        return int(total)
    template = [NewEvent(e.type, e.data, e.schema_version, e.metadata) for e in read_stream(row[0])]
    with receivers_detached():
        while total < target_events:
            with transaction.atomic():
                append(f"table-{uuid.uuid4()}", 0, template)
            total += len(template)
    return int(total)


def ledger_rebuild(target_events: int) -> tuple[dict[str, Any], list[str]]:
    """Rebuild the ledger projection over a log of about ``target_events`` events."""
    from eventstore.subscriptions import rebuild, registered_projections

    ledgers = [p for p in registered_projections() if "ledger" in p.name]
    if not ledgers:
        names = [p.name for p in registered_projections()]
        return {"rebuild_events_per_second": None}, [
            f"no ledger projection registered (registered: {names or 'none'})"
        ]
    grow_history(target_events)
    projection = ledgers[0]
    start, cpu = time.perf_counter(), time.process_time()
    handled = rebuild(projection)
    return {
        "rebuild_projection": projection.name,
        "rebuild_events": handled,
        "rebuild_events_per_second": rate(handled, time.perf_counter() - start),
        # This process's CPU only (the server's is not in it): the rate an idle machine
        # approaches when the database keeps up; useful when other work loads the machine.
        "rebuild_events_per_client_cpu_second": rate(handled, time.process_time() - cpu),
    }, []


class HttpGame:
    """One HTTP client playing whole games against the web process, like ServiceGame.

    Moves are chosen from the table's full state, which the client folds from the stream
    in the database (the API rightly hides other seats' cards); that read is the only
    work in the loop besides the POSTs, and only bids and plays are counted.
    """

    def __init__(self, label: str, port: int) -> None:
        import http.client

        from django.contrib.auth import get_user_model
        from rest_framework.authtoken.models import Token

        users = get_user_model().objects
        self.tokens = [
            Token.objects.create(user=users.create_user(username=f"{label}-{seat}")).key
            for seat in range(4)
        ]
        self.http = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        self.new_table()

    def post(self, path: str, body: dict[str, Any], seat: int) -> dict[str, Any]:
        self.http.request(
            "POST",
            path,
            body=json.dumps(body),
            headers={
                "Content-Type": "application/json",
                "Authorization": f"Token {self.tokens[seat]}",
            },
        )
        response = self.http.getresponse()
        payload = response.read()
        if response.status >= 300:
            raise RuntimeError(f"POST {path}: {response.status} {payload[:300]!r}")
        answer: dict[str, Any] = json.loads(payload)
        return answer

    def catch_up(self) -> None:
        from eventstore.reading import read_stream

        for event in read_stream(self.stream_id, after_version=self.state.version):
            self.state.apply(event.type, event.data)

    def new_table(self) -> None:

        created = self.post("/api/tables", {"preset": "standard"}, 0)
        self.table_id = created["table_id"]
        self.stream_id = f"table-{self.table_id}"
        self.state = TableState()
        self.catch_up()
        base = f"/api/tables/{self.table_id}"
        for seat in range(4):
            self.post(f"{base}/seats/{seat}/take", {"expected_version": self.state.version}, seat)
            self.catch_up()
        self.post(f"{base}/start", {"expected_version": self.state.version}, 0)
        self.catch_up()

    def step(self, _: int) -> int:

        move = ServiceGame.next_move(self)  # type: ignore[arg-type]
        if move is None:
            self.new_table()
            return 0
        kind, seat, argument = move
        body: dict[str, Any] = {"seat": seat, "expected_version": self.state.version}
        if kind == "bid":
            body["bid"] = argument
        else:
            body["card"] = card_name(argument)
        self.post(f"/api/tables/{self.table_id}/{kind}", body, seat)
        self.catch_up()
        return 1


def http_available() -> str | None:
    """None when the tables' REST endpoints exist, else why not."""
    from django.urls import Resolver404, resolve

    missing = service_available()
    if missing:
        return missing
    try:
        resolve("/api/tables")
    except Resolver404:
        return "HTTP figure needs the tables API (/api/tables is not routed)"
    return None


def free_port() -> int:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@contextmanager
def web_process(port: int) -> Iterator[None]:
    """The project's web process (daphne, ``python -m services.web``) on a loopback port,
    connected to the scratch database as the runtime role."""
    import urllib.request

    env = {
        **os.environ,
        "SPADES_DB_ROLE": "app",
        "SPADES_BIND": "127.0.0.1",
        "SPADES_HTTP_PORT": str(port),
        "DEBUG": "0",
        "LOG_LEVEL": "WARNING",
    }
    process = subprocess.Popen(
        [sys.executable, "-m", "services.web"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/health", timeout=2):
                    break
            except OSError:
                if process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError("the web process did not start") from None
                time.sleep(0.2)
        yield
    finally:
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def http_commands_per_second(seconds: float, label: str) -> tuple[float | None, list[str]]:
    """Bids and plays over HTTP, 4 clients on separate tables."""
    missing = http_available()
    if missing:
        return None, [missing]
    port = free_port()
    with web_process(port):

        def body(n: int) -> int:
            game = HttpGame(f"{label}-{n}", port)
            done, i = 0, 0
            deadline = time.perf_counter() + seconds
            while time.perf_counter() < deadline:
                done += game.step(i)
                i += 1
            game.http.close()
            return done

        start = time.perf_counter()
        total = in_threads(4, body)
        return rate(total, time.perf_counter() - start), []


# ---------------------------------------------------------------- main


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="duration of each timed run")
    parser.add_argument("--keep-db", action="store_true", help="keep the scratch database")
    parser.add_argument(
        "--rebuild-events",
        type=int,
        default=100_000,
        help="grow the log to this many events (copies of a stored game) before the rebuild",
    )
    parser.add_argument("--db-name", default=os.environ.get("SPADES_BENCH_DB_NAME", "spades_bench"))
    args = parser.parse_args(argv)
    if args.seconds <= 0:
        parser.error("--seconds must be positive")

    results: dict[str, Any] = {}
    with scratch_database(args.db_name, args.keep_db) as (owner_url, app_url):
        setup_django(owner_url, app_url)
        run_label = f"bench-{int(time.time())}"
        log("raw insert+commit vs store append vs service command, 1 client, interleaved")
        raw_step, close_raw = raw_insert_step(owner_url, app_url)
        steps = {"raw_commits_per_second": raw_step}
        steps["store_appends_per_second"] = store_append_step("bench-1")
        service_step, notes = service_command_step(f"{run_label}-1")
        if service_step is not None:
            steps["service_commands_per_second"] = service_step
            # The same without the events_committed receivers (live fan-out: its bot-check
            # query and notifier threads), to show what the service itself costs.
            bare_step, _ = service_command_step(f"{run_label}-1b")
            assert bare_step is not None

            def bare(i: int, step: Callable[[int], int] = bare_step) -> int:
                with receivers_detached():
                    return step(i)

            steps["service_commands_per_second_without_receivers"] = bare
        results.update(interleaved(steps, 3 * args.seconds))
        close_raw()
        raw = results["raw_commits_per_second"]
        results["store_to_raw_ratio"] = round(results["store_appends_per_second"] / raw, 3)
        results.setdefault("service_commands_per_second", None)
        if results["service_commands_per_second"]:
            results["service_to_raw_ratio"] = round(results["service_commands_per_second"] / raw, 3)
            results["service_without_receivers_to_raw_ratio"] = round(
                results["service_commands_per_second_without_receivers"] / raw, 3
            )
        log("store appends, 4 clients")
        results["store_appends_per_second_4"] = store_appends_per_second_4(args.seconds)
        results["service_commands_per_second_4"] = None
        if service_step is not None:
            log("service commands, 4 clients")
            results["service_commands_per_second_4"] = service_commands_per_second_4(
                args.seconds, f"{run_label}-4"
            )
        log("HTTP commands, 4 clients")
        results["http_commands_per_second"], http_notes = http_commands_per_second(
            args.seconds, f"{run_label}-http"
        )
        notes += http_notes
        log("out-of-order commits: naive vs tailing reader")
        results.update(naive_reader_experiment(args.seconds))
        log("ledger rebuild")
        rebuild_figures, rebuild_notes = ledger_rebuild(args.rebuild_events)
        results.update(rebuild_figures)
        notes += rebuild_notes
        log("catch-up read path")
        results.update(catch_up_events_per_second())
        results["targets"] = {
            "service_to_raw_ratio_min": 0.5,
            "rebuild_events_per_second_min": 50000,
        }
        results["machine"] = {
            "python": platform.python_version(),
            "cpus": os.cpu_count(),
            "load_average_1m": round(os.getloadavg()[0], 2),
            "seconds_per_run": args.seconds,
        }
        if notes:
            results["notes"] = notes
    print(json.dumps(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
