"""The capacity benchmark's pure pieces: percentiles, the ramp's verdicts and counts, the
deliveries' accounting, the load generator's step figures and HTTP parsing.

Nothing here is timed: the figures are computed from receipts the tests write."""

from __future__ import annotations

import asyncio

import pytest
from hypothesis import given
from hypothesis import strategies as st

from benchmarks.capacity import accounted_until
from benchmarks.deliveries import SocketLog, account, fanout_latency
from benchmarks.loadgen import HttpError, Load, Move, Table, Watcher, parse_head
from benchmarks.percentiles import nearest_rank, percentiles
from benchmarks.ramp import Ramp, StepOutcome, between, failure, grown

# ---------------------------------------------------------------- percentiles


def test_nearest_rank_percentiles_of_one_to_a_hundred() -> None:
    values = [float(v) for v in range(100, 0, -1)]
    assert percentiles(values) == {"p50": 50.0, "p95": 95.0, "p99": 99.0, "n": 100}
    assert nearest_rank(sorted(values), 100) == 100.0
    assert nearest_rank(sorted(values), 0) == 1.0


def test_percentiles_of_nothing_and_of_one_sample() -> None:
    assert percentiles([]) == {"p50": None, "p95": None, "p99": None, "n": 0}
    assert percentiles([7.25]) == {"p50": 7.2, "p95": 7.2, "p99": 7.2, "n": 1}
    with pytest.raises(ValueError):
        nearest_rank([], 50)


def test_one_slow_move_in_a_hundred_is_the_p99_but_one_in_two_hundred_is_not() -> None:
    fast = [10.0] * 99
    assert StepOutcome(1, (*fast, 500.0)).p99_ms == 10.0
    assert StepOutcome(1, (*fast, 500.0, 500.0)).p99_ms == 500.0
    assert StepOutcome(1, (*fast * 2, 500.0, 600.0)).p99_ms == 10.0


# ---------------------------------------------------------------- the verdict


def test_a_step_holds_only_when_fast_and_clean() -> None:
    fast = (20.0, 30.0, 99.0)
    assert failure(StepOutcome(10, fast)) is None
    assert failure(StepOutcome(10, (*fast, 100.0))) is None
    assert failure(StepOutcome(10, (100.1,))) == "p99 100.1 ms > 100 ms"
    assert failure(StepOutcome(10, ())) == "no move measured"
    assert failure(StepOutcome(10, fast, errors=1)) == "1 error(s)"
    assert failure(StepOutcome(10, fast, undelivered=2)) is not None
    assert failure(StepOutcome(10, fast, duplicated=1)) is not None
    assert failure(StepOutcome(10, fast, sequence_breaks=1)) is not None
    assert failure(StepOutcome(10, (150.0,)), limit_ms=200) is None


# ---------------------------------------------------------------- the counts


def test_the_ramp_grows_geometrically_and_stops_at_the_first_failure() -> None:
    ramp = Ramp(start=25, factor=1.5, ceiling=2000)
    tried = [ramp.first]
    while (next_count := ramp.after(tried[-1], held=tried[-1] <= 100)) is not None:
        tried.append(next_count)
    assert tried == [25, 38, 57, 86, 129]
    assert ramp.largest_held == 86
    assert ramp.smallest_failed == 129


def test_refinements_bisect_between_the_last_hold_and_the_first_failure() -> None:
    ramp = Ramp(start=25, factor=2, ceiling=2000, refinements=3)
    tried = [ramp.first]
    while (next_count := ramp.after(tried[-1], held=tried[-1] <= 150)) is not None:
        tried.append(next_count)
    assert tried[:4] == [25, 50, 100, 200]
    assert tried[4:] == [141, 168, 154]
    assert ramp.largest_held == 141
    assert ramp.smallest_failed == 154


def test_the_ramp_stops_at_its_ceiling_and_steps_down_when_the_first_step_fails() -> None:
    ramp = Ramp(start=4, factor=2, ceiling=10)
    assert ramp.after(4, held=True) == 8
    assert ramp.after(8, held=True) == 10
    assert ramp.after(10, held=True) is None
    assert ramp.largest_held == 10
    failing = Ramp(start=25, factor=1.5, ceiling=100, refinements=1)
    assert failing.after(25, held=False) == 16
    assert failing.after(16, held=False) == 10
    assert failing.after(10, held=True) == 13  # then the refinement between 10 and 16
    assert failing.after(13, held=False) is None
    assert (failing.largest_held, failing.smallest_failed) == (10, 13)
    assert Ramp(start=2, factor=3, ceiling=10).after(2, held=False) == 1  # never below 1
    nothing = Ramp(start=2, factor=2, ceiling=10)
    assert nothing.after(2, held=False) == 1
    assert nothing.after(1, held=False) is None
    assert nothing.largest_held == 0


def test_ramp_arguments_are_checked() -> None:
    with pytest.raises(ValueError):
        Ramp(start=0, factor=2, ceiling=10)
    with pytest.raises(ValueError):
        Ramp(start=20, factor=2, ceiling=10)
    with pytest.raises(ValueError):
        Ramp(start=1, factor=1, ceiling=10)
    with pytest.raises(ValueError):
        Ramp(start=1, factor=2, ceiling=10, refinements=-1)


def test_grown_and_between() -> None:
    assert grown(1, 1.01) == 2
    assert grown(100, 1.5) == 150
    assert between(10, 11) is None
    assert between(10, 12) == 11
    assert between(100, 400) == 200
    assert between(0, 9) == 4


@given(
    capacity=st.integers(0, 5000),
    start=st.integers(1, 200),
    factor=st.floats(1.05, 4.0),
    refinements=st.integers(0, 5),
)
def test_the_ramp_never_reports_a_count_above_what_holds(
    capacity: int, start: int, factor: float, refinements: int
) -> None:
    """With a box that holds every count up to ``capacity`` and none above, the ramp
    reports a count that held, never one above the capacity, and tries finitely many."""
    ceiling = 4000
    ramp = Ramp(start, factor, max(start, ceiling), refinements)
    tables: int | None = ramp.first
    tried = 0
    while tables is not None:
        tried += 1
        assert tried < 200
        tables = ramp.after(tables, held=tables <= capacity)
    assert ramp.largest_held <= capacity
    if capacity >= start:
        assert ramp.largest_held >= start
        assert ramp.largest_held >= min(capacity, max(start, ceiling)) / factor
    elif capacity == 0:
        assert ramp.largest_held == 0
    else:  # the first step failed: the ramp stepped down until a count held
        assert ramp.largest_held >= 1
        assert ramp.largest_held >= capacity / factor - 1


# ---------------------------------------------------------------- deliveries


def test_a_socket_reaches_a_version_at_the_first_message_that_brings_it_there() -> None:
    log = SocketLog()
    log.record(None, 10, (), at=1.0)
    log.record(10, 12, [11, 12], at=2.0)
    log.record(12, 15, [14, 15], at=3.0)
    assert log.start == 10
    assert log.version == 15
    assert log.reached(9) == 1.0
    assert log.reached(11) == 2.0
    assert log.reached(13) == 3.0
    assert log.reached(16) is None
    assert (log.sequence_breaks, log.duplicated) == (0, 0)


def test_sequence_breaks_and_duplicates_are_counted() -> None:
    log = SocketLog()
    log.record(None, 3, (), at=1.0)
    log.record(4, 6, [5, 6], at=2.0)  # after 4, but the last message brought it to 3
    log.record(5, 6, [6], at=3.0)  # a stale message: 6 again
    assert log.sequence_breaks == 2
    assert log.duplicated == 1
    assert log.reached(6) == 2.0


def test_a_moves_latency_is_to_the_last_of_its_tables_sockets() -> None:
    early, late, behind = SocketLog(), SocketLog(), SocketLog()
    early.record(None, 4, (), at=0.0)
    early.record(4, 5, [5], at=10.010)
    late.record(None, 4, (), at=0.0)
    late.record(4, 5, [5], at=10.050)
    behind.record(None, 4, (), at=0.0)
    assert fanout_latency(10.0, 5, [early, late]) == pytest.approx(0.050)
    assert fanout_latency(10.0, 5, [early, late, behind]) is None
    behind.record(4, 7, [5, 6, 7], at=10.200)  # a later message brings it past 5
    assert fanout_latency(10.0, 5, [early, late, behind]) == pytest.approx(0.200)


def test_accounting_counts_lost_and_duplicated_events() -> None:
    assert account([1, 2, 3], [1, 2, 3]) == account([], [])
    counted = account([1, 2, 3, 4], [1, 3, 3, 3, 5])
    assert (counted.lost, counted.duplicated) == (2, 2)


# ---------------------------------------------------------------- a step's figures


def table_with_logs(load: Load, sockets: int) -> Table:
    table = Table(load, "t", 1)
    table.watchers = [Watcher(table, "ws://unused", None) for _ in range(sockets)]
    for watcher in table.watchers:
        watcher.log.record(None, 0, (), at=0.0)
    return table


def test_a_steps_figures_count_only_its_window() -> None:
    load = Load(think_seconds=2.0, seed=1)
    table = table_with_logs(load, 2)
    load.tables.append(table)
    first, second = table.watchers[0].log, table.watchers[1].log
    # Before the window: a move fully delivered, and a duplicate.
    load.moves.append(Move(table, 1.0, version=1, answered_at=1.05))
    first.record(0, 1, [1], at=1.02)
    second.record(0, 1, [1], at=1.03)
    second.record(1, 1, [1], at=1.04)
    start = load.window()
    # In the window: one move delivered to both (30 ms), one only to the first socket,
    # one refused (an error), one never answered.
    load.moves.append(Move(table, 5.0, version=2, answered_at=5.02))
    first.record(1, 2, [2], at=5.01)
    second.record(1, 2, [2], at=5.03)
    load.moves.append(Move(table, 7.0, version=3, answered_at=7.02))
    first.record(2, 3, [3], at=7.01)
    load.moves.append(Move(table, 8.0, failed=True))
    load.error("POST /api/tables/t/play: 409")
    load.moves.append(Move(table, 9.0))
    end = load.window()
    figures = load.figures(start, end, tables=1)
    outcome = figures.outcome
    assert outcome.latencies_ms == pytest.approx((30.0,))
    assert outcome.undelivered == 1
    assert outcome.duplicated == 0  # the duplicate came before the window
    assert outcome.errors == 2  # the refusal and the unanswered move
    assert figures.moves == 4
    assert figures.unanswered == 1
    assert failure(outcome) is not None


def test_a_parked_tables_undelivered_moves_are_not_counted() -> None:
    load = Load(think_seconds=2.0, seed=1)
    table = table_with_logs(load, 1)
    load.tables.append(table)
    start = load.window()
    load.moves.append(Move(table, 5.0, version=4, answered_at=5.01))
    table.parked = True
    figures = load.figures(start, load.window(), tables=0)
    assert figures.outcome.undelivered == 0


# ---------------------------------------------------------------- parking a table


class OpenWatcher(Watcher):
    """A watcher whose socket stays open until closed (no network: the test writes its
    receipts)."""

    def __init__(self, table: Table) -> None:
        super().__init__(table, "ws://unused", None)
        self.stopped = asyncio.Event()
        self.task = asyncio.ensure_future(self.stopped.wait())  # type: ignore[arg-type]

    def receive(self, after: int, version: int, events: list[int]) -> None:
        self.log.record(after, version, events, at=1.0)
        self.table.progressed()

    async def close(self) -> None:
        self.stopped.set()
        await super().close()


def open_table(load: Load, sockets: int) -> tuple[Table, list[OpenWatcher]]:
    table = Table(load, "t", 1)
    watchers = [OpenWatcher(table) for _ in range(sockets)]
    table.watchers = list(watchers)
    for watcher in watchers:
        watcher.log.record(None, 3, (), at=0.0)
    load.tables.append(table)
    return table, watchers


async def yield_to_the_loop() -> None:
    """Let the parking task run up to its next wait (no time passes)."""
    for _ in range(5):
        await asyncio.sleep(0)


def test_parking_waits_for_the_move_in_flight_and_every_socket_before_closing() -> None:
    async def scenario() -> tuple[Table, list[OpenWatcher]]:
        load = Load(think_seconds=2.0, seed=1)
        table, watchers = open_table(load, 3)
        table.inflight = 1  # a move sent before parking, not yet answered
        parking = asyncio.ensure_future(table.park(settle_seconds=600))
        await yield_to_the_loop()
        assert not any(watcher.stopped.is_set() for watcher in watchers)
        # Its commit reaches two sockets, then the answer comes...
        watchers[0].receive(3, 5, [4, 5])
        watchers[1].receive(3, 5, [4, 5])
        table.committed, table.inflight = 5, 0
        table.progressed()
        await yield_to_the_loop()
        # ... and the third socket is still waited for.
        assert not any(watcher.stopped.is_set() for watcher in watchers)
        watchers[2].receive(3, 5, [4, 5])
        await parking
        assert load.errors == []
        return table, watchers

    table, watchers = asyncio.run(scenario())
    assert table.final_version == 5
    assert [watcher.closed_at_version for watcher in watchers] == [5, 5, 5]
    assert accounted_until(table) == 5
    for watcher in watchers:
        assert account([4, 5], watcher.log.events).lost == 0


def test_a_socket_short_of_the_last_version_when_parked_is_an_error_and_counted_lost() -> None:
    async def scenario() -> tuple[Load, Table, list[OpenWatcher]]:
        load = Load(think_seconds=2.0, seed=1)
        table, watchers = open_table(load, 2)
        table.committed = 4  # answered, but one socket never got it
        watchers[0].receive(3, 4, [4])
        await table.park(settle_seconds=0)
        return load, table, watchers

    load, table, watchers = asyncio.run(scenario())
    assert [text for _, text in load.errors] == [
        "table t: 1 socket(s) short of version 4 when parked"
    ]
    assert accounted_until(table) == 4
    assert account([4], watchers[1].log.events).lost == 1


def test_a_commit_after_parking_is_not_expected_of_any_socket() -> None:
    # A socket that happened to receive a later commit (say a turn timer's) before the
    # sockets closed does not make the others owe it.
    load = Load(think_seconds=2.0, seed=1)
    table = table_with_logs(load, 2)
    table.watchers[0].log.record(0, 6, [5, 6], at=1.0)
    table.watchers[1].log.record(0, 5, [5], at=1.0)
    assert accounted_until(table) is None  # still playing: the whole stream
    table.parked, table.final_version = True, 5
    assert accounted_until(table) == 5


def test_think_times_are_drawn_around_the_given_time() -> None:
    load = Load(think_seconds=2.0, seed=7)
    draws = [load.think_time() for _ in range(2000)]
    assert min(draws) >= 1.0
    assert max(draws) <= 3.0
    assert 1.9 < sum(draws) / len(draws) < 2.1


# ---------------------------------------------------------------- HTTP


def test_a_response_head_is_parsed() -> None:
    head = b"HTTP/1.1 409 Conflict\r\nContent-Length: 12\r\nConnection: Keep-Alive\r\n\r\n"
    status, headers = parse_head(head)
    assert status == 409
    assert headers == {"content-length": "12", "connection": "Keep-Alive"}
    with pytest.raises(HttpError):
        parse_head(b"SSH-2.0-OpenSSH\r\n\r\n")
