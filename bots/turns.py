"""A bot's turn: fold the table, ask the seat's strategy, and send its move through the
same application service a human's move goes through.

``play_bot_turn(table_id, version)`` is computed for one stream version and passes it as
``expected_version``; a command id derived from (table, version, seat) makes a retried or
duplicated task append nothing. So a task that is late (the table moved on), duplicated
(watchdog re-send, redelivery after a worker crash) or retried is a no-op, never a second
move. The seed is derived from the table id and version (reproducible: the same position
gets the same decision) and recorded, with the strategy version, in the event metadata.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from django.db import connection

from bots.strategies.registry import board_strategy, get_strategy
from games.engine.view import seat_view
from games.live.tables import BOT, is_stale_refusal, reading_table
from games.services.actors import BotActor
from games.services.errors import CommandRejected
from games.services.table_commands import (
    LookAtCards,
    PassCards,
    PlaceBid,
    PlayCard,
    TableCommand,
    execute,
)
from games.services.table_state import parse_table_id, put_back, take_state
from telemetry.metrics import bot_decision

logger = logging.getLogger(__name__)

PLAYED = "played"
STALE = "stale"
NOT_DUE = "not_due"
DUPLICATE = "duplicate"


@dataclass(frozen=True)
class BotTurnOutcome:
    """What a bot-turn task did (returned by the Celery task, logged, read by tests)."""

    outcome: str
    table_id: str
    version: int
    seat: int | None = None
    kind: str | None = None
    new_version: int | None = None

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready (Celery results are JSON)."""
        return {
            "outcome": self.outcome,
            "table_id": self.table_id,
            "version": self.version,
            "seat": self.seat,
            "kind": self.kind,
            "new_version": self.new_version,
        }


def turn_seed(table_id: str, version: int, seat: int) -> int:
    """The strategy seed for this seat's move at this version (63 bits of SHA-256)."""
    digest = hashlib.sha256(f"spades-bot:{table_id}:{version}:{seat}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def bot_command_id(table_id: str, version: int, seat: int) -> str:
    """The idempotency key of the bot's move for this seat at this version."""
    return f"bot:{table_id}:{version}:{seat}"


def play_bot_turn(table_id: str, version: int) -> BotTurnOutcome:
    """Make the due bot's move at ``version``, or nothing if the table is elsewhere."""
    with reading_table_at(table_id, version) as state:
        if state is None or state.version != version:
            return BotTurnOutcome(STALE, table_id, version)
        seat = bot_seat_due(state)
        if seat is None or state.hand is None:
            return BotTurnOutcome(NOT_DUE, table_id, version)
        level = state.bot_level(seat) or "normal"
        view = seat_view(state.hand, seat, state.team_totals(), state.team_bags())
        # A duplicate table's every hand is a board scored on its own (bags at their
        # prorated cost), so its bots play the board revision (Hard: hard-3).
        on_boards = state.deals_from_boards
    strategy = board_strategy(level) if on_boards else get_strategy(level)
    seed = turn_seed(table_id, version, seat)
    with bot_decision(level):
        decision = strategy.decide(view, seed)
    try:
        result = call_move(
            table_id,
            decision,
            actor=BotActor(
                level=level, strategy_version=strategy.version, seed=seed, samples=decision.samples
            ),
            seat=seat,
            expected_version=version,
            command_id=bot_command_id(table_id, version, seat),
        )
    except Exception as exc:
        if is_stale_refusal(exc):
            return BotTurnOutcome(STALE, table_id, version, seat, decision.kind)
        raise
    outcome = DUPLICATE if result.duplicate else PLAYED
    return BotTurnOutcome(outcome, table_id, version, seat, decision.kind, result.version)


@contextmanager
def reading_table_at(table_id: str, version: int) -> Iterator[Any]:
    """The table's folded state for a task computed at ``version``; None if no such table.

    A committed state in this process's cache is exact history up to its version, so when
    it is at ``version`` (or past it: the task is late) it is used without reading the
    stream; otherwise the cache catches up as in ``games.live.tables.reading_table``. Do
    not change it, and do not keep it past the block.
    """
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


def call_move(
    table_id: str,
    decision: Any,
    *,
    actor: Any,
    seat: int,
    expected_version: int,
    command_id: str,
) -> Any:
    """Apply a strategy's decision through the command of its kind, as a human's move is."""
    command: TableCommand
    if decision.kind == "bid":
        bid: object = (
            ("blind_nil" if decision.blind else "nil") if decision.tricks == 0 else decision.tricks
        )
        command = PlaceBid(table_id, seat, bid)
    elif decision.kind == "look":
        command = LookAtCards(table_id, seat)
    elif decision.kind == "pass":
        command = PassCards(table_id, seat, list(decision.cards))
    elif decision.kind == "play":
        command = PlayCard(table_id, seat, decision.card)
    else:
        raise ValueError(f"unknown decision kind {decision.kind!r}")
    return execute(command, actor, expected_version=expected_version, command_id=command_id)
