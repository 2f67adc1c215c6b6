"""``bin/run`` (the README's run command) starts web, worker, projector and scheduler with
prefixed logs, serves the API, and Ctrl-C stops every one of them."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import urllib.request
import uuid
from pathlib import Path
from typing import Any

import psycopg
from psycopg import sql

from services.testing.processes import free_port
from tests.integration.live.conftest import wait_until

ROOT = Path(__file__).resolve().parents[3]
PROCESSES = ("web", "worker", "projector", "scheduler")


def pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def started_pids(output: str) -> dict[str, int]:
    """``{name: pid}`` from honcho's ``web.1 started (pid=123)`` lines."""
    return {
        match.group(1): int(match.group(2))
        for match in re.finditer(r"(\w+)\.1 started \(pid=(\d+)\)", output)
    }


def health(port: int) -> bool:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/health", timeout=2) as response:
            return response.status == 200
    except OSError:
        return False


def test_bin_run_starts_every_process_and_ctrl_c_stops_them_all(
    live_db: Any, tmp_path: Path
) -> None:
    from django.db import connection

    port = free_port()
    database = f"spades_runtest_{uuid.uuid4().hex[:8]}"
    log_path = tmp_path / "bin-run.log"
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in {"DATABASE_URL", "DATABASE_OWNER_URL", "SPADES_DB_ROLE"}
    }
    env.update(
        {
            "SPADES_DB_NAME": database,
            "SPADES_HTTP_PORT": str(port),
            "SPADES_BEAT_PIDFILE": str(tmp_path / "beat.pid"),
            "SPADES_PROJECTOR_HEARTBEAT": str(tmp_path / "projector.heartbeat"),
        }
    )
    pids: dict[str, int] = {}
    with log_path.open("wb") as log:
        run = subprocess.Popen(
            [str(ROOT / "bin" / "run")],
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            start_new_session=True,  # its own process group: a terminal's Ctrl-C target
        )
    try:
        wait_until(lambda: health(port) or run.poll() is not None, 120, "bin/run to serve")
        assert run.poll() is None, log_path.read_text()

        def all_started() -> str | None:
            text = log_path.read_text()
            return text if all(f"{name}.1 started (pid=" in text for name in PROCESSES) else None

        output = wait_until(all_started, 30, "all four processes to start")
        pids.update(started_pids(output))
        assert set(pids) == set(PROCESSES)
        wait_until(lambda: (tmp_path / "projector.heartbeat").exists(), 30, "a projector round")
        # Each process's own lines carry its name (honcho's prefix).
        for name in PROCESSES:
            wait_until(
                lambda name=name: re.search(rf"^\S* ?{name}\.1\s+\|", log_path.read_text(), re.M),
                60,
                f"a line from {name}",
            )

        os.killpg(run.pid, signal.SIGINT)  # what Ctrl-C in a terminal does
        run.wait(60)
        assert run.returncode != 0  # interrupted
        for name, pid in pids.items():
            wait_until(lambda pid=pid: not pid_alive(pid), 15, f"{name} (pid {pid}) to stop")
        assert not health(port)
    finally:
        if run.poll() is None:
            os.killpg(run.pid, signal.SIGKILL)
        # honcho starts each process in a session of its own: stop any left over, by PID.
        pids.update(started_pids(log_path.read_text()))
        for pid in pids.values():
            if pid_alive(pid):
                os.killpg(pid, signal.SIGKILL)
        settings = connection.settings_dict
        admin = psycopg.connect(
            host=settings["HOST"] or "127.0.0.1",
            port=settings["PORT"] or 5432,
            user=settings["USER"],
            password=settings["PASSWORD"],
            dbname="postgres",
            autocommit=True,
        )
        with admin:
            admin.execute(
                sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(database))
            )
