"""The leagues' scheduler job (sent by Celery beat, ``services/celery.py``, queue ``timers``).

It reads the competitions only when the earliest ``due_at`` has come (``games.live.due``);
any commit of a competition's stream may have changed its ``due_at``, so it brings the
sweep forward to at once (:func:`competition_commit_rule`). The duplicate rounds' repair
sweep (``leagues.services.duplicate_repair``) rides on it: its due times are folded into
the sweep's (:func:`next_sweep_at`), and the commits that set one (``BoardsCommitted``,
``BoardsRevealed``) are competition commits, so the sweep looks again at once and stores
the new earliest time.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from celery import shared_task
from django.utils import timezone

from games.live.connections import ensure_sound_connection
from games.live.due import run_when_due
from leagues.domain.events import COMPETITION_STREAM_PREFIX
from leagues.duplicate_tasks import resend_par
from leagues.services.duplicate import reveal_table
from leagues.services.duplicate_repair import next_repair_at, run_repairs
from leagues.services.schedule import next_due_at, run_due

#: The sweep's name in ``games.live.due``.
SWEEP = "round-schedule"


@shared_task(name="leagues.tasks.run_round_schedule", ignore_result=True)
def run_round_schedule() -> int:
    """Open the rounds whose start time has come; record the no-shows past the grace time;
    send again a duplicate round's par or reveal that was lost (``duplicate_repair``)."""
    ensure_sound_connection()
    return run_when_due(SWEEP, sweep, next_sweep_at)


def sweep(now: datetime | None = None) -> int:
    """The round schedule's sweep and the duplicate repair sweep, one after the other."""
    moment = now or timezone.now()
    return run_due(moment) + run_repairs(resend_par, reveal_table, moment)


def next_sweep_at() -> datetime | None:
    """The earlier of the two sweeps' next due times (None: nothing pending)."""
    times = [at for at in (next_due_at(), next_repair_at()) if at is not None]
    return min(times, default=None)


def competition_commit_rule(
    stream_id: str, events: Sequence[Any], context: dict[str, Any]
) -> float | None:
    """A competition's commit may have moved its ``due_at`` (written with its events): the
    sweep looks again at once."""
    return time.time() if stream_id.startswith(COMPETITION_STREAM_PREFIX) else None
