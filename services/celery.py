"""Celery application ``services``: broker is REDIS_URL (see settings.CELERY_*).

Beat runs RedBeat's scheduler (celery-redbeat): the schedule and a lock live in Redis, so
two schedulers may run and only the one holding the lock sends the jobs; the other
stands by and takes over when the lock is released (a clean stop) or lapses
(``SPADES_BEAT_LOCK_TIMEOUT`` seconds after a crash). docs/operations.md, "Scheduler".

Queues: ``bots`` carries bot moves (``bots.tasks.play_bot_turn``); ``timers`` carries the
scheduler's periodic jobs (the bot watchdog ``bots.watchdog.redispatch_overdue_bots``, the
turn timers ``games.live.tasks.expire_turn_timers``, the competitions' round schedule
``leagues.tasks.run_round_schedule``). ``services.worker`` consumes both.
"""

import logging
import os

from celery import Celery
from celery.signals import (
    after_setup_logger,
    after_setup_task_logger,
    task_postrun,
    task_prerun,
    worker_process_init,
    worker_ready,
)
from django.conf import settings

from services.heap import settle_after_startup
from telemetry.logs import JsonFormatter, begin, clear

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "services.settings")


# ``$SPADES_QUEUE_PREFIX`` namespaces the queues, so two deployments (or a test run next to
# a developer's bin/run) can share one Redis database without taking each other's tasks.
def bots_queue() -> str:
    """The queue of bot moves (read at call time: tests set the prefix late)."""
    return os.environ.get("SPADES_QUEUE_PREFIX", "") + "bots"


def timers_queue() -> str:
    """The queue of the scheduler's jobs."""
    return os.environ.get("SPADES_QUEUE_PREFIX", "") + "timers"


BOTS_QUEUE = bots_queue()
TIMERS_QUEUE = timers_queue()

# How often beat sends each job, in seconds (env overrides for tests and benchmarks).
WATCHDOG_INTERVAL = float(os.environ.get("SPADES_WATCHDOG_INTERVAL", "3"))
TURN_TIMER_INTERVAL = float(os.environ.get("SPADES_TURN_TIMER_INTERVAL", "1"))
IDLE_TABLES_INTERVAL = 60.0
ROUND_SCHEDULE_INTERVAL = float(os.environ.get("SPADES_ROUND_SCHEDULE_INTERVAL", "5"))

app = Celery("services")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.conf.include = [
    "bots.tasks",
    "bots.watchdog",
    "games.live.tasks",
    "games.tasks",
    "leagues.tasks",
    "leagues.duplicate_tasks",
]
TIMER_TASK_PREFIXES = ("bots.watchdog.", "games.live.tasks.", "games.tasks.", "leagues.tasks.")


def route_task(
    name: str, args: object, kwargs: object, options: object, **_: object
) -> dict[str, str]:
    """The queue of a task, decided when it is sent (tests set the queue prefix late), so
    the apps that send tasks (bots.dispatch) need not know the queues' names."""
    if name.startswith(TIMER_TASK_PREFIXES):
        return {"queue": timers_queue()}
    return {"queue": bots_queue()}


app.conf.task_routes = (route_task,)
app.conf.task_default_queue = BOTS_QUEUE
# Celery's Django fixup closes every database connection before and after each task
# unless this is set: a reconnect (TCP + authentication) per bot move was ~15% of a
# worker's CPU. Reuse each connection for this many tasks instead; a connection that
# failed, or that the server ended, is dropped at the next task's start
# (games.live.connections).
app.conf["CELERY_DB_REUSE_MAX"] = int(os.environ.get("SPADES_CELERY_DB_REUSE_MAX", "1000"))
app.conf.beat_schedule = {
    "bot-watchdog": {
        "task": "bots.watchdog.redispatch_overdue_bots",
        "schedule": WATCHDOG_INTERVAL,
        # A job nobody picked up before the next one is worthless: drop it.
        "options": {"expires": WATCHDOG_INTERVAL, "queue": TIMERS_QUEUE},
    },
    "turn-timers": {
        "task": "games.live.tasks.expire_turn_timers",
        "schedule": TURN_TIMER_INTERVAL,
        "options": {"expires": TURN_TIMER_INTERVAL, "queue": TIMERS_QUEUE},
    },
    # Idle all-bot tables (settings.SPADES_BOT_TABLE_IDLE_SECONDS) are abandoned.
    "idle-bot-tables": {
        "task": "games.tasks.abandon_idle_bot_tables",
        "schedule": IDLE_TABLES_INTERVAL,
        "options": {"expires": IDLE_TABLES_INTERVAL, "queue": TIMERS_QUEUE},
    },
    # Rounds open at their start times; seats still empty after the grace time are no-shows.
    "round-schedule": {
        "task": "leagues.tasks.run_round_schedule",
        "schedule": ROUND_SCHEDULE_INTERVAL,
        "options": {"expires": ROUND_SCHEDULE_INTERVAL, "queue": TIMERS_QUEUE},
    },
}
# RedBeat (see above). Beat wakes at least every second (the jobs run every 0.5 to 60 s);
# a standby asks for the lock as often. Keys under the queue prefix, as the queues.
app.conf.beat_scheduler = "redbeat.RedBeatScheduler"
app.conf.beat_max_loop_interval = 1.0
app.conf.redbeat_key_prefix = os.environ.get("SPADES_QUEUE_PREFIX", "") + "spades-redbeat"
_lock_timeout = os.environ.get("SPADES_BEAT_LOCK_TIMEOUT", "10").strip()
if not _lock_timeout.isdigit() or not 2 <= int(_lock_timeout) <= 600:
    raise SystemExit(f"SPADES_BEAT_LOCK_TIMEOUT must be 2 to 600 seconds, got {_lock_timeout!r}")
app.conf.redbeat_lock_timeout = int(_lock_timeout)
app.autodiscover_tasks()

# One bot move is one task: Celery's "Task ... received" and "... succeeded" lines at INFO
# would be two log lines per move (measured: ~4% of a worker's CPU at 50 busy tables).
# They stay at WARNING unless $SPADES_LOG_EACH_TASK=1; failures are logged either way.
PER_TASK_LOGGERS = ("celery.app.trace", "celery.worker.strategy")


@after_setup_logger.connect
def quiet_per_task_logs(logger: logging.Logger | None = None, **_: object) -> None:
    """Keep Celery's per-task INFO lines out of the log (see PER_TASK_LOGGERS); write
    Celery's lines in the platform's format (``LOG_FORMAT``)."""
    if os.environ.get("SPADES_LOG_EACH_TASK", "").strip() not in {"1", "true", "yes"}:
        for name in PER_TASK_LOGGERS:
            logging.getLogger(name).setLevel(logging.WARNING)
    use_log_format(logger)


@after_setup_task_logger.connect
def use_log_format(logger: logging.Logger | None = None, **_: object) -> None:
    """Celery sets up handlers of its own (root and task loggers): with ``LOG_FORMAT=json``
    they write the JSON lines too."""
    if logger is not None and settings.LOG_FORMAT == "json":
        for handler in logger.handlers:
            handler.setFormatter(JsonFormatter())


@task_prerun.connect
def start_task_log_context(task_id: str | None = None, **_: object) -> None:
    """A task's log lines carry its id as their request id (and what the task binds)."""
    begin(task_id)


@task_postrun.connect
def end_task_log_context(**_: object) -> None:
    clear()


@worker_ready.connect
@worker_process_init.connect
def settle_heap(**_: object) -> None:
    """Exempt what start-up loaded from full collections (services/heap.py): in the worker
    (thread pool) and in each prefork child."""
    settle_after_startup()
