"""The round schedule: the scheduler's sweep over competitions with something due.

``run_due(now)`` (the Celery beat job ``leagues.tasks.run_round_schedule``, queue
``timers``, every ``SPADES_ROUND_SCHEDULE_INTERVAL`` seconds) looks at every competition
whose ``due_at`` (written with its events: :func:`leagues.domain.schedule.next_due`) has
come: it opens the round whose start time has come (``services.tables.start_round`` with
``by_schedule``; an organiser may still start it earlier) and records the no-shows of
rounds whose grace time is over (``services.presence``). Everything it does is idempotent
by command id, so a retried job, or two workers at once, do it once.
"""

from __future__ import annotations

import logging
from datetime import datetime

from django.db.models import Min
from django.utils import timezone

from leagues.core.errors import LeagueError
from leagues.domain import schedule
from leagues.models import Competition

from .presence import resolve_no_shows
from .streams import load
from .tables import start_round

logger = logging.getLogger(__name__)

MAX_PER_SWEEP = 200  # the rest wait for the next sweep (the oldest due first)


def run_competition(competition_id: str, now: datetime) -> int:
    """Open the competition's due round and record its no-shows; how many things done."""
    done = 0
    number = schedule.due_to_open(load(competition_id), now)
    if number is not None:
        try:
            start_round(None, competition_id, number, now=now, by_schedule=True)
            done += 1
        except LeagueError as error:
            if error.code != "round_started":  # an organiser (or another worker) was first
                raise
    return done + resolve_no_shows(competition_id, now=now)


def run_due(now: datetime | None = None) -> int:
    """One sweep at ``now`` (default: the clock); returns how many things it did."""
    moment = now or timezone.now()
    due = Competition.objects.filter(due_at__lte=moment).order_by("due_at")
    done = 0
    for competition_id in due.values_list("id", flat=True)[:MAX_PER_SWEEP]:
        try:
            done += run_competition(str(competition_id), moment)
        except Exception:
            # One competition's trouble (a player who left the platform) must not stop
            # the others; it stays due and is tried again next sweep.
            logger.exception("round schedule of competition %s failed", competition_id)
    return done


def next_due_at() -> datetime | None:
    """The earliest ``due_at`` of any competition (the sweep's next due time), or None."""
    return Competition.objects.aggregate(earliest=Min("due_at"))["earliest"]
