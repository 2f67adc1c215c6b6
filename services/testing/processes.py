"""Start and stop the platform's processes from Python (live tests and benchmarks/live.py).

Each process is ``python -m services.<name>`` in its own session (so a crash test can kill
its whole process group), with its output in a log file, and is stopped by its own PID,
never by name. ``database_env`` points a child at a given database (e.g. the test
database) as its owner, so children and the parent see the same rows.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any
from urllib.parse import quote

ROOT = Path(__file__).resolve().parents[2]


class ProcessFailed(RuntimeError):
    """A managed process exited or did not become ready; the message ends with its log."""


PSYCOPG_ONLY_OPTIONS = frozenset({"prepare_threshold", "server_side_binding", "pool"})


def database_url(settings_dict: Mapping[str, Any]) -> str:
    """A ``postgresql://`` URL for a Django ``DATABASES`` entry (as its configured user)."""
    user = quote(str(settings_dict.get("USER") or ""), safe="")
    password = quote(str(settings_dict.get("PASSWORD") or ""), safe="")
    host = settings_dict.get("HOST") or "127.0.0.1"
    port = settings_dict.get("PORT") or "5432"
    credentials = f"{user}:{password}@" if password else (f"{user}@" if user else "")
    url = f"postgresql://{credentials}{host}:{port}/{quote(str(settings_dict['NAME']), safe='')}"
    # Only libpq's connection parameters: the child derives psycopg's own options (such as
    # prepare_threshold) from its settings, as this process did.
    options = {
        key: value
        for key, value in (settings_dict.get("OPTIONS") or {}).items()
        if key not in PSYCOPG_ONLY_OPTIONS
    }
    if options:
        url += "?" + "&".join(
            f"{key}={quote(str(value), safe='')}" for key, value in options.items()
        )
    return url


def database_env(settings_dict: Mapping[str, Any], redis_url: str) -> dict[str, str]:
    """Environment making a child process use this database (as owner) and this Redis."""
    url = database_url(settings_dict)
    return {
        "DATABASE_URL": url,
        "DATABASE_OWNER_URL": url,
        "SPADES_DB_ROLE": "owner",
        "REDIS_URL": redis_url,
        "CELERY_BROKER_URL": redis_url,
        "CELERY_RESULT_BACKEND": redis_url,
        "DJANGO_SETTINGS_MODULE": "services.settings",
        "PYTHONUNBUFFERED": "1",
    }


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def port_open(port: int, host: str = "127.0.0.1") -> bool:
    """True if something accepts TCP connections on host:port."""
    try:
        socket.create_connection((host, port), timeout=0.5).close()
    except OSError:
        return False
    return True


class ManagedProcess:
    """One ``python -m MODULE ARGS`` child; ``start`` waits until ``ready()`` is true."""

    def __init__(
        self,
        name: str,
        module: str,
        args: list[str],
        env: Mapping[str, str],
        log_dir: Path,
        ready: Callable[[ManagedProcess], bool] | None = None,
    ) -> None:
        self.name = name
        self.module = module
        self.args = args
        self.env = {**os.environ, **env}
        self.log_path = log_dir / f"{name}.log"
        self.ready = ready
        self.popen: subprocess.Popen[bytes] | None = None
        self.terminated = False

    @property
    def pid(self) -> int:
        """The child's PID (it leads its own process group)."""
        assert self.popen is not None, f"{self.name} was not started"
        return self.popen.pid

    def log_text(self) -> str:
        """Everything the process printed so far."""
        try:
            return self.log_path.read_text(errors="replace")
        except FileNotFoundError:
            return ""

    def start(self, timeout: float = 30.0) -> ManagedProcess:
        """Start the child and wait for it to be ready (or fail with its log)."""
        self.log_path.parent.mkdir(parents=True, exist_ok=True)
        with self.log_path.open("ab") as log:
            self.popen = subprocess.Popen(
                [sys.executable, "-m", self.module, *self.args],
                cwd=ROOT,
                env=self.env,
                stdout=log,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
                start_new_session=True,
            )
        deadline = time.monotonic() + timeout
        while self.ready is not None and not self.ready(self):
            if self.popen.poll() is not None:
                raise ProcessFailed(
                    f"{self.name} exited ({self.popen.returncode}):\n{self.log_text()[-4000:]}"
                )
            if time.monotonic() > deadline:
                self.kill()
                raise ProcessFailed(
                    f"{self.name} not ready after {timeout}s:\n{self.log_text()[-4000:]}"
                )
            time.sleep(0.1)
        return self

    def cpu_seconds(self) -> float:
        """CPU time (user + system) used so far by every live process of its group."""
        if self.popen is None:
            return 0.0
        return process_group_cpu_seconds(self.popen.pid)

    def alive(self) -> bool:
        """True while the child runs."""
        return self.popen is not None and self.popen.poll() is None

    def terminate(self) -> None:
        """Send SIGTERM without waiting (``stop`` waits)."""
        if self.popen is not None and self.popen.poll() is None and not self.terminated:
            self.popen.send_signal(signal.SIGTERM)
            self.terminated = True

    def stop(self, timeout: float = 20.0) -> int | None:
        """SIGTERM (graceful: Celery's warm shutdown), then SIGKILL after ``timeout``."""
        if self.popen is None:
            return None
        if self.popen.poll() is None:
            self.terminate()
            try:
                self.popen.wait(timeout)
            except subprocess.TimeoutExpired:
                self.kill()
        self._kill_group()
        return self.popen.returncode

    def kill(self) -> None:
        """SIGKILL the child's whole process group (a crash: no cleanup, no ack)."""
        if self.popen is None:
            return
        self._kill_group()
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.popen.wait(10)

    def _kill_group(self) -> None:
        assert self.popen is not None
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.popen.pid, signal.SIGKILL)


def process_group_cpu_seconds(group: int) -> float:
    """Sum of utime + stime (and reaped children's) over processes in group ``group``
    (Linux /proc; 0.0 elsewhere)."""
    ticks = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
    total = 0
    for stat_path in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat_path.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        # After the command: state(0) ppid(1) pgrp(2) ... utime(11) stime(12) cutime(13) cstime(14)
        if int(fields[2]) == group:
            total += sum(int(value) for value in fields[11:15])
    return total / ticks


def database_backends_cpu_seconds(database: str) -> float:
    """CPU time of the PostgreSQL backends now serving ``database`` (their process titles
    name it; backends that already exited are not counted). Linux /proc only."""
    ticks = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
    total = 0
    for proc in Path("/proc").glob("[0-9]*"):
        try:
            title = (proc / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            if not title.startswith("postgres:") or f" {database} " not in title:
                continue
            fields = (proc / "stat").read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        total += sum(int(value) for value in fields[11:13])
    return total / ticks


def log_contains(marker: str) -> Callable[[ManagedProcess], bool]:
    """A readiness probe: the process printed ``marker``."""
    return lambda process: marker in process.log_text()


def listening(port: int) -> Callable[[ManagedProcess], bool]:
    """A readiness probe: the process accepts TCP connections on ``port``."""
    return lambda process: port_open(port)


def worker_process(
    env: Mapping[str, str],
    log_dir: Path,
    *,
    name: str = "worker",
    concurrency: int = 1,
    pool: str | None = None,
) -> ManagedProcess:
    """A Celery worker (``services.worker``) named ``NAME@host``, ready when it says so."""
    node = f"{name}-{os.getpid()}-{time.monotonic_ns()}@%h"
    args = [f"--concurrency={concurrency}", "-n", node, f"--pidfile={log_dir / (name + '.pid')}"]
    if pool is not None:
        args.append(f"--pool={pool}")
    return ManagedProcess(name, "services.worker", args, env, log_dir, log_contains(" ready."))


def web_process(
    env: Mapping[str, str], log_dir: Path, port: int, *, name: str = "web"
) -> ManagedProcess:
    """daphne (``services.web``) on 127.0.0.1:``port``, ready when it accepts connections."""
    env = {**env, "SPADES_BIND": "127.0.0.1", "SPADES_HTTP_PORT": str(port)}
    return ManagedProcess(name, "services.web", [], env, log_dir, listening(port))
