"""Sending bot turns to the workers, after every commit that leaves a bot due.

``on_events_committed`` receives ``eventstore.signals.events_committed`` (connected in
``bots.apps``), which the store sends from ``transaction.on_commit``, in whichever process
committed. Whether a bot is due comes with the commit (the tables' service's
``bot_to_act`` and ``table_id`` in the signal's context) or, from other appenders, from one
indexed query of the read model (``bots.selectors.bot_due_version``). A due bot's turn is
queued for this process's dispatcher thread (``games.live.announcer``: a Celery send waits
for the broker, and the committing request or task must not), which sends
``bots.tasks.play_bot_turn(table_id, version)`` to the ``bots`` queue. Sending twice is
harmless (the task is bound to the version and to an idempotent command id), which is what
lets the watchdog (``bots.watchdog``) re-send freely. Nothing here raises into the
committing caller: failures are logged, and the watchdog repairs a lost send.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from typing import Any

from bots.selectors import bot_due_version
from bots.tasks import play_bot_turn
from games.domain.streams import table_id_of_stream
from games.live.announcer import announcer

logger = logging.getLogger(__name__)

DISPATCHER = "dispatcher"


def send_bot_turn(table_id: object, version: int) -> None:
    """Queue the bot's move for ``table_id`` at ``version`` (the Celery app's router picks
    the bots queue: ``services.celery.route_task``)."""
    play_bot_turn.apply_async(args=(str(table_id), int(version)))


def on_events_committed(
    sender: object,
    stream_id: str,
    events: Sequence[Any],
    context: dict[str, Any] | None = None,
    **kwargs: Any,
) -> None:
    """Receiver of ``events_committed``: queue the bot's turn if the commit left one due."""
    if not events:
        return
    table_id = context.get("table_id") if context else None
    if table_id is None:
        table_id = table_id_of_stream(stream_id)
    if table_id is None:
        return
    if context and "bot_to_act" in context:
        bot_version = events[-1].version if context["bot_to_act"] else None
    else:
        try:
            bot_version = bot_due_version(table_id)
        except Exception:
            logger.exception("bot check after %s v%s failed", stream_id, events[-1].version)
            return
    if bot_version is not None:
        announcer(DISPATCHER, send_bot_turns).submit((table_id, bot_version))


def send_bot_turns(batch: list[tuple[str, int]], loop: asyncio.AbstractEventLoop) -> None:
    """Send the bot turns (the dispatcher thread's job); failures are logged only."""
    for table_id, bot_version in batch:
        try:
            send_bot_turn(table_id, bot_version)
        except Exception:
            logger.exception("bot dispatch for %s v%s failed", table_id, bot_version)
