"""Writing the :class:`games.models.Table` row from a folded state (same transaction)."""

from __future__ import annotations

import functools
import threading
import time
import uuid
from datetime import datetime, timedelta
from typing import Any

import orjson
from cachetools import LRUCache
from django.contrib.auth import get_user_model
from django.db import connection
from django.utils import timezone

from games.domain.table import HUMAN, TableState
from games.engine.seats import SEAT_NAMES, TEAM_NAMES
from games.models import Table

# Every rendering of a table with players shows their names; a WebSocket update is sent
# for every commit, so names are kept for a while instead of read each time. A renamed
# user shows under the old name for at most USERNAME_SECONDS.
USERNAME_SECONDS = 30.0
_USERNAMES_KEPT = 10_000
_usernames_kept: LRUCache[int, tuple[str, float]] = LRUCache(maxsize=_USERNAMES_KEPT)
_usernames_lock = threading.Lock()


def _usernames(user_ids: list[int]) -> dict[int, str]:
    if not user_ids:
        return {}
    now = time.monotonic()
    names: dict[int, str] = {}
    with _usernames_lock:
        for user_id in user_ids:
            kept = _usernames_kept.get(user_id)
            if kept is not None and now - kept[1] < USERNAME_SECONDS:
                names[user_id] = kept[0]
    missing = [user_id for user_id in user_ids if user_id not in names]
    if missing:
        User = get_user_model()
        read = dict(User.objects.filter(pk__in=missing).values_list("pk", User.USERNAME_FIELD))
        with _usernames_lock:
            for user_id, name in read.items():
                _usernames_kept[user_id] = (name, now)
        names.update(read)
    return names


def kept_usernames(state: TableState) -> dict[int, str] | None:
    """The names of the table's players if this process has them all (kept, not older than
    ``USERNAME_SECONDS``), else None. Never reads the database."""
    now = time.monotonic()
    names: dict[int, str] = {}
    with _usernames_lock:
        for user_id in state.players:
            if user_id is None:
                continue
            kept = _usernames_kept.get(user_id)
            if kept is None or now - kept[1] >= USERNAME_SECONDS:
                return None
            names[user_id] = kept[0]
    return names


def seat_rows(state: TableState, usernames: dict[int, str] | None = None) -> list[dict[str, Any]]:
    """The seats as the read model and views show them."""
    players = [p for p in state.players if p is not None]
    names = usernames if usernames is not None else _usernames(players)
    rows = []
    for seat in range(4):
        user_id = state.players[seat]
        rows.append(
            {
                "seat": SEAT_NAMES[seat],
                "kind": state.seat_kinds[seat],
                "level": state.seat_levels[seat],
                "user_id": user_id,
                "username": names.get(user_id) if user_id is not None else None,
                # Kept for an invited friend (SeatReserved): the secret is never here.
                "reserved": state.reserved[seat],
                "controller": state.controller(seat),
                "bot_level": state.bot_level(seat),
            }
        )
    return rows


def running_turn_timer(state: TableState) -> int | None:
    """The seconds of the turn timer now running at the table (a human seat to act at a
    table with a timer), or None: the read model's ``turn_deadline`` is the last commit's
    time plus these."""
    acting = state.acting_seats()
    seat = acting[0] if acting else None
    if seat is None or not state.turn_timer_seconds or state.controller(seat) != HUMAN:
        return None
    return int(state.turn_timer_seconds)


def read_model_fields(
    state: TableState, last_recorded_at: datetime, with_seats: bool = True
) -> dict[str, Any]:
    """Every column of the table row that follows from the state (seats when asked)."""
    acting = state.acting_seats()
    seat = acting[0] if acting else None
    kind = state.controller(seat) if seat is not None else None
    timer = running_turn_timer(state)
    deadline = None if timer is None else last_recorded_at + timedelta(seconds=timer)
    totals = state.team_totals()
    bags = state.team_bags()
    winner = None
    if state.game is not None and state.game.ledger.winner is not None:
        winner = TEAM_NAMES[state.game.ledger.winner]
    fields: dict[str, Any] = {
        "version": state.version,
        "status": state.status,
        "hand_number": state.hand_number,
        "phase": state.phase,
        "seat_to_act": seat,
        "seat_to_act_kind": kind,
        "seat_to_act_level": state.bot_level(seat) if seat is not None else None,
        "acting_seats": acting,
        "due_since": last_recorded_at if seat is not None else None,
        "turn_deadline": deadline,
        "totals": {TEAM_NAMES[t]: totals[t] for t in (0, 1)},
        "bags": {TEAM_NAMES[t]: bags[t] for t in (0, 1)},
        "winner": winner,
        "embargoed": state.boards_embargoed and state.status != "lobby",
    }
    if with_seats:
        fields["seats"] = seat_rows(state)
    return fields


def create_row(table_id: uuid.UUID, state: TableState, last_recorded_at: datetime) -> Table:
    """Insert the read model row of a new table."""
    return Table.objects.create(
        id=table_id,
        rules=state.rules_snapshot,
        preset_name=state.preset_name,
        preset_version=state.preset_version,
        created_by_id=state.created_by,
        turn_timer_seconds=state.turn_timer_seconds,
        spectator_delay_tricks=state.spectator_delay_tricks,
        **read_model_fields(state, last_recorded_at),
    )


def update_row(
    table_id: uuid.UUID, state: TableState, last_recorded_at: datetime, seats_changed: bool
) -> None:
    """Bring the row up to ``state`` (one UPDATE; seat names are looked up only if needed)."""
    fields = read_model_fields(state, last_recorded_at, with_seats=seats_changed)
    Table.objects.filter(id=table_id).update(updated_at=timezone.now(), **fields)


def update_statement(
    table_id: uuid.UUID, state: TableState, seats_changed: bool
) -> tuple[str, list[Any]]:
    """``(sql, params)`` of the UPDATE that brings the row up to ``state``, for the store
    to run inside the append's own statement (``eventstore.recorder.append(read_model=...)``).

    Times come from the statement's ``now()``, which is also the events' ``recorded_at``.
    """
    fields = read_model_fields(state, timezone.now(), with_seats=seats_changed)
    timer = state.turn_timer_seconds if fields["turn_deadline"] is not None else None
    waiting = fields["due_since"] is not None
    del fields["due_since"], fields["turn_deadline"]
    params: list[Any] = [
        orjson.dumps(value).decode() if column in JSON_COLUMNS else value
        for column, value in fields.items()
    ]
    params += [waiting, timer, table_id]
    return _update_sql(tuple(fields)), params


@functools.lru_cache(maxsize=16)
def _update_sql(columns: tuple[str, ...]) -> str:
    """The UPDATE's text for one set of columns (one text object per shape)."""
    assignments = [f"{column} = %s" for column in columns]
    assignments += [
        "due_since = CASE WHEN %s THEN now() END",
        "turn_deadline = now() + make_interval(secs => %s)",
        "updated_at = now()",
    ]
    return f"UPDATE games_table SET {', '.join(assignments)} WHERE id = %s"


JSON_COLUMNS = frozenset({"acting_seats", "totals", "bags", "seats"})


def rename_player(user_id: int, username: str) -> int:
    """Write ``username`` into every table row that seats user ``user_id`` (an account
    renamed to its pseudonym on deletion) and forget this process's copy of the old name;
    how many rows changed. Other processes show the old name for at most
    ``USERNAME_SECONDS`` more."""
    with _usernames_lock:
        _usernames_kept.pop(user_id, None)
    with connection.cursor() as cursor:
        cursor.execute(
            _RENAME_SQL, [user_id, username, orjson.dumps([{"user_id": user_id}]).decode()]
        )
        return int(cursor.rowcount)


# One statement per call: each row's seats are rewritten under its row lock, so an append
# updating the same row runs before or after, never in between.
_RENAME_SQL = """
UPDATE games_table SET seats = (
    SELECT jsonb_agg(
        CASE WHEN seat -> 'user_id' = to_jsonb(%s::bigint)
             THEN seat || jsonb_build_object('username', %s::text) ELSE seat END
        ORDER BY place)
    FROM jsonb_array_elements(seats) WITH ORDINALITY AS seated(seat, place))
WHERE seats @> %s::jsonb
"""
