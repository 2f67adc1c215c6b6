"""The platform's Prometheus metrics, and the one-line calls that move them.

Every process defines them all (a metric a process never moves stays at zero there); each
process serves its own (``telemetry.exposition``; the web at ``GET /metrics``). The gauges
that describe the database or Redis rather than one process (projection lag, broken
streams, queue depth, the web's connection pool) are read when the web is scraped
(``services.metrics``). Label values come from short fixed sets (event types, command
names, bot levels, projection names, socket kinds): never an id. The list, with what each
means, is in docs/operations.md, "Metrics".
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Any

from prometheus_client import Counter, Gauge, Histogram

#: Seconds, for anything from a cached read to a slow commit.
LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)

HTTP_REQUEST_SECONDS = Histogram(
    "spades_http_request_duration_seconds",
    "HTTP requests by route (the URL pattern, or 'unmatched'), method and status, with "
    "their time in the web process.",
    ["route", "method", "status"],
    buckets=LATENCY_BUCKETS,
)
EVENTS_APPENDED = Counter(
    "spades_events_appended", "Events committed to the event store, by event type.", ["type"]
)
COMMAND_SECONDS = Histogram(
    "spades_command_duration_seconds",
    "Time a table command took in its service (decide, append, read model), by command and "
    "outcome (ok, refused, error).",
    ["command", "outcome"],
    buckets=LATENCY_BUCKETS,
)
COMMIT_TO_SOCKET_SECONDS = Histogram(
    "spades_commit_to_socket_seconds",
    "From a table's commit to its update being sent on a WebSocket (each socket counts).",
    buckets=LATENCY_BUCKETS,
)
BOT_DECISION_SECONDS = Histogram(
    "spades_bot_decision_seconds",
    "Time a bot strategy took to decide one move, by level.",
    ["level"],
    buckets=LATENCY_BUCKETS,
)
BOT_TURNS = Counter(
    "spades_bot_turns",
    "Bot-turn tasks by what they did (played, stale, not_due, duplicate).",
    ["outcome"],
)
OPEN_SOCKETS = Gauge(
    "spades_open_sockets",
    "Live WebSocket connections holding a slot under the connection cap, by kind.",
    ["kind"],
    multiprocess_mode="livesum",
)
SOCKET_REFUSALS = Counter(
    "spades_socket_refusals",
    "WebSocket connections refused over the connection cap (close 4429), by kind.",
    ["kind"],
)
THROTTLED_REQUESTS = Counter(
    "spades_throttled_requests",
    "API requests refused by a rate limit (429), by throttle scope.",
    ["scope"],
)
COMMIT_NOTICES_DROPPED = Counter(
    "spades_commit_notices_dropped",
    "Commit notices dropped because Redis could not be reached (the sockets' resync and the "
    "projector's poll repair what they would have done).",
)
PROJECTION_EVENTS = Counter(
    "spades_projection_events",
    "Events the projector caught up, by projection.",
    ["projection"],
)
PROJECTION_SECONDS = Counter(
    "spades_projection_seconds",
    "Wall time the projector spent catching up, by projection.",
    ["projection"],
)
TASK_SECONDS = Histogram(
    "spades_task_duration_seconds",
    "Celery task run time in the worker, by task and final state.",
    ["task", "state"],
    buckets=LATENCY_BUCKETS,
)
BEAT_SENT = Counter(
    "spades_beat_sent",
    "Periodic jobs this scheduler sent, by task.",
    ["task"],
)
BEAT_ACTIVE = Gauge(
    "spades_beat_active",
    "1 while this scheduler holds the beat lock and sends the periodic jobs, 0 on standby.",
    multiprocess_mode="livemax",
)


def observe_request(route: str, method: str, status: int, seconds: float) -> None:
    HTTP_REQUEST_SECONDS.labels(route, method, str(status)).observe(seconds)


def count_appended(events: Iterable[Any]) -> None:
    """Committed events (anything with a ``type``)."""
    for event in events:
        EVENTS_APPENDED.labels(event.type).inc()


def observe_commit_to_socket(committed_at: float) -> None:
    """An update of a commit made at ``committed_at`` (``time.time()``) is being sent."""
    COMMIT_TO_SOCKET_SECONDS.observe(max(0.0, time.time() - committed_at))


@contextmanager
def bot_decision(level: str) -> Iterator[None]:
    """Time one bot decision of ``level``."""
    started = time.perf_counter()
    yield
    BOT_DECISION_SECONDS.labels(level).observe(time.perf_counter() - started)


def count_bot_turn(outcome: str) -> None:
    BOT_TURNS.labels(outcome).inc()


def count_throttled(scope: str) -> None:
    THROTTLED_REQUESTS.labels(scope).inc()


def count_notices_dropped(count: int) -> None:
    COMMIT_NOTICES_DROPPED.inc(count)


def record_projection(name: str, events: int, seconds: float) -> None:
    """One catch-up of projection ``name``: events handled, wall time."""
    PROJECTION_EVENTS.labels(name).inc(events)
    PROJECTION_SECONDS.labels(name).inc(seconds)
