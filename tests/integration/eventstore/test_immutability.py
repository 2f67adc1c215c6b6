"""Stored events cannot be changed: a trigger refuses everyone (the owner included), and
the runtime role lacks the privileges in the first place."""

from __future__ import annotations

from typing import Any

import psycopg
import pytest
from django.db import DatabaseError, connection, transaction

from eventstore import reading, recorder, records
from eventstore.records import NewEvent

CHANGES = [
    "UPDATE eventstore_event SET data = '{}'::jsonb WHERE stream_id = %s",
    "DELETE FROM eventstore_event WHERE stream_id = %s",
    "TRUNCATE eventstore_event",
]


def _stream_with_events(stream: str) -> list[records.StoredEvent]:
    with transaction.atomic():
        recorder.append(stream, 0, [NewEvent("A", {"x": 1}), NewEvent("B", {"x": 2})])
    return reading.read_stream(stream)


@pytest.mark.django_db
@pytest.mark.parametrize("statement", CHANGES)
def test_trigger_refuses_the_owner(stream_prefix: str, statement: str) -> None:
    stream = f"{stream_prefix}-a"
    before = _stream_with_events(stream)
    with connection.cursor() as cursor:
        cursor.execute("SELECT current_user")
        assert cursor.fetchone()[0] == connection.settings_dict["USER"]
        with pytest.raises(DatabaseError, match="append-only"), transaction.atomic():
            cursor.execute(statement, [stream] if "%s" in statement else [])
    assert reading.read_stream(stream) == before


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("statement", CHANGES)
def test_runtime_role_lacks_the_privilege(
    stream_prefix: str, statement: str, app_role_connection: psycopg.Connection[Any]
) -> None:
    stream = f"{stream_prefix}-a"
    before = _stream_with_events(stream)
    with pytest.raises(psycopg.errors.InsufficientPrivilege, match="permission denied"):
        app_role_connection.execute(statement, [stream] if "%s" in statement else [])
    assert reading.read_stream(stream) == before


@pytest.mark.django_db(transaction=True)
def test_runtime_role_can_read_and_append_but_not_disable_the_trigger(
    stream_prefix: str, app_role_connection: psycopg.Connection[Any]
) -> None:
    stream = f"{stream_prefix}-a"
    _stream_with_events(stream)
    assert app_role_connection.execute(
        "SELECT count(*) FROM eventstore_event WHERE stream_id = %s", [stream]
    ).fetchone() == (2,)
    # The app role appends through the store's SQL (INSERT and the head row's UPDATE).
    with app_role_connection.transaction():
        app_role_connection.execute(
            "UPDATE eventstore_stream SET updated_at = now() WHERE stream_id = %s", [stream]
        )
    for statement in (
        "ALTER TABLE eventstore_event DISABLE TRIGGER eventstore_event_append_only",
        "DROP TABLE eventstore_event",
        "DELETE FROM eventstore_stream",
        "SELECT setval('eventstore_event_position_seq', 1)",
    ):
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            app_role_connection.execute(statement)
