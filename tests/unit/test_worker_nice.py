"""``$SPADES_WORKER_NICE`` is validated before the worker starts (a clear exit, no start)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from services.worker import DEFAULT_NICE, lower_priority


@pytest.mark.parametrize("raw", ["-1", "20", "ten", "1.5"])
def test_a_bad_nice_value_stops_the_worker(monkeypatch: pytest.MonkeyPatch, raw: str) -> None:
    monkeypatch.setenv("SPADES_WORKER_NICE", raw)
    with pytest.raises(SystemExit, match="SPADES_WORKER_NICE must be an integer 0-19"):
        lower_priority()


def test_zero_leaves_the_priority_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SPADES_WORKER_NICE", "0")
    before = os.getpriority(os.PRIO_PROCESS, 0)
    lower_priority()
    assert os.getpriority(os.PRIO_PROCESS, 0) == before


def test_by_default_the_worker_yields_the_cpu_to_the_web() -> None:

    script = (
        "import os; from services.worker import lower_priority; "
        "before = os.getpriority(os.PRIO_PROCESS, 0); lower_priority(); "
        "print(os.getpriority(os.PRIO_PROCESS, 0) - before)"
    )
    env = {k: v for k, v in os.environ.items() if k != "SPADES_WORKER_NICE"}
    raised = subprocess.run(
        [sys.executable, "-c", script], env=env, capture_output=True, text=True, check=True
    )
    before = os.getpriority(os.PRIO_PROCESS, 0)
    assert int(raised.stdout) == min(DEFAULT_NICE, 19 - before) > 0
