"""The worker's, projector's and scheduler's own metrics: the port each serves them on,
and the Celery signals that move the task and scheduler metrics.

Each of these processes serves ``GET /metrics`` on ``SPADES_<PROCESS>_METRICS_PORT``
(9101 worker, 9102 projector, 9103 scheduler; 0: none), bound to ``SPADES_METRICS_BIND``
(127.0.0.1), to the same scrapers as the web's ``/metrics`` (:func:`metrics_access`). The
worker adds up its prefork children's values (``services.worker`` sets up
prometheus-client's multiprocess mode before anything imports it).
"""

from __future__ import annotations

import os
import time
from typing import Any

from celery.signals import (
    beat_init,
    before_task_publish,
    task_postrun,
    task_prerun,
    worker_process_shutdown,
)
from django.conf import settings
from prometheus_client import multiprocess

from telemetry.exposition import MULTIPROCESS_DIR_VARIABLE, MetricsAccess, serve
from telemetry.metrics import BEAT_ACTIVE, BEAT_SENT, TASK_SECONDS


def metrics_access() -> MetricsAccess:
    """Who may read the metrics: ``METRICS_ALLOWED_ADDRESSES``, or ``METRICS_TOKEN``."""
    return MetricsAccess(settings.METRICS_ALLOWED_ADDRESSES, settings.METRICS_TOKEN)


def serve_process_metrics(process: str) -> None:
    """Serve this process's metrics on its port, unless that is 0."""
    port = settings.METRICS_PORTS[process]
    if port:
        serve(settings.METRICS_BIND, port, metrics_access())


# Task id -> when it started, in the process running it (one task at a time per child).
_started: dict[str, float] = {}


def _task_started(task_id: str | None = None, **_: Any) -> None:
    if task_id is not None:
        _started[task_id] = time.perf_counter()


def _task_finished(
    task_id: str | None = None, task: Any = None, state: str | None = None, **_: Any
) -> None:
    started = _started.pop(task_id or "", None)
    if started is not None and task is not None:
        TASK_SECONDS.labels(task.name, state or "UNKNOWN").observe(time.perf_counter() - started)


def _child_exited(**_: Any) -> None:
    if os.environ.get(MULTIPROCESS_DIR_VARIABLE):
        multiprocess.mark_process_dead(os.getpid())  # type: ignore[no-untyped-call]


def watch_worker() -> None:
    """The worker: time every task, forget a prefork child's live values when it exits,
    serve the metrics."""
    task_prerun.connect(_task_started, weak=False, dispatch_uid="spades-task-started")
    task_postrun.connect(_task_finished, weak=False, dispatch_uid="spades-task-finished")
    worker_process_shutdown.connect(_child_exited, weak=False, dispatch_uid="spades-child")
    serve_process_metrics("worker")


def _job_sent(sender: str | None = None, **_: Any) -> None:
    BEAT_SENT.labels(sender or "unknown").inc()


def _beat_started(sender: Any = None, **_: Any) -> None:
    """Connected before the scheduler's own ``beat_init`` receiver (which waits for the
    lock): from now on the gauge reads whether this scheduler holds the lock."""
    service = sender
    BEAT_ACTIVE.set_function(lambda: float(getattr(service.scheduler, "lock", None) is not None))


def watch_scheduler() -> None:
    """The scheduler: count the jobs it sends, say whether it holds the beat lock, serve
    the metrics."""
    before_task_publish.connect(_job_sent, weak=False, dispatch_uid="spades-beat-sent")
    beat_init.connect(_beat_started, weak=False, dispatch_uid="spades-beat-lock")
    serve_process_metrics("scheduler")
