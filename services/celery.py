"""Celery application ``services``: broker is REDIS_URL (see settings.CELERY_*).

Queues: ``bots`` carries bot moves (``bots.tasks.play_bot_turn``); ``timers`` carries the
scheduler's periodic jobs (bot watchdog, turn timers). ``services.worker`` consumes both.
"""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "services.settings")

BOTS_QUEUE = "bots"
TIMERS_QUEUE = "timers"

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
app.conf.beat_schedule = {
    "bot-watchdog": {
        "task": "games.live.tasks.redispatch_overdue_bots",
        "schedule": WATCHDOG_INTERVAL,
        # A job nobody picked up before the next one is worthless: drop it.
        "options": {"expires": WATCHDOG_INTERVAL},
    },
    "turn-timers": {
        "task": "games.live.tasks.expire_turn_timers",
        "schedule": TURN_TIMER_INTERVAL,
        "options": {"expires": TURN_TIMER_INTERVAL},
    },
}
app.autodiscover_tasks()
