"""Process ``worker``: Celery worker that plays bot turns and runs the scheduler's jobs.

``python -m services.worker [celery worker options]`` consumes the ``bots`` queue (bot
moves) and the ``timers`` queue (watchdog and turn timers sent by ``services.scheduler``).
Concurrency defaults to ``$SPADES_WORKER_CONCURRENCY`` (2) and the pool to
``$SPADES_WORKER_POOL`` (``prefork``: Hard bots' decisions are CPU-bound, so processes;
``threads`` overlaps database waits better for Easy/Normal-heavy loads, see
docs/benchmarks.md). Extra options are passed to ``celery worker`` unchanged and win, e.g.
``--pidfile=.run/worker.pid`` or ``--pool=threads --concurrency=16``.

Its metrics (``services.process_metrics``, port ``SPADES_WORKER_METRICS_PORT``) add up every
prefork child's: prometheus-client's multiprocess mode, with the values in files under
``PROMETHEUS_MULTIPROC_DIR`` (a fresh temporary folder, removed at exit, unless set).
"""

from __future__ import annotations

import atexit
import os
import shutil
import sys
import tempfile
from pathlib import Path

import django
from django.conf import settings

from services.celery import app, bots_queue, timers_queue
from telemetry.logs import set_process_name


def worker_arguments(extra: list[str]) -> list[str]:
    """The ``celery worker`` command line for this process."""
    concurrency = os.environ.get("SPADES_WORKER_CONCURRENCY", "2")
    pool = os.environ.get("SPADES_WORKER_POOL", "prefork")
    if pool not in {"prefork", "threads", "solo"}:
        raise SystemExit(f"SPADES_WORKER_POOL must be prefork, threads or solo, got {pool!r}")
    if not concurrency.isdigit() or int(concurrency) < 1:
        raise SystemExit(
            f"SPADES_WORKER_CONCURRENCY must be a positive integer, got {concurrency!r}"
        )
    # --quiet: no banner, whose lines are not log records (LOG_FORMAT=json).
    return [
        *(["--quiet"] if settings.LOG_FORMAT == "json" else []),
        "worker",
        "--queues",
        f"{bots_queue()},{timers_queue()}",
        "--concurrency",
        concurrency,
        "--pool",
        pool,
        "--loglevel",
        os.environ.get("LOG_LEVEL", "INFO"),
        "--without-gossip",
        "--without-mingle",
        "--without-heartbeat",
        *extra,
    ]


DEFAULT_NICE = 10


def lower_priority() -> None:
    """``$SPADES_WORKER_NICE`` (0-19, default 10): raise the worker's nice value so that,
    when both want the CPU, the web process (WebSocket delivery, the latency users see)
    and PostgreSQL go first and bot moves, which have a budget of hundreds of
    milliseconds, queue a little longer. Measured at 50 busy tables: WebSocket p99 31-75
    ms instead of 62-103, bot moves no slower (docs/benchmarks.md). 0 turns it off."""
    raw = os.environ.get("SPADES_WORKER_NICE", str(DEFAULT_NICE)).strip()
    if not raw.isdigit() or int(raw) > 19:
        raise SystemExit(f"SPADES_WORKER_NICE must be an integer 0-19, got {raw!r}")
    if int(raw):
        os.nice(int(raw))


MULTIPROCESS_DIR_VARIABLE = "PROMETHEUS_MULTIPROC_DIR"


def use_multiprocess_metrics() -> Path:
    """The folder every process of this worker writes its metric values to: the
    operator's ``PROMETHEUS_MULTIPROC_DIR`` (emptied of an earlier run's files), else a
    fresh temporary one, removed at exit."""
    given = os.environ.get(MULTIPROCESS_DIR_VARIABLE, "").strip()
    if given:
        folder = Path(given)
        folder.mkdir(parents=True, exist_ok=True)
        for stale in folder.glob("*.db"):
            stale.unlink()
        return folder
    forget_crashed_workers_metrics()
    folder = Path(tempfile.mkdtemp(prefix=f"{METRICS_DIR_PREFIX}{os.getpid()}-"))
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    os.environ[MULTIPROCESS_DIR_VARIABLE] = str(folder)
    return folder


METRICS_DIR_PREFIX = "spades-worker-metrics-"


def forget_crashed_workers_metrics() -> None:
    """Remove the temporary metrics folders of workers that died without their exit
    handler (killed): each is named after its worker's PID (this process's own PID names
    a folder of an earlier life, e.g. PID 1 of a restarted container)."""
    for folder in Path(tempfile.gettempdir()).glob(f"{METRICS_DIR_PREFIX}*-*"):
        pid = folder.name.removeprefix(METRICS_DIR_PREFIX).split("-", 1)[0]
        if pid.isdigit() and (int(pid) == os.getpid() or not pid_alive(int(pid))):
            shutil.rmtree(folder, ignore_errors=True)


def pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process: alive
        return True
    return True


def main(argv: list[str] | None = None) -> None:
    """Run the Celery worker until SIGTERM (warm shutdown) or SIGQUIT."""
    lower_priority()
    set_process_name("worker")
    use_multiprocess_metrics()
    # Django's logging (LOG_FORMAT) and its capture of warnings, before Celery's first one.
    django.setup()
    # Imported only now: prometheus-client decides where metric values live (here: files
    # every prefork child adds to) when it is first imported, so after use_multiprocess_metrics.
    from services.process_metrics import watch_worker

    watch_worker()
    app.worker_main(worker_arguments(sys.argv[1:] if argv is None else argv))


if __name__ == "__main__":
    main()
