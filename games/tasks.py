"""The games app's scheduler jobs (sent by Celery beat, ``services/celery.py``)."""

from __future__ import annotations

from celery import shared_task

from games.services.idle_tables import abandon_idle_bot_tables


@shared_task(name="games.tasks.abandon_idle_bot_tables", ignore_result=True)
def abandon_idle_tables() -> int:
    """Abandon all-bot tables nobody has acted at for ``SPADES_BOT_TABLE_IDLE_SECONDS``."""
    return abandon_idle_bot_tables()
