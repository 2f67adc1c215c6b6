"""Process ``scheduler``: Celery beat sending the bot watchdog and turn-timer jobs.

``python -m services.scheduler [celery beat options]``. The schedule itself is
``services.celery.app.conf.beat_schedule``; beat's state file goes to
``$SPADES_BEAT_SCHEDULE`` (default ``.run/celerybeat-schedule``), its pidfile to
``$SPADES_BEAT_PIDFILE`` (default ``.run/celerybeat.pid``). Run exactly one.
``python -m services.scheduler --check-alive`` is the container health check.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from services.celery import app

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
    """The ``celery beat`` command line for this process."""
    schedule = Path(
        os.environ.get("SPADES_BEAT_SCHEDULE", str(BASE_DIR / ".run" / "celerybeat-schedule"))
    )
    schedule.parent.mkdir(parents=True, exist_ok=True)
    pidfile_path().parent.mkdir(parents=True, exist_ok=True)
    return [
        "beat",
        "--schedule",
        str(schedule),
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
    app.start(beat_arguments(args))


if __name__ == "__main__":
    main()
