"""The bot watchdog: a job the scheduler sends every few seconds (queue ``timers``).

Every table in play whose bot has been due for ``settings.BOT_OVERDUE_SECONDS`` or more
(a lost message, a worker that crashed mid-move) gets its turn sent again; a duplicate is
a no-op (``bots.turns``). The job reads the tables only once the earliest due bot may be
overdue (``games.live.due``: every commit that leaves a bot to act brings it forward), so
a platform where no bot is due costs it no query.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence
from typing import Any

from celery import shared_task
from django.conf import settings

from bots.dispatch import send_bot_turn
from bots.selectors import next_bot_overdue, overdue_bot_tables
from games.domain.streams import table_id_of_stream
from games.live.connections import ensure_sound_connection
from games.live.due import run_when_due

logger = logging.getLogger(__name__)

#: The sweep's name in ``games.live.due``.
SWEEP = "bot-watchdog"


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
    seconds = settings.BOT_OVERDUE_SECONDS
    return run_when_due(
        SWEEP, lambda: redispatch_overdue(seconds), lambda: next_bot_overdue(seconds)
    )


def bot_due_rule(stream_id: str, events: Sequence[Any], context: dict[str, Any]) -> float | None:
    """A table commit that leaves a bot to act (``bot_to_act`` in its context; a commit
    that does not say may) brings the watchdog forward to when that bot would be
    overdue."""
    if table_id_of_stream(stream_id) is None or context.get("bot_to_act") is False:
        return None
    return time.time() + float(settings.BOT_OVERDUE_SECONDS)
