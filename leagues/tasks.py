"""The leagues' scheduler job (sent by Celery beat, ``services/celery.py``, queue ``timers``)."""

from __future__ import annotations

from celery import shared_task

from games.live.connections import ensure_sound_connection
from leagues.services.schedule import run_due


@shared_task(name="leagues.tasks.run_round_schedule", ignore_result=True)
def run_round_schedule() -> int:
    """Open the rounds whose start time has come; record the no-shows past the grace time."""
    ensure_sound_connection()
    return run_due()
