"""Two (here three) schedulers at once: each periodic job is sent once, and when the one
holding the beat lock crashes or stops, another takes over where the schedule stood.

The jobs go to a queue of the test's own that no worker reads, so every message a
scheduler sent stays in Redis to be counted. Celery stamps each with ``expires`` = the
time it was sent + the job's interval (services/celery.py), which gives its send time.
"""

from __future__ import annotations

import signal
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime
from pathlib import Path

import orjson
import redis
from django.conf import settings

from services.testing.processes import ManagedProcess, log_contains
from tests.integration.live.conftest import wait_until

INTERVALS = {
    "games.live.tasks.expire_turn_timers": 0.5,
    "bots.watchdog.redispatch_overdue_bots": 1.0,
    "leagues.tasks.run_round_schedule": 1.0,
    "games.tasks.abandon_idle_bot_tables": 60.0,
}
LOCK_TIMEOUT = 8


def sent_times(client: redis.Redis, queue: str) -> dict[str, list[float]]:
    """Per job, the times its messages in ``queue`` were sent, in order."""
    times: dict[str, list[float]] = {task: [] for task in INTERVALS}
    for raw in client.lrange(queue, 0, -1):
        headers = orjson.loads(raw)["headers"]
        expires = datetime.fromisoformat(headers["expires"]).timestamp()
        times[headers["task"]].append(expires - INTERVALS[headers["task"]])
    return {task: sorted(values) for task, values in times.items()}


def holder(schedulers: list[ManagedProcess]) -> ManagedProcess | None:
    """The running scheduler that says it acquired the lock (at most one may)."""
    holding = [s for s in schedulers if s.alive() and "beat: Acquired lock" in s.log_text()]
    assert len(holding) <= 1, [s.name for s in holding]
    return holding[0] if holding else None


def assert_each_job_sent_once_per_interval(times: dict[str, list[float]]) -> None:
    for task, sent in times.items():
        interval = INTERVALS[task]
        gaps = [later - earlier for earlier, later in zip(sent, sent[1:], strict=False)]
        # Two schedulers both sending would put two messages of a job at about one time.
        assert all(gap >= interval / 2 for gap in gaps), (task, gaps)


def test_two_schedulers_send_each_job_once_and_a_standby_takes_over(
    live_env: dict[str, str], live_logs: Path
) -> None:
    prefix = f"failover-{uuid.uuid4().hex[:8]}-"
    log_dir = live_logs / prefix.rstrip("-")
    log_dir.mkdir()
    env = {
        **live_env,
        "SPADES_QUEUE_PREFIX": prefix,
        "SPADES_TURN_TIMER_INTERVAL": "0.5",
        "SPADES_WATCHDOG_INTERVAL": "1",
        "SPADES_ROUND_SCHEDULE_INTERVAL": "1",
        "SPADES_BEAT_LOCK_TIMEOUT": str(LOCK_TIMEOUT),
    }
    client = redis.Redis.from_url(settings.REDIS_URL)
    queue = f"{prefix}timers"
    schedulers = [
        ManagedProcess(
            f"scheduler-{n}",
            "services.scheduler",
            [],
            {**env, "SPADES_BEAT_PIDFILE": str(log_dir / f"beat-{n}.pid")},
            log_dir,
            log_contains("beat: Starting"),
        )
        for n in range(3)
    ]
    try:
        with ThreadPoolExecutor(len(schedulers)) as starting:  # they start at once
            list(starting.map(lambda scheduler: scheduler.start(timeout=90), schedulers))
        first = wait_until(lambda: holder(schedulers), 30, "a scheduler to take the lock")
        wait_until(
            lambda: len(sent_times(client, queue)["games.live.tasks.expire_turn_timers"]) >= 8,
            30,
            "four seconds of turn timers",
        )
        times = sent_times(client, queue)
        assert_each_job_sent_once_per_interval(times)
        assert all(times[task] for task in INTERVALS if INTERVALS[task] < 60), times

        # The holder crashes: its lock lapses and a standby takes over.
        crashed_at = time.time()
        first.kill()
        second = wait_until(lambda: holder(schedulers), LOCK_TIMEOUT + 20, "a standby to take over")
        assert second is not first
        wait_until(
            lambda: (
                sum(
                    t > crashed_at
                    for t in sent_times(client, queue)["games.live.tasks.expire_turn_timers"]
                )
                >= 4
            ),
            30,
            "the standby's turn timers",
        )

        # The new holder stops cleanly: it gives the lock back and the last one goes on.
        stopped_at = time.time()
        second.popen.send_signal(signal.SIGTERM)  # type: ignore[union-attr]
        second.popen.wait(30)  # type: ignore[union-attr]
        third = wait_until(lambda: holder(schedulers), 20, "the last scheduler to take over")
        assert third not in (first, second)
        wait_until(
            lambda: (
                sum(
                    t > stopped_at
                    for t in sent_times(client, queue)["games.live.tasks.expire_turn_timers"]
                )
                >= 4
            ),
            30,
            "the last scheduler's turn timers",
        )

        times = sent_times(client, queue)
        # Each job's last run is kept in Redis: no scheduler that took over sent one again
        # before its time.
        assert_each_job_sent_once_per_interval(times)
        timers = times["games.live.tasks.expire_turn_timers"]
        gaps = [later - earlier for earlier, later in zip(timers, timers[1:], strict=False)]
        # The longest silence: the crashed holder's lock lapsing, and a poll of a second.
        assert max(gaps) < LOCK_TIMEOUT + 3, max(gaps)
    finally:
        for scheduler in schedulers:
            scheduler.stop()
        client.delete(queue)
        for key in client.scan_iter(match=f"{prefix}spades-redbeat*"):
            client.delete(key)
        client.close()
