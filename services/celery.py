"""Celery application ``services``: broker is REDIS_URL (see settings.CELERY_*).

Queues: ``bots`` carries bot moves (``bots.tasks.play_bot_turn``); ``timers`` carries the
scheduler's periodic jobs (bot watchdog, turn timers). ``services.worker`` consumes both.
"""

import os

from celery import Celery

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

app = Celery("services")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.conf.include = ["bots.tasks", "games.live.tasks"]
app.conf.task_routes = {
    "bots.tasks.*": {"queue": BOTS_QUEUE},
    "games.live.tasks.*": {"queue": TIMERS_QUEUE},
}
app.conf.task_default_queue = BOTS_QUEUE
# Celery's Django fixup closes every database connection before and after each task
# unless this is set: a reconnect (TCP + authentication) per bot move was ~15% of a
# worker's CPU. Reuse each connection for this many tasks instead; a connection that
# failed is dropped at the next task's start (bots.tasks).
app.conf["CELERY_DB_REUSE_MAX"] = int(os.environ.get("SPADES_CELERY_DB_REUSE_MAX", "1000"))
app.conf.beat_schedule = {
    "bot-watchdog": {
        "task": "games.live.tasks.redispatch_overdue_bots",
        "schedule": WATCHDOG_INTERVAL,
        # A job nobody picked up before the next one is worthless: drop it.
        "options": {"expires": WATCHDOG_INTERVAL, "queue": TIMERS_QUEUE},
    },
    "turn-timers": {
        "task": "games.live.tasks.expire_turn_timers",
        "schedule": TURN_TIMER_INTERVAL,
        "options": {"expires": TURN_TIMER_INTERVAL, "queue": TIMERS_QUEUE},
    },
}
app.autodiscover_tasks()
