"""The restore drill of docs/operations.md, "Backups and restore" (issue 18, point 4).

A live database with played tables (complete games in their event streams) and a
finished competition, every projection caught up and a signed checkpoint published, is
dumped with ``pg_dump``, restored with ``pg_restore`` into a new database, checked with
``manage.py verify_events --against`` the published checkpoints, its projections emptied
and rebuilt with ``manage.py rebuild_projections``, and every projection's rows compared
with the original's. The commands run as child processes on the restored database, as an
operator would run them.
"""

from __future__ import annotations

import os
import pwd
import random
import shutil
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest
from django.conf import settings
from django.db import connection, transaction
from django.db.models import Model
from django.db.models.fields import AutoFieldMixin

from eventstore.recorder import append
from eventstore.records import NewEvent
from eventstore.subscriptions import catch_up, registered_projections
from leagues.models import (
    OfficialStandings,
    PendingBoardResult,
    PendingTableResult,
    PlayerRating,
    RatedResult,
    RatingChange,
    SkillChange,
    SkillRating,
)
from leagues.services import rounds
from leagues.services.streams import load
from scoring.models import LedgerHand
from services.testing import LOCAL_ONLY_SECRET_KEY
from services.testing.processes import ROOT, database_env, database_url, free_port
from tests.integration.eventstore.test_signed_checkpoints import command

# The leagues tests' fixtures (taken with request.getfixturevalue below).
from tests.integration.leagues.conftest import (  # noqa: F401
    fast_password_hashing,
    organiser,
    players,
    swiss,
)
from tests.integration.leagues.test_services import play_round
from tests.unit.domain.playing import play_random_game

pytestmark = pytest.mark.django_db(transaction=True)

# Every registered projection and the tables it writes (a new projection must be added
# here, or the first assertion fails).
PROJECTION_MODELS: dict[str, tuple[type[Model], ...]] = {
    "score_ledger": (LedgerHand,),
    "league_standings": (OfficialStandings,),
    "league_match_results": (PendingTableResult,),
    "league_rating_pools": (RatedResult, PlayerRating, RatingChange),
    "league_duplicate_skill": (SkillRating, SkillChange),
    "league_board_ends": (PendingBoardResult,),
}
# When a row was written, not what it holds: a rebuild writes it again, later.
WRITE_TIMES = {"updated_at"}
TABLES = 2


def played_tables() -> list[str]:
    """Complete games appended to table streams, as a table's events are stored."""
    streams = []
    for index in range(TABLES):
        _, events = play_random_game(
            random.Random(index), rules={"preset": "standard", "target_score": 150}
        )
        stream = f"table-{uuid.uuid4()}"
        with transaction.atomic():
            append(stream, 0, [NewEvent(e.type, e.data, e.schema_version) for e in events])
        streams.append(stream)
    return streams


def finished_competition(request: pytest.FixtureRequest) -> str:
    """A two-round Swiss of four entrants, every result in (the leagues tests' fixtures)."""
    director = request.getfixturevalue("organiser")
    cid = str(request.getfixturevalue("swiss")(4, rounds=2))
    for number in (1, 2):
        rounds.pair_next_round(director, cid)
        play_round(director, cid, number)
    assert load(cid).finished
    return cid


def newest_tx_id() -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT coalesce(max(tx_id)::text::bigint, 0) FROM eventstore_event")
        return int(cursor.fetchone()[0])


def caught_up(timeout: float = 60) -> None:
    """Every projection has handled every event: once the safe reading point is past the
    newest event (other test processes' open transactions can hold it back for a moment),
    until a round of catch-ups handles nothing and appends nothing."""
    deadline = time.monotonic() + timeout
    while True:
        newest = newest_tx_id()
        while True:
            with connection.cursor() as cursor:
                cursor.execute("SELECT eventstore_safe_tx_bound()::text::bigint")
                if int(cursor.fetchone()[0]) > newest:
                    break
            assert time.monotonic() < deadline, "the safe reading point never passed the events"
            time.sleep(0.05)
        handled = sum([catch_up(projection) for projection in registered_projections()])
        if handled == 0 and newest_tx_id() == newest:
            return


def published(key: Path, out: Path, streams: list[str], timeout: float = 60) -> None:
    """Publish until a checkpoint covers every stream in ``streams``."""
    deadline = time.monotonic() + timeout
    while True:
        command("publish_checkpoint", "--key", str(key), "--out", str(out))
        covered = "\n".join(out.read_text().splitlines()[1:])
        if all(stream in covered for stream in streams):
            return
        assert time.monotonic() < deadline, "no checkpoint covered the streams"
        time.sleep(0.05)


def rows(url: str, model: type[Model]) -> list[tuple[Any, ...]]:
    """Every row of the model's table in one fixed order, without its write times or a
    serial id (a rebuild numbers its rows anew)."""
    columns = [
        field.column
        for field in model._meta.concrete_fields
        if field.column not in WRITE_TIMES and not isinstance(field, AutoFieldMixin)
    ]
    listed = ", ".join(f'"{column}"' for column in columns)
    with psycopg.connect(url) as conn:
        return conn.execute(
            f'SELECT {listed} FROM "{model._meta.db_table}" ORDER BY {listed}'
        ).fetchall()


def database(name: str) -> dict[str, Any]:
    """The test database's connection settings, for the database ``name``."""
    return {**connection.settings_dict, "NAME": name}


def manage(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    """``manage.py ARGS`` in its own process with this database environment."""
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env={**env, "PATH": "/usr/bin:/bin", "SECRET_KEY": LOCAL_ONLY_SECRET_KEY},
        capture_output=True,
        text=True,
        timeout=300,
    )


@pytest.fixture
def restored_database() -> Iterator[str]:
    """The name of a database to restore into, dropped afterwards."""
    name = f"{connection.settings_dict['NAME']}_restored"
    owner = database_url(connection.settings_dict)
    drop = f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'
    with psycopg.connect(owner, autocommit=True) as conn:
        conn.execute(drop)
        conn.execute(f'CREATE DATABASE "{name}"')
    try:
        yield name
    finally:
        with psycopg.connect(owner, autocommit=True) as conn:
            conn.execute(drop)


# Transactions per pg_xact segment file (256 KiB, four transactions a byte).
XACT_SEGMENT = 1_048_576


def postgres_bin() -> Path | None:
    """The newest installed PostgreSQL's server tools (initdb, pg_ctl, pg_resetwal)."""
    found = [
        folder
        for folder in Path("/usr/lib/postgresql").glob("*/bin")
        if all((folder / tool).exists() for tool in ("initdb", "pg_ctl", "pg_resetwal"))
    ]
    return max(found, key=lambda folder: int(folder.parent.name), default=None)


class ScratchCluster:
    """A PostgreSQL cluster of this test's own on a free loopback port: a new server to
    restore into. As root its tools run as the OS user ``postgres`` (PostgreSQL refuses
    root), as bin/lib/env.sh's project-local cluster does."""

    def __enter__(self) -> ScratchCluster:
        tools = postgres_bin()
        if tools is None:
            pytest.skip("no PostgreSQL server tools (initdb, pg_ctl, pg_resetwal) installed")
        self.tools = tools
        self.owner: pwd.struct_passwd | None = None
        if os.geteuid() == 0:
            try:
                self.owner = pwd.getpwnam("postgres")
            except KeyError:
                pytest.skip("running as root without an OS user postgres for a cluster")
        self.folder = Path(tempfile.mkdtemp(prefix="spades-drill-", dir="/tmp"))
        self.folder.chmod(0o755)
        if self.owner is not None:
            os.chown(self.folder, self.owner.pw_uid, self.owner.pw_gid)
        self.data = self.folder / "data"
        self.port = free_port()
        self.run("initdb", "-D", str(self.data), "-U", "postgres", "--auth=trust", "-E", "UTF8")
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        try:
            self.run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")
        finally:
            shutil.rmtree(self.folder, ignore_errors=True)

    def run(self, tool: str, *args: str) -> None:
        command = [str(self.tools / tool), *args]
        if self.owner is not None:
            command = ["runuser", "-u", "postgres", "--", *command]
        done = subprocess.run(command, cwd="/", capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, f"{tool}: {done.stdout}{done.stderr}"

    def start(self) -> None:
        options = f"-p {self.port} -c listen_addresses=127.0.0.1 -c unix_socket_directories=''"
        log = str(self.folder / "postgres.log")
        self.run(
            "pg_ctl", "-D", str(self.data), "-l", log, "-w", "-t", "60", "-o", options, "start"
        )

    def create_platform_database(self) -> dict[str, Any]:
        """The roles and an empty database, as deploy/postgres/init.sql makes them; the
        connection settings of its owner."""
        with psycopg.connect(
            f"postgresql://postgres@127.0.0.1:{self.port}/postgres", autocommit=True
        ) as conn:
            conn.execute("CREATE ROLE spades_owner LOGIN PASSWORD 'spades_owner'")
            conn.execute("CREATE ROLE spades_app LOGIN PASSWORD 'spades_app'")
            conn.execute("CREATE DATABASE spades OWNER spades_owner")
        return {
            **connection.settings_dict,
            "HOST": "127.0.0.1",
            "PORT": str(self.port),
            "NAME": "spades",
            "USER": "spades_owner",
            "PASSWORD": "spades_owner",
        }

    def move_transaction_counter_past(self, newest: int) -> None:
        """docs/operations.md, "Backups and restore", step 3, as written there."""
        epoch, xid = newest >> 32, (newest & 0xFFFFFFFF) + 1
        xid = -(-xid // XACT_SEGMENT) * XACT_SEGMENT
        if xid >= 2**32:
            epoch, xid = epoch + 1, XACT_SEGMENT
        self.run("pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "stop")
        self.run("pg_resetwal", "-e", str(epoch), "-x", str(xid), "-D", str(self.data))
        segment = self.data / "pg_xact" / f"{xid // XACT_SEGMENT:04X}"
        segment.write_bytes(bytes(256 * 1024))
        if self.owner is not None:
            os.chown(segment, self.owner.pw_uid, self.owner.pw_gid)
        segment.chmod(0o600)
        self.start()


def restore(dump: Path, target: dict[str, Any]) -> None:
    pg_restore = shutil.which("pg_restore")
    assert pg_restore, "pg_restore missing (Debian's postgresql-client)"
    done = subprocess.run(
        [pg_restore, "--exit-on-error", f"--dbname={database_url(target)}", str(dump)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr


def transaction_ids(target: dict[str, Any]) -> tuple[int, int]:
    """Step 3's query: (the newest event's tx_id, the server's current transaction id)."""
    with psycopg.connect(database_url(target)) as conn:
        newest, server = conn.execute(
            "SELECT max(tx_id)::text::bigint, pg_current_xact_id()::text::bigint "
            "FROM eventstore_event"
        ).fetchone()
    return int(newest), int(server)


def verify_and_rebuild(
    target: dict[str, Any],
    checkpoints: Path,
    public_key: Path,
    before: dict[type[Model], list[tuple[Any, ...]]],
) -> None:
    """Steps 5 and 6 on the restored database, then every projection row compared."""
    env = database_env(target, settings.REDIS_URL)
    verified = manage(
        env, "verify_events", "--against", str(checkpoints), "--public-key", str(public_key)
    )
    assert verified.returncode == 0, verified.stdout + verified.stderr
    assert "no published history changed" in verified.stdout

    # The projections are derived data: empty them, rebuild them from the events.
    url = database_url(target)
    with psycopg.connect(url) as conn:
        for models in PROJECTION_MODELS.values():
            for model in models:
                conn.execute(f'DELETE FROM "{model._meta.db_table}"')
    assert not rows(url, LedgerHand)
    rebuilt = manage(env, "rebuild_projections")
    assert rebuilt.returncode == 0, rebuilt.stdout + rebuilt.stderr
    for name in PROJECTION_MODELS:
        assert f"{name}:" in rebuilt.stdout

    for models in PROJECTION_MODELS.values():
        for model in models:
            assert rows(url, model) == before[model], model.__name__


@pytest.fixture
def backup(
    request: pytest.FixtureRequest, tmp_path: Path
) -> tuple[Path, Path, Path, dict[type[Model], list[tuple[Any, ...]]]]:
    """(dump, checkpoints, public key, every projection's rows) of a live database with
    played tables and a finished competition, caught up, with a signed checkpoint."""
    assert set(PROJECTION_MODELS) == {p.name for p in registered_projections()}
    streams = [*played_tables(), f"competition-{finished_competition(request)}"]
    caught_up()
    key = tmp_path / "checkpoint.key"
    command("checkpoint_key", "--out", str(key))
    checkpoints = tmp_path / "checkpoints.jsonl"
    published(key, checkpoints, streams)
    original = database_url(connection.settings_dict)
    before = {m: rows(original, m) for models in PROJECTION_MODELS.values() for m in models}
    # (Ratings are compared as they are: rated only where the rating rules allow.)
    assert before[LedgerHand] and before[OfficialStandings]

    dump = tmp_path / "spades.dump"
    pg_dump = shutil.which("pg_dump")
    assert pg_dump, "pg_dump missing (Debian's postgresql-client)"
    done = subprocess.run(
        [pg_dump, "--format=custom", f"--file={dump}", original],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    return dump, checkpoints, Path(f"{key}.pub"), before


def test_a_dump_restores_verifies_against_the_checkpoints_and_rebuilds_every_projection(
    backup: tuple[Path, Path, Path, dict[type[Model], list[tuple[Any, ...]]]],
    restored_database: str,
) -> None:
    """The drill twice from one backup: on the same server, into a new database; then on
    a new server (a scratch cluster of this test's own, stopped at the end), whose
    transaction counter starts behind the restored events', which the checkpoints
    notice, until step 3's procedure moves it past them."""
    dump, checkpoints, public_key, before = backup

    target = database(restored_database)
    restore(dump, target)
    newest, server = transaction_ids(target)
    assert server > newest  # on the server that wrote them, by far
    verify_and_rebuild(target, checkpoints, public_key, before)

    with ScratchCluster() as cluster:
        target = cluster.create_platform_database()
        restore(dump, target)
        newest, server = transaction_ids(target)
        assert server < newest, "a new cluster starts behind the restored events"
        behind = manage(
            database_env(target, settings.REDIS_URL),
            "verify_events",
            "--against",
            str(checkpoints),
            "--public-key",
            str(public_key),
        )
        assert behind.returncode == 1 and "is ahead of this store" in behind.stderr

        cluster.move_transaction_counter_past(newest)
        newest_after, server = transaction_ids(target)
        assert newest_after == newest and server > newest
        verify_and_rebuild(target, checkpoints, public_key, before)
