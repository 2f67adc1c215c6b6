"""The bot watchdog: a job the scheduler sends every few seconds (queue ``timers``).

Every table in play whose bot has been due for ``settings.BOT_OVERDUE_SECONDS`` or more
(a lost message, a worker that crashed mid-move) gets its turn sent again; a duplicate is
a no-op (``bots.turns``).
"""

from __future__ import annotations

import logging

from celery import shared_task
from django.conf import settings

from bots.dispatch import send_bot_turn
from bots.selectors import overdue_bot_tables
from games.live.connections import ensure_sound_connection

logger = logging.getLogger(__name__)


def redispatch_overdue(overdue_seconds: float) -> int:
    """Re-send the bot turn of every table whose bot has been due for ``overdue_seconds``
    or more; returns how many were sent."""
    sent = 0
    for table_id, version in overdue_bot_tables(overdue_seconds):
        logger.warning("bot overdue at table %s v%s: re-sending its turn", table_id, version)
        send_bot_turn(table_id, version)
        sent += 1
    return sent


@shared_task(name="bots.watchdog.redispatch_overdue_bots", ignore_result=True)
def redispatch_overdue_bots() -> int:
    """Watchdog: re-send the turn of every bot due for longer than
    ``settings.BOT_OVERDUE_SECONDS``."""
    ensure_sound_connection()
    return redispatch_overdue(settings.BOT_OVERDUE_SECONDS)
