"""The scheduler's periodic jobs (sent by ``services.scheduler``, queue ``timers``)."""

from __future__ import annotations

import os

from celery import shared_task

#: A bot due for longer than this (seconds) has its turn re-sent by the watchdog.
BOT_OVERDUE_SECONDS = float(os.environ.get("SPADES_BOT_OVERDUE_SECONDS", "3"))


@shared_task(name="games.live.tasks.redispatch_overdue_bots", ignore_result=True)
def redispatch_overdue_bots() -> int:
    """Watchdog: re-send the turn of every bot due for longer than ``BOT_OVERDUE_SECONDS``."""
    from games.live.dispatch import redispatch_overdue
    from games.live.tables import drop_broken_connection

    drop_broken_connection()
    return redispatch_overdue(BOT_OVERDUE_SECONDS)


@shared_task(name="games.live.tasks.expire_turn_timers", ignore_result=True)
def expire_turn_timers() -> int:
    """Turn timers: record a timeout for every human whose time ran out (a Normal bot then
    plays the seat, dispatched like any bot turn)."""
    from games.live.tables import drop_broken_connection
    from games.live.timers import expire_overdue_turns

    drop_broken_connection()
    return expire_overdue_turns()
