"""Turn timers: a human who lets the table's turn timer run out is replaced by a Normal bot.

Tables have a timer only when created with ``turn_timer_seconds`` (off by default); the
command services keep the read model's ``turn_deadline`` for the human seat to act. Every
second or so the scheduler sends ``games.live.tasks.expire_turn_timers``, which calls the
timeout command (``SystemActor("timer")``) for each expired deadline, bound to the version
it saw: the command appends ``TurnTimedOut`` and hands the seat to a Normal bot, and that
commit dispatches the bot's move like any other bot turn. A human who moved in the
meantime moved the version, so the stale timeout is refused and nothing happens.
"""

from __future__ import annotations

import logging

from games.live.tables import is_stale_refusal, overdue_human_turns, time_out_turn

logger = logging.getLogger(__name__)

TIMEOUT_LEVEL = "normal"


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
