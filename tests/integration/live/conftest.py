"""Live-play fixtures: real PostgreSQL (the test database), real Redis, real processes.

The Celery worker, the scheduler (beat) and daphne run as child processes
(``services.testing.processes``) pointed at the pytest test database as its owner, so they see
what the test commits and the test sees what they commit. Hence these tests commit for
real: they use ``django_db_blocker.unblock()`` instead of the ``django_db`` mark (no
wrapping transaction, no flush), and every test works on tables of its own. Unmarked DB
users run after pytest-django's transactional tests, so the rows they leave do not reach
other tests; the test database is dropped at the end of the session.
"""

from __future__ import annotations

import os
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connection, connections
from django.test.utils import setup_databases, teardown_databases
from rest_framework.authtoken.models import Token

from bots.strategies.registry import get_strategy
from bots.turns import call_move
from eventstore.reading import read_stream
from eventstore.verification import verify_stream
from games.engine.view import seat_view
from games.live.announcer import flush_announcements
from games.live.tables import reading_table
from games.models import Table
from games.services import table_commands
from games.services.table_commands import StartGame, TakeSeat, execute
from services.testing.processes import (
    ManagedProcess,
    ProcessFailed,
    database_env,
    free_port,
    log_contains,
    web_process,
    worker_process,
)


@pytest.fixture(scope="session")
def live_db(django_db_setup: Any, django_db_blocker: Any) -> Iterator[None]:
    """Database access that commits (the child processes must see the rows).

    pytest-django creates the test database only when a collected test is marked for it;
    when only these (unmarked) tests run, create it here, and drop it at the end. Either
    way, sessions that Channels' thread pool left open on it are ended first, so the test
    database can be dropped.
    """
    with django_db_blocker.unblock():
        created = None
        if connection.settings_dict["NAME"] != connection.creation._get_test_db_name():
            created = setup_databases(verbosity=0, interactive=False, aliases={"default"})
        try:
            yield
        finally:
            flush_announcements()
            with connection.cursor() as cursor:
                cursor.execute(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                    "WHERE datname = current_database() AND pid <> pg_backend_pid()"
                )
            connections.close_all()
            if created is not None:
                teardown_databases(created, verbosity=0)


@pytest.fixture(scope="session")
def live_env(live_db: None) -> Iterator[dict[str, str]]:
    """Environment for child processes: the test database, this run's Redis, fast jobs,
    and queues of this run's own (this process sends to them too), so a worker left
    running elsewhere on the same Redis database cannot take this run's bot turns."""
    prefix = f"test-{uuid.uuid4().hex[:8]}-"
    previous = os.environ.get("SPADES_QUEUE_PREFIX")
    os.environ["SPADES_QUEUE_PREFIX"] = prefix
    env = database_env(connection.settings_dict, settings.REDIS_URL)
    env.update(
        {
            "SPADES_QUEUE_PREFIX": prefix,
            "SPADES_WATCHDOG_INTERVAL": "1",
            "SPADES_TURN_TIMER_INTERVAL": "0.5",
            "SPADES_BOT_OVERDUE_SECONDS": "1.5",
            "LOG_LEVEL": "INFO",
            # No metrics ports (tests that scrape them give each process a free one).
            "SPADES_WORKER_METRICS_PORT": "0",
            "SPADES_PROJECTOR_METRICS_PORT": "0",
            "SPADES_SCHEDULER_METRICS_PORT": "0",
        }
    )
    try:
        yield env
    finally:
        if previous is None:
            os.environ.pop("SPADES_QUEUE_PREFIX", None)
        else:
            os.environ["SPADES_QUEUE_PREFIX"] = previous


@pytest.fixture(scope="session")
def live_logs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where the child processes write their logs (shown when a test fails)."""
    return tmp_path_factory.mktemp("live-processes")


class Processes:
    """Starts children and stops every one of them at teardown (by PID)."""

    def __init__(self, env: dict[str, str], log_dir: Path) -> None:
        self.env = env
        self.log_dir = log_dir
        self.started: list[ManagedProcess] = []

    def worker(self, name: str = "worker", concurrency: int = 1) -> ManagedProcess:
        process = worker_process(self.env, self.log_dir, name=name, concurrency=concurrency)
        self.started.append(process)
        return process.start(timeout=60)

    def scheduler(self) -> ManagedProcess:
        env = {
            **self.env,
            "SPADES_BEAT_PIDFILE": str(self.log_dir / f"beat-{uuid.uuid4().hex}.pid"),
        }
        process = ManagedProcess(
            "scheduler",
            "services.scheduler",
            [],
            env,
            self.log_dir,
            log_contains("beat: Starting"),
        )
        self.started.append(process)
        return process.start(timeout=60)

    def web(self) -> tuple[ManagedProcess, int]:
        port = free_port()
        process = web_process(self.env, self.log_dir, port)
        self.started.append(process)
        return process.start(timeout=60), port

    def logs(self) -> str:
        return "\n".join(
            f"----- {process.name} (pid {process.popen.pid if process.popen else '-'})\n"
            f"{process.log_text()[-3000:]}"
            for process in self.started
        )

    def stop_all(self) -> None:
        """SIGTERM every child at once, then wait for each (warm shutdowns overlap)."""
        for process in self.started:
            if process.alive():
                process.terminate()
        for process in reversed(self.started):
            process.stop()


@pytest.fixture
def processes(live_env: dict[str, str], live_logs: Path) -> Iterator[Processes]:
    """Start worker/scheduler/web children for one test; all are stopped afterwards."""
    log_dir = live_logs / uuid.uuid4().hex[:8]
    log_dir.mkdir()
    managed = Processes(live_env, log_dir)
    try:
        yield managed
    finally:
        managed.stop_all()


def wait_until(
    condition: Callable[[], Any], timeout: float, message: str, poll: float = 0.05
) -> Any:
    """Poll ``condition`` until it returns something truthy; fail with ``message``."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout}s: {message}")
        time.sleep(poll)


__all__ = ["Processes", "ProcessFailed", "wait_until"]


# ---------------------------------------------------------------- tables

SHORT_RULES = {"preset": "standard", "target_score": 100, "lose_score": -100}
SEAT_NAMES = ("north", "east", "south", "west")


class NoNotices:
    """Commit notices that never come (for ``services.projector.commit_notices``): other
    processes of the run publish on the same channel, so a test that asserts the projector
    went on without a wake-up replaces them, and the projector can only go on by itself
    or at its poll."""

    subscribed = True

    def missed(self) -> bool:
        return False

    def wait(self, timeout: float) -> list[dict[str, Any]]:
        time.sleep(timeout)
        return []

    def close(self) -> None:
        pass


def new_user(prefix: str = "live") -> Any:
    """A fresh user (committed)."""
    return get_user_model().objects.create_user(
        username=f"{prefix}-{uuid.uuid4().hex[:10]}", password="live-password-123"
    )


def token_for(user: Any) -> str:
    """The user's DRF token."""
    token, _ = Token.objects.get_or_create(user=user)
    return str(token.key)


def create_table(
    creator: Any,
    *,
    humans: dict[str, Any] | None = None,
    level: str = "easy",
    start: bool = True,
    turn_timer_seconds: int | None = None,
    spectator_delay_tricks: int = 0,
) -> str:
    """A table whose seats are bots of ``level`` except ``humans`` (seat name -> user)."""
    humans = humans or {}
    seats = {
        name: {"kind": "human"} if name in humans else {"kind": "bot", "level": level}
        for name in SEAT_NAMES
    }
    result = table_commands.create_table(
        actor=creator,
        rules=SHORT_RULES,
        seats=seats,
        turn_timer_seconds=turn_timer_seconds,
        spectator_delay_tricks=spectator_delay_tricks,
    )
    table_id = str(result.table_id)
    for seat, user in humans.items():
        execute(TakeSeat(table_id, seat), user)
    if start:
        execute(StartGame(table_id, first_dealer="north"), creator)
    return table_id


def table_row(table_id: str) -> Any:

    return Table.objects.get(pk=table_id)


def stream_events(table_id: str) -> list[Any]:

    return read_stream(f"table-{table_id}")


def assert_history_sound(table_id: str) -> list[Any]:
    """Versions 1..N without gap, hash chain valid, and the read model at N (once the game
    is over; before, at most N)."""
    read_model_version = table_row(table_id).version  # first: a live table moves on
    events = stream_events(table_id)
    assert [event.version for event in events] == list(range(1, len(events) + 1))
    assert verify_stream(f"table-{table_id}") is None
    assert read_model_version <= len(events)
    if table_row(table_id).status == "finished":
        assert table_row(table_id).version == len(events)
    return events


def wait_for_status(table_id: str, status: str, timeout: float, processes: Processes) -> Any:
    """Wait until the read model shows ``status``; on timeout show the children's logs."""
    try:
        return wait_until(
            lambda: table_row(table_id).status == status, timeout, f"table {table_id} {status}"
        )
    except AssertionError as exc:
        row = table_row(table_id)
        raise AssertionError(
            f"{exc}; table at v{row.version} {row.status} seat {row.seat_to_act} "
            f"{row.seat_to_act_kind}\n{processes.logs()}"
        ) from None


def human_move(table_id: str, user: Any, seat: int) -> Any:
    """The move an Easy strategy would make for ``seat``, sent as the human ``user``."""
    with reading_table(table_id) as state:
        version = state.version
        view = seat_view(state.hand, seat, state.team_totals(), state.team_bags())
    decision = get_strategy("easy").decide(view, version)
    return call_move(
        table_id,
        decision,
        actor=user,
        seat=seat,
        expected_version=version,
        command_id=f"human-{uuid.uuid4().hex}",
    )
