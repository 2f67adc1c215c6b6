"""The platform half of ``benchmarks.duplicate`` at its smallest, so it cannot rot: a
duplicate round of two all-bot tables and one board, organised over the HTTP API of a
real web process, played through a real worker and projector (the live fixtures, on the
test database), and measured.

Nothing is timed: the run waits for what it measures; the test checks that every figure
is there and consistent, not how large it is (the figures: docs/benchmarks.md)."""

from __future__ import annotations

import uuid

import pytest

from benchmarks.duplicate import parse_args
from benchmarks.duplicate_platform import RoundSpec, run_round
from tests.integration.leagues.test_end_to_end import projector
from tests.integration.live.conftest import Processes


def test_a_two_table_round_is_played_and_measured(live_db: None, processes: Processes) -> None:
    processes.worker(concurrency=2)
    projector(processes)
    _, port = processes.web()
    spec = RoundSpec(tables=2, boards=1, timeout=300, par_timeout=300)
    try:
        figures = run_round(port, spec, label=f"dup-{uuid.uuid4().hex[:8]}")
    except Exception as exc:
        raise AssertionError(f"{exc}\n{processes.logs()}") from None

    assert figures["round_minutes"] > 0
    lag = figures["traveller_lag_ms"]
    assert lag["n"] == 1 and lag["p50"] == lag["p99"]
    [played] = figures["platform_rounds"]
    legs = played["legs_ms"]
    # The traveller is shown after the round's last card, the game over and the reveal,
    # and the polls began while it was still refused.
    assert 0 <= legs["reveal_held"] <= legs["reveal_started"] <= legs["reveal_committed_by"]
    assert legs["last_refused_sent"] < legs["first_shown_sent"] <= lag["p99"]
    assert played["polls_began_before_board_complete_s"]["1"] >= 0
    assert list(played["board_complete_seconds"]) == ["1"]
    # One board: it is the round's last, so its lag is the round-level one too, and its
    # reveal came before its traveller.
    assert figures["round_traveller_lag_ms"]["p99"] == lag["p99"] == played["round_lag_ms"]
    assert 0 <= played["board_revealed_ms"]["1"] <= lag["p99"]
    assert played["pars_recorded"] == 1 and figures["par_seconds"] is not None
    assert figures["traveller_selector_ms"]["wall"] > 0
    shape = figures["platform_round"]
    assert (shape["tables"], shape["entrants"], shape["boards"], shape["rounds"]) == (2, 4, 1, 1)


def test_the_command_line_runs_either_half_alone() -> None:
    platform_only = parse_args(["--skip-core", "--platform-tables", "2", "--platform-boards", "1"])
    assert (platform_only.platform_tables, platform_only.platform_boards) == (2, 1)
    assert parse_args(["--skip-platform"]).skip_platform
    with pytest.raises(SystemExit):
        parse_args(["--skip-core", "--skip-platform"])
