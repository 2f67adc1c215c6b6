"""Sending bot turns to the workers.

``dispatch_bot_if_due`` runs after every commit (``games.live.fanout``, itself called from
``transaction.on_commit``): if the table's read model says a bot is to act, it sends
``bots.tasks.play_bot_turn(table_id, version)`` to the ``bots`` queue. Sending twice is
harmless (the task is bound to the version and to an idempotent command id), which is what
lets the watchdog re-send freely.
"""

from __future__ import annotations

import logging

logger = logging.getLogger(__name__)


def send_bot_turn(table_id: object, version: int) -> None:
    """Queue the bot's move for ``table_id`` at ``version``."""
    from bots.tasks import play_bot_turn
    from services.celery import bots_queue

    play_bot_turn.apply_async(args=(str(table_id), int(version)), queue=bots_queue())


def dispatch_bot_if_due(table_id: object) -> bool:
    """Send the bot turn if the seat to act is a bot's; True if a task was sent."""
    from games.live.tables import bot_due_version

    version = bot_due_version(table_id)
    if version is None:
        return False
    send_bot_turn(table_id, version)
    return True


def redispatch_overdue(overdue_seconds: float) -> int:
    """Re-send the bot turn of every table whose bot has been due for ``overdue_seconds``
    or more (a lost message, a crashed worker); returns how many were sent."""
    from games.live.tables import overdue_bot_tables

    sent = 0
    for table_id, version in overdue_bot_tables(overdue_seconds):
        logger.warning("bot overdue at table %s v%s: re-sending its turn", table_id, version)
        send_bot_turn(table_id, version)
        sent += 1
    return sent
