"""The leagues' scheduler job (sent by Celery beat, ``services/celery.py``, queue ``timers``).

It reads the competitions only when the earliest ``due_at`` has come (``games.live.due``);
any commit of a competition's stream may have changed its ``due_at``, so it brings the
sweep forward to at once (:func:`competition_commit_rule`).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

from celery import shared_task

from games.live.connections import ensure_sound_connection
from games.live.due import run_when_due
from leagues.domain.events import COMPETITION_STREAM_PREFIX
from leagues.services.schedule import next_due_at, run_due

#: The sweep's name in ``games.live.due``.
SWEEP = "round-schedule"


@shared_task(name="leagues.tasks.run_round_schedule", ignore_result=True)
def run_round_schedule() -> int:
    """Open the rounds whose start time has come; record the no-shows past the grace time."""
    ensure_sound_connection()
    return run_when_due(SWEEP, run_due, next_due_at)


def competition_commit_rule(
    stream_id: str, events: Sequence[Any], context: dict[str, Any]
) -> float | None:
    """A competition's commit may have moved its ``due_at`` (written with its events): the
    sweep looks again at once."""
    return time.time() if stream_id.startswith(COMPETITION_STREAM_PREFIX) else None
