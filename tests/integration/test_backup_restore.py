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

import random
import shutil
import subprocess
import sys
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
from leagues.models import OfficialStandings, PendingTableResult, PlayerRating, RatedResult
from leagues.services import competitions
from leagues.services.streams import load
from scoring.models import LedgerHand
from services.testing import LOCAL_ONLY_SECRET_KEY
from services.testing.processes import ROOT, database_env, database_url
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
    "league_ratings": (RatedResult, PlayerRating),
}
# When a row was written, not what it holds: a rebuild writes it again, later.
WRITE_TIMES = {"updated_at"}
TABLES = 4


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
        competitions.pair_next_round(director, cid)
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


def manage(name: str, *args: str) -> subprocess.CompletedProcess[str]:
    """``manage.py ARGS`` in its own process on the database ``name``."""
    env = {
        **database_env(database(name), settings.REDIS_URL),
        "PATH": "/usr/bin:/bin",
        "SECRET_KEY": LOCAL_ONLY_SECRET_KEY,
    }
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
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


def test_a_dump_restores_verifies_against_the_checkpoints_and_rebuilds_every_projection(
    request: pytest.FixtureRequest, restored_database: str, tmp_path: Path
) -> None:
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

    # The backup: pg_dump's custom format, then a restore into a new database.
    dump = tmp_path / "spades.dump"
    pg_dump, pg_restore = shutil.which("pg_dump"), shutil.which("pg_restore")
    assert pg_dump and pg_restore, "pg_dump/pg_restore missing (Debian's postgresql-client)"
    done = subprocess.run(
        [pg_dump, "--format=custom", f"--file={dump}", original],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    restored = original.replace(f"/{connection.settings_dict['NAME']}", f"/{restored_database}", 1)
    done = subprocess.run(
        [pg_restore, "--exit-on-error", f"--dbname={restored}", str(dump)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr

    # The check docs/operations.md asks for after a restore: the server's transaction
    # counter is past every restored event's (on this same server it is by far).
    with psycopg.connect(restored) as conn:
        newest, server = conn.execute(
            "SELECT max(tx_id)::text::bigint, pg_current_xact_id()::text::bigint "
            "FROM eventstore_event"
        ).fetchone()
    assert server > newest

    # The restored history is the published one.
    verified = manage(
        restored_database,
        "verify_events",
        "--against",
        str(checkpoints),
        "--public-key",
        f"{key}.pub",
    )
    assert verified.returncode == 0, verified.stdout + verified.stderr
    assert "no published history changed" in verified.stdout

    # The projections are derived data: empty them, rebuild them from the events.
    with psycopg.connect(restored) as conn:
        for models in PROJECTION_MODELS.values():
            for model in models:
                conn.execute(f'DELETE FROM "{model._meta.db_table}"')
    assert not rows(restored, LedgerHand)
    rebuilt = manage(restored_database, "rebuild_projections")
    assert rebuilt.returncode == 0, rebuilt.stdout + rebuilt.stderr
    for name in PROJECTION_MODELS:
        assert f"{name}:" in rebuilt.stdout

    for models in PROJECTION_MODELS.values():
        for model in models:
            assert rows(restored, model) == before[model], model.__name__
