"""The worker's multiprocess metrics folder (services.worker.use_multiprocess_metrics):
fresh per worker, named after its PID, and the folders of killed workers are removed."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from services.worker import METRICS_DIR_PREFIX, use_multiprocess_metrics


def dead_pid() -> int:
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def test_a_killed_workers_folder_goes_and_a_live_ones_stays(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    # Recorded, so the folder this sets is forgotten after the test.
    monkeypatch.setenv("PROMETHEUS_MULTIPROC_DIR", "")
    killed = tmp_path / f"{METRICS_DIR_PREFIX}{dead_pid()}-abc"
    alive = tmp_path / f"{METRICS_DIR_PREFIX}{os.getppid()}-def"
    earlier_life = tmp_path / f"{METRICS_DIR_PREFIX}{os.getpid()}-ghi"
    someone_elses = tmp_path / "spades-worker-metrics-not-ours"
    for folder in (killed, alive, earlier_life, someone_elses):
        folder.mkdir()

    folder = use_multiprocess_metrics()

    assert os.environ["PROMETHEUS_MULTIPROC_DIR"] == str(folder)
    assert folder.parent == tmp_path and folder.name.startswith(
        f"{METRICS_DIR_PREFIX}{os.getpid()}-"
    )
    assert not killed.exists() and not earlier_life.exists()
    assert alive.exists() and someone_elses.exists()


def test_the_operators_folder_is_used_and_emptied(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    (tmp_path / "counter_1.db").write_bytes(b"old")
    (tmp_path / "notes.txt").write_text("kept")
    monkeypatch.setenv("PROMETHEUS_MULTIPROC_DIR", str(tmp_path))

    assert use_multiprocess_metrics() == tmp_path
    assert [path.name for path in tmp_path.iterdir()] == ["notes.txt"]
