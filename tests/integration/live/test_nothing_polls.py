"""Nothing polls while nobody moves (issue 21 point 2): the sockets' safety sweep costs one
query a sweep whatever the number of sockets; the scheduler's sweeps read the database
only when their due time (``games.live.due``, in Redis) has come, and commits bring that
time forward. Real PostgreSQL and Redis; Channels' communicator in-process."""

from __future__ import annotations

import asyncio
import time
import uuid
from datetime import datetime
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from django.db import transaction

from eventstore.recorder import append
from eventstore.records import NewEvent
from games.live import due
from games.live.publisher import flush_publisher
from games.live.sockets import safety_sweep
from games.live.timers import SWEEP as TURN_TIMERS
from games.live.timers import expire_turn_timers_when_due
from tests.integration.live.conftest import create_table, new_user, token_for, wait_until
from tests.integration.live.test_websocket import communicator


def test_idle_sockets_cost_one_query_a_sweep_whatever_their_number(
    live_db: Any, settings: Any
) -> None:
    settings.WS_SAFETY_SWEEP_SECONDS = 0.2
    players = [new_user("idle") for _ in range(3)]
    tables = [create_table(player, humans={"south": player}) for player in players]
    tokens = [token_for(player) for player in players]

    async def scenario() -> tuple[int, int, list[bool]]:
        sockets = [communicator(table_id) for table_id in tables]
        sockets += [communicator(t, token=token) for t, token in zip(tables, tokens, strict=True)]
        for socket in sockets:
            assert (await socket.connect())[0]
            assert (await socket.receive_json_from(5))["type"] == "state"
        sweep = safety_sweep()
        started = sweep.sweeps
        deadline = time.monotonic() + 20
        while sweep.sweeps < started + 5 and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        quiet = [await socket.receive_nothing(timeout=0.1) for socket in sockets]
        for socket in sockets:
            await socket.disconnect()
        return sweep.sweeps - started, sweep.queries, quiet

    sweeps, queries, quiet = async_to_sync(scenario)()
    assert sweeps >= 5
    # Six sockets on three tables, one kind: one query a sweep (and nothing to send).
    assert queries <= sweeps + 1
    assert all(quiet)


class Counted:
    """A fake sweep and next-due query that count their calls."""

    def __init__(self, upcoming: datetime | None) -> None:
        self.runs = 0
        self.asked = 0
        self.upcoming = upcoming

    def run(self) -> int:
        self.runs += 1
        return 0

    def next_due(self) -> datetime | None:
        self.asked += 1
        return self.upcoming


def test_a_sweep_runs_when_unknown_then_not_until_due(live_db: Any) -> None:
    name = f"test-sweep-{uuid.uuid4().hex[:8]}"
    counted = Counted(datetime.fromtimestamp(time.time() + 60).astimezone())
    due.run_when_due(name, counted.run, counted.next_due)
    assert (counted.runs, counted.asked) == (1, 1)  # unknown: it ran
    for _ in range(3):
        due.run_when_due(name, counted.run, counted.next_due)
    assert (counted.runs, counted.asked) == (1, 1)  # not due: nothing asked
    due.run_when_due(name, counted.run, counted.next_due, now=time.time() + 61)
    assert counted.runs == 2  # due
    due.forget(name)


def test_a_commit_brings_its_sweep_forward_and_a_lowering_during_a_sweep_is_kept(
    live_db: Any,
) -> None:
    name = f"test-sweep-{uuid.uuid4().hex[:8]}"
    prefix = f"test-due-{uuid.uuid4().hex[:8]}-"

    def rule(stream_id: str, events: Any, context: dict[str, Any]) -> float | None:
        return time.time() + 5 if stream_id.startswith(prefix) else None

    due.register_rule(name, rule)
    try:
        nothing = Counted(None)
        due.run_when_due(name, nothing.run, nothing.next_due)
        stored = due.next_due_at(name)
        assert stored is not None and stored > time.time() + 3600  # nothing pending
        with transaction.atomic():
            append(f"{prefix}a", 0, [NewEvent("TestHappened", {})])
        assert flush_publisher()
        wait_until(lambda: (due.next_due_at(name) or 0) < time.time() + 10, 10, "the lowering")

        # A commit while the sweep reads: its lowering survives what the sweep stores.
        def run_with_a_commit() -> int:
            with transaction.atomic():
                append(f"{prefix}b", 0, [NewEvent("TestHappened", {})])
            assert flush_publisher()
            return 0

        later = Counted(datetime.fromtimestamp(time.time() + 3600).astimezone())
        due.run_when_due(name, run_with_a_commit, later.next_due, now=time.time() + 6)
        kept = due.next_due_at(name)
        assert kept is not None and kept < time.time() + 10
    finally:
        due.forget(name)
        due._rules.pop(name, None)


def test_a_turn_timer_commit_brings_the_turn_timers_forward(live_db: Any) -> None:
    human = new_user("timer")
    due.forget(TURN_TIMERS)
    expire_turn_timers_when_due()  # unknown: it reads, and stores the next deadline
    assert due.next_due_at(TURN_TIMERS) is not None
    table_id = create_table(human, humans={"east": human}, turn_timer_seconds=30)
    assert flush_publisher()
    # North deals, east (the human) bids first: the start commit starts east's timer.
    wait_until(
        lambda: (due.next_due_at(TURN_TIMERS) or 1e12) <= time.time() + 31,
        10,
        f"the turn timers brought forward by table {table_id}",
    )


def test_a_sweep_that_failed_runs_again_at_the_next_beat(live_db: Any) -> None:
    name = f"test-sweep-{uuid.uuid4().hex[:8]}"

    def broken() -> int:
        raise RuntimeError("the database went away")

    counted = Counted(None)
    with pytest.raises(RuntimeError):
        due.run_when_due(name, broken, counted.next_due)
    assert due.next_due_at(name) is None  # unknown, not "nothing due"
    due.run_when_due(name, counted.run, counted.next_due)
    assert counted.runs == 1
    due.forget(name)
