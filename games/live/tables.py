"""The tables domain as live play needs it: one adapter over ``games.models.Table`` (the read
model), ``games.domain.table.TableState`` (the fold) and ``games.services.commands`` (the
same application services a human's moves go through). Nothing here decides a rule.
"""

from __future__ import annotations

import datetime as dt
import json
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from django.db.models import Q
from django.utils import timezone

PLAYING = "playing"
PASSING = "passing"
BOT = "bot"
HUMAN = "human"


def bot_is_due(kind: str | None, acting_seats: list[int], seats: list[dict[str, Any]]) -> bool:
    """Whether a bot plays one of the seats the table waits for (the read model lists the
    first one's controller; several seats act while blind nil cards are passed)."""
    if kind == BOT:
        return True
    if len(acting_seats) < 2:
        return False
    return any(
        0 <= seat < len(seats) and seats[seat].get("controller") == BOT for seat in acting_seats
    )


BOT_DUE_SQL = """
SELECT version, seat_to_act_kind, phase, acting_seats, seats
  FROM games_table WHERE id = %s AND status = 'playing'
"""


def bot_due_version(table_id: object) -> int | None:
    """The read model's version if a seat to act is played by a bot, else None.

    Runs after every commit, so it is one plain indexed SELECT (no ORM compilation) and
    decodes the seats only while cards are passed.
    """
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(BOT_DUE_SQL, [str(table_id)])
        row = cursor.fetchone()
    if row is None:
        return None
    version, kind, phase, acting, seats = row
    if kind != BOT and phase != PASSING:
        return None
    acting_seats = json.loads(acting) if isinstance(acting, str) else acting or []
    seat_rows = json.loads(seats) if isinstance(seats, str) else seats or []
    if not bot_is_due(kind, acting_seats, seat_rows):
        return None
    return int(version)


def table_version(table_id: object) -> int | None:
    """The read model's version of a table (None if there is no such table)."""
    from django.db import connection

    try:
        key = str(uuid.UUID(str(table_id)))
    except ValueError:
        return None
    with connection.cursor() as cursor:
        cursor.execute("SELECT version FROM games_table WHERE id = %s", [key])
        row = cursor.fetchone()
    return None if row is None else int(row[0])


def overdue_bot_tables(overdue_seconds: float) -> list[tuple[str, int]]:
    """(table id, version) of every table in play whose bot has been due (the read model's
    ``due_since``) for at least ``overdue_seconds``."""
    from games.models import Table

    cutoff = timezone.now() - dt.timedelta(seconds=overdue_seconds)
    rows = (
        Table.objects.filter(status=PLAYING, due_since__lte=cutoff)
        .filter(Q(seat_to_act_kind=BOT) | Q(phase=PASSING))
        .values_list("pk", "version", "seat_to_act_kind", "acting_seats", "seats")
    )
    return [
        (str(pk), int(version))
        for pk, version, kind, acting, seats in rows
        if bot_is_due(kind, acting or [], seats or [])
    ]


def overdue_human_turns(now: dt.datetime | None = None) -> list[tuple[str, int, int]]:
    """(table id, version, seat) of every table in play whose human seat to act has passed
    its turn deadline (only tables with a turn timer have one)."""
    from games.models import Table

    rows = Table.objects.filter(
        status=PLAYING,
        seat_to_act_kind=HUMAN,
        turn_deadline__isnull=False,
        turn_deadline__lte=now or timezone.now(),
        seat_to_act__isnull=False,
    ).values_list("pk", "version", "seat_to_act")
    return [(str(pk), int(version), int(seat)) for pk, version, seat in rows]


@contextmanager
def reading_table(table_id: str) -> Iterator[Any]:
    """The table's folded state for reading (the services' cache); None if no such table.

    Do not change it, and do not keep it past the block.
    """
    from games.services.errors import CommandRejected
    from games.services.table_state import reading_state

    try:
        with reading_state(table_id) as state:
            yield state
            return
    except CommandRejected as refusal:
        if refusal.status != 404:
            raise
    yield None


@contextmanager
def reading_table_at(table_id: str, version: int) -> Iterator[Any]:
    """The table's folded state for a task computed at ``version``; None if no such table.

    A committed state in this process's cache is exact history up to its version, so when
    it is at ``version`` (or past it: the task is late) it is used without reading the
    stream; otherwise the cache catches up as in :func:`reading_table`. Do not change it,
    and do not keep it past the block.
    """
    from django.db import connection

    from games.services.errors import CommandRejected
    from games.services.table_state import parse_table_id, put_back, take_state

    table_uuid = parse_table_id(table_id)
    try:
        state, head_hash, verified = take_state(table_uuid, trust_committed=True)
    except CommandRejected as refusal:
        if refusal.status != 404:
            raise
        state = None
    if state is not None and not verified and state.version < version:
        put_back(table_uuid, state, head_hash, committed=True)
        state = None
        with reading_table(table_id) as caught_up:
            yield caught_up
        return
    try:
        yield state
    finally:
        if state is not None:
            put_back(table_uuid, state, head_hash, committed=not connection.in_atomic_block)


def bot_seat_due(state: Any) -> int | None:
    """The first seat whose move the table waits for and that a bot plays, if any."""
    for seat in state.acting_seats():
        if state.controller(seat) == BOT:
            return int(seat)
    return None


def bot_actor(level: str, strategy_version: str, seed: int, samples: int | None = None) -> Any:
    """The actor recorded in a bot move's metadata."""
    from games.services.actors import BotActor

    return BotActor(level=level, strategy_version=strategy_version, seed=seed, samples=samples)


def call_move(
    table_id: str,
    decision: Any,
    *,
    actor: Any,
    seat: int,
    expected_version: int,
    command_id: str,
) -> Any:
    """Apply a strategy's decision through the application service of its kind."""
    from games.services import commands

    common = {
        "actor": actor,
        "seat": seat,
        "expected_version": expected_version,
        "command_id": command_id,
    }
    if decision.kind == "bid":
        bid: object = (
            ("blind_nil" if decision.blind else "nil") if decision.tricks == 0 else decision.tricks
        )
        return commands.place_bid(table_id, bid=bid, **common)
    if decision.kind == "look":
        return commands.look_at_cards(table_id, **common)
    if decision.kind == "pass":
        return commands.pass_cards(table_id, cards=list(decision.cards), **common)
    if decision.kind == "play":
        return commands.play_card(table_id, card=decision.card, **common)
    raise ValueError(f"unknown decision kind {decision.kind!r}")


def is_stale_refusal(exc: BaseException) -> bool:
    """True for the refusal a late task meets: the table moved on (409 version conflict)."""
    from eventstore.errors import WrongExpectedVersion
    from games.services.errors import CommandRejected

    if isinstance(exc, WrongExpectedVersion):
        return True
    return isinstance(exc, CommandRejected) and exc.code == "version_conflict"


def time_out_turn(
    table_id: str, *, seat: int, expected_version: int, command_id: str, level: str
) -> Any:
    """The timeout command for ``seat`` (recorded as the table's timer)."""
    from games.services import commands
    from games.services.actors import SystemActor

    return commands.turn_timed_out(
        table_id,
        actor=SystemActor("timer"),
        seat=seat,
        expected_version=expected_version,
        command_id=command_id,
        level=level,
    )


def drop_broken_connection() -> None:
    """Close this thread's database connection if an error left it unusable.

    Workers reuse connections across tasks (``CELERY_DB_REUSE_MAX``) and never go through
    Django's request cycle, so this is their ``close_old_connections`` for the error case.
    """
    from django.db import connection

    if connection.connection is not None and connection.errors_occurred:
        connection.close_if_unusable_or_obsolete()
