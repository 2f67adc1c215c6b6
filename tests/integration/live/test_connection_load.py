"""Load on one web process (daphne, ``services.web``, started as a child on loopback): 64
concurrent clients, half reading tables anonymously and half sending commands that
append events, for a bounded time. No request may answer 5xx, and the PostgreSQL sessions
of that process (counted in pg_stat_activity by the application name it is given) never
exceed its pool's bound, ``DB_POOL_MAX_SIZE`` (services/settings.py).

With persistent connections instead of the pool (``DB_POOL=0 DB_CONN_MAX_AGE=60``, the old
``bin/run`` default) every request thread kept its own session: the count passes the
bound within a second and the test stops the load at once (so that it never takes the
shared server's connections from anyone else) and fails.
"""

from __future__ import annotations

import http.client
import json
import threading
import time
import uuid
from collections import Counter
from typing import Any

import psycopg
from django.db import connection

from eventstore.reading import read_stream
from games.services.table_commands import create_table
from services.testing.processes import database_url
from tests.integration.live.conftest import SEAT_NAMES, SHORT_RULES, Processes, new_user, token_for

CLIENTS = 64
LOAD_SECONDS = 6.0
POOL_MAX_SIZE = 8


class Load:
    """The clients' shared tally and the stop signal."""

    def __init__(self) -> None:
        self.stop = threading.Event()
        self.lock = threading.Lock()
        self.statuses: Counter[int] = Counter()
        self.failures: list[str] = []
        self.peak_sessions = 0

    def record(self, status: int, what: str, body: bytes) -> None:
        with self.lock:
            self.statuses[status] += 1
            if status >= 500 and len(self.failures) < 5:
                self.failures.append(f"{what} -> {status}: {body[:200]!r}")


def request(
    connection: http.client.HTTPConnection, method: str, path: str, token: str | None = None
) -> tuple[int, bytes]:
    headers = {"Content-Type": "application/json", "Host": "127.0.0.1"}
    if token is not None:
        headers["Authorization"] = f"Token {token}"
    connection.request(method, path, body=b"{}" if method == "POST" else None, headers=headers)
    response = connection.getresponse()
    return response.status, response.read()


def client(port: int, load: Load, paths: list[tuple[str, str]], token: str | None) -> None:
    """Send ``paths`` in turn on one keep-alive connection until told to stop."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        turn = 0
        while not load.stop.is_set():
            method, path = paths[turn % len(paths)]
            turn += 1
            try:
                status, body = request(connection, method, path, token)
            except (OSError, http.client.HTTPException) as exc:
                load.record(599, f"{method} {path}", repr(exc).encode())
                connection.close()
                connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
                continue
            load.record(status, f"{method} {path}", body)
    finally:
        connection.close()


def watch_sessions(conninfo: str, application_name: str, load: Load) -> None:
    """Count the web's sessions every 50 ms; stop the load as soon as one too many opens."""
    with psycopg.connect(conninfo, autocommit=True) as watcher:
        while not load.stop.is_set():
            row = watcher.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE application_name = %s",
                [application_name],
            ).fetchone()
            count = int(row[0]) if row else 0
            load.peak_sessions = max(load.peak_sessions, count)
            if count > POOL_MAX_SIZE:
                load.stop.set()
            time.sleep(0.05)


def waiting_table(creator: Any) -> str:
    """A table that has not started: its south seat is free for a human."""
    seats = {name: {"kind": "human" if name == "south" else "bot"} for name in SEAT_NAMES}
    return str(create_table(actor=creator, rules=SHORT_RULES, seats=seats).table_id)


def test_a_web_process_under_64_clients_stays_within_its_pool(
    live_db: Any, processes: Processes
) -> None:

    application_name = f"spades-load-{uuid.uuid4().hex[:8]}"
    processes.env = {
        **processes.env,
        "SPADES_DB_APPLICATION_NAME": application_name,
        "DB_POOL_MAX_SIZE": str(POOL_MAX_SIZE),
        "DB_POOL_MIN_SIZE": "2",
        # The command limit is not what this measures.
        "THROTTLE_COMMANDS": "100000/min",
    }
    players = [new_user("load") for _ in range(CLIENTS // 2)]
    tables = [waiting_table(player) for player in players]
    tokens = [token_for(player) for player in players]
    _, port = processes.web()

    load = Load()
    threads = [
        threading.Thread(
            target=watch_sessions,
            args=(database_url(connection.settings_dict), application_name, load),
        )
    ]
    for table_id, token in zip(tables, tokens, strict=True):
        seat = f"/api/tables/{table_id}/seats/south"
        # Each command appends an event: SeatTaken, then SeatLeft, and so on.
        commands = [("POST", f"{seat}/take"), ("POST", f"{seat}/leave")]
        reads = [("GET", f"/api/tables/{table_id}"), ("GET", f"/api/tables/{table_id}/events")]
        threads.append(threading.Thread(target=client, args=(port, load, commands, token)))
        threads.append(threading.Thread(target=client, args=(port, load, reads, None)))
    for thread in threads:
        thread.start()
    load.stop.wait(LOAD_SECONDS)
    load.stop.set()
    for thread in threads:
        thread.join(60)

    assert not any(thread.is_alive() for thread in threads)
    summary = f"statuses {dict(load.statuses)}, peak sessions {load.peak_sessions}"
    print(summary)  # with -s or -rP: the figures quoted in docs/operations.md
    assert not load.failures, f"{summary}\n" + "\n".join(load.failures) + processes.logs()
    assert load.peak_sessions <= POOL_MAX_SIZE, summary
    assert load.peak_sessions > 0, summary  # the watcher saw the web's sessions at all
    # Every client got answers, and the commands really appended (200, not refusals).
    assert load.statuses[200] >= 2 * CLIENTS, summary

    appended = [len(read_stream(f"table-{table_id}")) for table_id in tables]
    assert min(appended) >= 2, (summary, appended)
    # And the process still answers afterwards.
    health = request(
        http.client.HTTPConnection("127.0.0.1", port, timeout=10), "GET", "/api/health"
    )
    assert json.loads(health[1])["status"] == "ok"
