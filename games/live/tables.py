"""The tables domain as live play needs it: one adapter over ``games.models.Table`` (the read
model), ``games.domain.table.TableState`` (the fold) and ``games.services.table_commands``
(the same commands a human's moves go through). Nothing here decides a rule.
"""

from __future__ import annotations

import datetime as dt
import uuid
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from django.db import connection
from django.db.models import Min
from django.utils import timezone

from eventstore.errors import WrongExpectedVersion
from games.models import Table
from games.services.actors import SystemActor
from games.services.errors import CommandRejected
from games.services.table_commands import TurnTimedOut, execute
from games.services.table_state import reading_state

PLAYING = "playing"
PASSING = "passing"
BOT = "bot"
HUMAN = "human"


def table_version(table_id: object) -> int | None:
    """The read model's version of a table (None if there is no such table)."""
    try:
        key = str(uuid.UUID(str(table_id)))
    except ValueError:
        return None
    with connection.cursor() as cursor:
        cursor.execute("SELECT version FROM games_table WHERE id = %s", [key])
        row = cursor.fetchone()
    return None if row is None else int(row[0])


def table_versions(table_ids: Sequence[object]) -> dict[str, int]:
    """The read model's version of each of these tables, in one query (tables that do not
    exist, and ids that are no table's, are left out): the live sockets' safety sweep."""
    keys = []
    for table_id in table_ids:
        try:
            keys.append(str(uuid.UUID(str(table_id))))
        except ValueError:
            continue
    if not keys:
        return {}
    with connection.cursor() as cursor:
        cursor.execute("SELECT id, version FROM games_table WHERE id = ANY(%s::uuid[])", [keys])
        return {str(key): int(version) for key, version in cursor.fetchall()}


def overdue_human_turns(now: dt.datetime | None = None) -> list[tuple[str, int, int]]:
    """(table id, version, seat) of every table in play whose human seat to act has passed
    its turn deadline (only tables with a turn timer have one)."""
    rows = Table.objects.filter(
        status=PLAYING,
        seat_to_act_kind=HUMAN,
        turn_deadline__isnull=False,
        turn_deadline__lte=now or timezone.now(),
        seat_to_act__isnull=False,
    ).values_list("pk", "version", "seat_to_act")
    return [(str(pk), int(version), int(seat)) for pk, version, seat in rows]


def next_turn_deadline() -> dt.datetime | None:
    """The earliest turn deadline of a human seat at a table in play (the filter of
    :func:`overdue_human_turns`), or None."""
    rows = Table.objects.filter(
        status=PLAYING,
        seat_to_act_kind=HUMAN,
        turn_deadline__isnull=False,
        seat_to_act__isnull=False,
    )
    return rows.aggregate(earliest=Min("turn_deadline"))["earliest"]


@contextmanager
def reading_table(table_id: str) -> Iterator[Any]:
    """The table's folded state for reading (the services' cache); None if no such table.

    Do not change it, and do not keep it past the block.
    """
    try:
        with reading_state(table_id) as state:
            yield state
            return
    except CommandRejected as refusal:
        if refusal.status != 404:
            raise
    yield None


def is_stale_refusal(exc: BaseException) -> bool:
    """True for the refusal a late task meets: the table moved on (409 version conflict)."""
    if isinstance(exc, WrongExpectedVersion):
        return True
    return isinstance(exc, CommandRejected) and exc.code == "version_conflict"


def time_out_turn(
    table_id: str, *, seat: int, expected_version: int, command_id: str, level: str
) -> Any:
    """The timeout command for ``seat`` (recorded as the table's timer)."""
    return execute(
        TurnTimedOut(table_id, seat, level=level),
        SystemActor("timer"),
        expected_version=expected_version,
        command_id=command_id,
    )
