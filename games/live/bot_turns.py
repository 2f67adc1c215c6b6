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
from dataclasses import dataclass
from typing import Any

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
    from bots.strategies.registry import get_strategy
    from games.engine.view import seat_view
    from games.live.tables import (
        bot_actor,
        bot_seat_due,
        call_move,
        is_stale_refusal,
        reading_table_at,
    )

    with reading_table_at(table_id, version) as state:
        if state is None or state.version != version:
            return BotTurnOutcome(STALE, table_id, version)
        seat = bot_seat_due(state)
        if seat is None or state.hand is None:
            return BotTurnOutcome(NOT_DUE, table_id, version)
        level = state.bot_level(seat) or "normal"
        view = seat_view(state.hand, seat, state.team_totals(), state.team_bags())
    strategy = get_strategy(level)
    seed = turn_seed(table_id, version, seat)
    decision = strategy.decide(view, seed)
    try:
        result = call_move(
            table_id,
            decision,
            actor=bot_actor(level, strategy.version, seed, decision.samples),
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
