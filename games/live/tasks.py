"""The scheduler's periodic job of the tables (sent by ``services.scheduler``, queue
``timers``); the bot watchdog is the bots' own (``bots.watchdog``)."""

from __future__ import annotations

from celery import shared_task

from games.live.connections import ensure_sound_connection
from games.live.timers import expire_turn_timers_when_due


@shared_task(name="games.live.tasks.expire_turn_timers", ignore_result=True)
def expire_turn_timers() -> int:
    """Turn timers: record a timeout for every human whose time ran out (a Normal bot then
    plays the seat, dispatched like any bot turn); no query until the earliest deadline."""
    ensure_sound_connection()
    return expire_turn_timers_when_due()
