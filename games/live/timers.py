"""Turn timers: a human who lets the table's turn timer run out is replaced by a Normal bot.

Tables have a timer only when created with ``turn_timer_seconds`` (off by default); the
command services keep the read model's ``turn_deadline`` for the human seat to act. Every
second or so the scheduler sends ``games.live.tasks.expire_turn_timers``; when the earliest
deadline has come (``games.live.due``: kept in Redis, brought forward by every commit that
starts a human's timer, so the sweep reads nothing until then) it calls the timeout
command (``SystemActor("timer")``) for each expired deadline, bound to the version it
saw: the command appends ``TurnTimedOut`` and hands the seat to a Normal bot, and that
commit dispatches the bot's move like any other bot turn. A human who moved in the
meantime moved the version, so the stale timeout is refused and nothing happens.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence
from typing import Any

from games.domain.streams import table_id_of_stream
from games.live.due import run_when_due
from games.live.tables import (
    is_stale_refusal,
    next_turn_deadline,
    overdue_human_turns,
    time_out_turn,
)

logger = logging.getLogger(__name__)

TIMEOUT_LEVEL = "normal"
#: The sweep's name in ``games.live.due``.
SWEEP = "turn-timers"


def timeout_command_id(table_id: str, version: int, seat: int) -> str:
    """Idempotency key of the timeout of ``seat`` at ``version``."""
    return f"timeout:{table_id}:{version}:{seat}"


def expire_overdue_turns() -> int:
    """Record a timeout for every expired turn; returns how many were recorded."""
    recorded = 0
    for table_id, version, seat in overdue_human_turns():
        try:
            time_out_turn(
                table_id,
                seat=seat,
                expected_version=version,
                command_id=timeout_command_id(table_id, version, seat),
                level=TIMEOUT_LEVEL,
            )
        except Exception as exc:
            if is_stale_refusal(exc):
                continue
            logger.exception("timeout of seat %s at table %s failed", seat, table_id)
            continue
        logger.info("turn timer ran out: table %s seat %s (v%s)", table_id, seat, version)
        recorded += 1
    return recorded


def expire_turn_timers_when_due() -> int:
    """:func:`expire_overdue_turns` when the earliest turn deadline has come (or is not
    known); else nothing, without a query."""
    return run_when_due(SWEEP, expire_overdue_turns, next_turn_deadline)


def turn_deadline_rule(
    stream_id: str, events: Sequence[Any], context: dict[str, Any]
) -> float | None:
    """A commit of a table whose human seat to act now has a timer brings the sweep
    forward to its deadline (``turn_timer_seconds`` in the commit's context, set by the
    tables' command services); a table commit that does not say brings it to now."""
    if table_id_of_stream(stream_id) is None:
        return None
    if "turn_timer_seconds" not in context:
        return time.time()
    seconds = context["turn_timer_seconds"]
    return None if seconds is None else time.time() + float(seconds)
