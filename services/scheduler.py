"""Process ``scheduler``: Celery beat sending the periodic jobs (bot watchdog, turn timers,
idle bot tables, the competitions' round schedule).

``python -m services.scheduler [celery beat options]``. The schedule itself is
``services.celery.app.conf.beat_schedule``, run by RedBeat's scheduler: the schedule's
state and a lock live in Redis, so two (or more) schedulers may run, on one host or
several; the one holding the lock sends every job once, the others stand by and the first
to get the lock after it is released (clean stop) or lapses (``SPADES_BEAT_LOCK_TIMEOUT``
after a crash) takes over where the schedule stood (docs/operations.md, "Scheduler").
Beat's pidfile goes to ``$SPADES_BEAT_PIDFILE`` (default ``.run/celerybeat.pid``; give a
second scheduler on the same host its own). ``python -m services.scheduler --check-alive``
is the container health check. Its metrics (``spades_beat_active``, ``spades_beat_sent``)
are served on ``SPADES_SCHEDULER_METRICS_PORT`` (``services.process_metrics``).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import django
from django.conf import settings

from services.celery import app
from services.process_metrics import watch_scheduler
from telemetry.logs import set_process_name

BASE_DIR = Path(__file__).resolve().parent.parent


def pidfile_path() -> Path:
    """Beat's pidfile (``$SPADES_BEAT_PIDFILE``, default ``.run/celerybeat.pid``)."""
    return Path(os.environ.get("SPADES_BEAT_PIDFILE", str(BASE_DIR / ".run" / "celerybeat.pid")))


def beat_is_alive() -> bool:
    """Health check: the process named in the pidfile exists."""
    try:
        pid = int(pidfile_path().read_text().strip())
        os.kill(pid, 0)
    except (OSError, ValueError):
        return False
    return True


def beat_arguments(extra: list[str]) -> list[str]:
    """The ``celery beat`` command line for this process (``--quiet`` with JSON logs: its
    banner is no log record)."""
    pidfile_path().parent.mkdir(parents=True, exist_ok=True)
    return [
        *(["--quiet"] if settings.LOG_FORMAT == "json" else []),
        "beat",
        "--pidfile",
        str(pidfile_path()),
        "--loglevel",
        os.environ.get("LOG_LEVEL", "INFO"),
        *extra,
    ]


def main(argv: list[str] | None = None) -> None:
    """Run Celery beat until SIGINT/SIGTERM (``--check-alive``: health check, exit 0/1)."""
    args = sys.argv[1:] if argv is None else argv
    if args == ["--check-alive"]:
        raise SystemExit(0 if beat_is_alive() else 1)
    set_process_name("scheduler")
    # Django's logging (LOG_FORMAT) and its capture of warnings, before beat writes a line.
    django.setup()
    # The schedule and its lock live in the broker's Redis (named here: RedBeat warns when
    # it has to fall back to the broker's URL by itself).
    app.conf.redbeat_redis_url = settings.CELERY_BROKER_URL
    watch_scheduler()
    app.start(beat_arguments(args))


if __name__ == "__main__":
    main()
