"""The capacity benchmark's load generator against its anchor, the bare relay
(``benchmarks.relay`` served by daphne on the platform's channel layer): every move is
answered and reaches every socket of the table once, in order, with the asked sizes.

Nothing is timed: the test waits for the moves it asserts, then checks the accounting."""

from __future__ import annotations

import asyncio
import time
import uuid
from pathlib import Path

from django.conf import settings

from benchmarks.deliveries import account
from benchmarks.loadgen import Load, RelayTable, StepFigures
from services.testing.processes import ManagedProcess, free_port, listening

MESSAGE_BYTES = 600
RESPONSE_BYTES = 300
MOVES = 12


async def play(port: int) -> tuple[Load, RelayTable, StepFigures]:
    load = Load(think_seconds=0.02, seed=3)
    table = RelayTable(load, f"test-{uuid.uuid4().hex}", port, MESSAGE_BYTES, RESPONSE_BYTES)
    await load.add([table])
    start = load.window()
    deadline = time.monotonic() + 60
    while not all((log.version or 0) >= MOVES for log in table.logs):
        assert time.monotonic() < deadline, f"moves stalled: {[log.version for log in table.logs]}"
        assert not load.errors, load.errors
        await asyncio.sleep(0.01)
    await load.quiesce()
    end = load.window()
    figures = load.figures(start, end, tables=1)
    await load.close()
    return load, table, figures


def test_relay_moves_reach_every_socket_once_in_order(tmp_path: Path) -> None:
    port = free_port()
    env = {
        "REDIS_URL": settings.REDIS_URL,
        "SPADES_BIND": "127.0.0.1",
        "SPADES_HTTP_PORT": str(port),
        "DEBUG": "0",
        "LOG_LEVEL": "WARNING",
    }
    relay = ManagedProcess("relay", "benchmarks.relay", [], env, tmp_path, listening(port))
    relay.start(timeout=60)
    try:
        load, table, figures = asyncio.run(play(port))
    finally:
        relay.stop()
    outcome = figures.outcome
    assert load.errors == []
    assert (outcome.errors, outcome.undelivered, outcome.duplicated) == (0, 0, 0)
    assert outcome.sequence_breaks == 0
    assert len(outcome.latencies_ms) >= MOVES - 1
    top = max(log.version or 0 for log in table.logs)
    for log in table.logs:
        assert log.start == 0
        assert log.events == list(range(1, top + 1))
        counted = account(range(1, top + 1), log.events)
        assert (counted.lost, counted.duplicated) == (0, 0)
    # Every answer and every fanned-out message has the asked size.
    assert load.response_bytes == RESPONSE_BYTES * load.responses
    state_bytes = len('{"type": "state", "version": 0}')
    assert load.message_bytes == 6 * state_bytes + MESSAGE_BYTES * (load.messages - 6)
