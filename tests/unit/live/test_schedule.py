"""The scheduler's jobs name tasks the worker registers, on the queue the worker reads.

Routes are decided when a task is sent (``services.celery.route_task``), from the queue
prefix in force then: compare with the queue names of now, not those at import."""

from __future__ import annotations

import pytest

from services.celery import TIMERS_QUEUE, app, bots_queue, timers_queue


@pytest.mark.parametrize(
    "job", ["bot-watchdog", "turn-timers", "idle-bot-tables", "round-schedule"]
)
def test_every_beat_job_is_a_registered_task_routed_to_the_timers_queue(job: str) -> None:
    app.loader.import_default_modules()
    entry = app.conf.beat_schedule[job]
    assert entry["task"] in app.tasks
    assert entry["options"]["queue"] == TIMERS_QUEUE
    route = app.amqp.router.route({}, entry["task"])
    assert route["queue"].name == timers_queue()


def test_bot_moves_are_routed_to_the_bots_queue() -> None:
    app.loader.import_default_modules()
    assert "bots.tasks.play_bot_turn" in app.tasks
    route = app.amqp.router.route({}, "bots.tasks.play_bot_turn")
    assert route["queue"].name == bots_queue()
