"""``GET /metrics``: the web's metrics, and the figures of the whole platform that are read
when it is scraped; and the metrics port of the other processes.

The web serves its own process's metrics (``telemetry.metrics``) and, read from
PostgreSQL, Redis and the connection pool at each scrape: each projection's lag (events
and seconds), the streams each projection set aside, the Celery queues' depth, and the
pool's waits. Only to ``METRICS_ALLOWED_ADDRESSES`` or with ``METRICS_TOKEN``
(``telemetry.exposition.MetricsAccess``); the address is the real client's
(``TRUSTED_PROXIES``). The worker, projector and scheduler each serve their own on a port
(``services.process_metrics``). docs/operations.md, "Metrics", lists every metric.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from typing import Any

from django.db import connections
from django.http import HttpRequest, HttpResponse
from kombu.exceptions import ChannelError
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

from eventstore.subscriptions import broken_stream_counts, lag_of, registered_projections
from services.celery import app as celery_app
from services.celery import bots_queue, timers_queue
from services.process_metrics import metrics_access
from telemetry.exposition import REFUSAL, process_registry, render

logger = logging.getLogger(__name__)


class ProjectionCollector(Collector):
    """Each registered projection's lag and broken streams (two queries a projection)."""

    def collect(self) -> Iterator[Metric]:
        events = GaugeMetricFamily(
            "spades_projection_lag_events",
            "Committed events a projection has yet to read (counted up to 100,000).",
            labels=["projection"],
        )
        seconds = GaugeMetricFamily(
            "spades_projection_lag_seconds",
            "Age of the oldest committed event a projection has yet to read (0: caught up).",
            labels=["projection"],
        )
        broken = GaugeMetricFamily(
            "spades_broken_streams",
            "Streams a projection set aside because their events could not be applied.",
            labels=["projection"],
        )
        try:
            counts = broken_stream_counts()
            for projection in registered_projections():
                behind, age = lag_of(projection)
                events.add_metric([projection.name], behind)
                seconds.add_metric([projection.name], age)
                broken.add_metric([projection.name], counts.get(projection.name, 0))
        except Exception as exc:  # a scrape reports what it can; /readyz says what is down
            logger.warning("metrics: projections not read: %s", exc)
            return
        yield from (events, seconds, broken)


class QueueCollector(Collector):
    """Messages waiting in each Celery queue (the broker's lists)."""

    def collect(self) -> Iterator[Metric]:
        depth = GaugeMetricFamily(
            "spades_celery_queue_depth",
            "Messages waiting in a Celery queue (bots: bot moves; timers: the scheduler's jobs).",
            labels=["queue"],
        )
        try:
            with celery_app.connection_for_read() as connection:
                channel = connection.default_channel
                for name, queue in (("bots", bots_queue()), ("timers", timers_queue())):
                    try:
                        waiting = channel.queue_declare(queue=queue, passive=True).message_count
                    except ChannelError:  # no such list: nothing waits
                        waiting = 0
                    depth.add_metric([name], waiting)
        except Exception as exc:
            logger.warning("metrics: queue depth not read: %s", exc)
            return
        yield depth


#: psycopg_pool's counters and measures, as (stat, metric, kind, help).
POOL_STATS = (
    ("requests_num", "spades_db_pool_requests", "counter", "Connections requested."),
    (
        "requests_queued",
        "spades_db_pool_waits",
        "counter",
        "Requests that had to wait for a free connection.",
    ),
    ("requests_errors", "spades_db_pool_timeouts", "counter", "Requests that got no connection."),
    ("pool_size", "spades_db_pool_size", "gauge", "Connections the pool holds."),
    ("pool_available", "spades_db_pool_available", "gauge", "Connections idle in the pool."),
    ("requests_waiting", "spades_db_pool_requests_waiting", "gauge", "Requests waiting now."),
)


class PoolCollector(Collector):
    """The web's database connection pool (``DB_POOL``): requests, waits, timeouts."""

    def collect(self) -> Iterator[Metric]:
        pool: Any = getattr(connections["default"], "pool", None)
        if pool is None:
            return
        stats = pool.get_stats()
        for stat, name, kind, text in POOL_STATS:
            family = CounterMetricFamily if kind == "counter" else GaugeMetricFamily
            yield family(name, text, value=stats.get(stat, 0))
        yield CounterMetricFamily(
            "spades_db_pool_wait_seconds",
            "Time requests spent waiting for a free connection.",
            value=stats.get("requests_wait_ms", 0) / 1000,
        )


platform_registry = CollectorRegistry()
for _collector in (ProjectionCollector(), QueueCollector(), PoolCollector()):
    platform_registry.register(_collector)


def metrics_view(request: HttpRequest) -> HttpResponse:
    """``GET /metrics`` (any method answers the same; nothing is written)."""
    if not metrics_access().allows(
        request.META.get("REMOTE_ADDR"), request.headers.get("Authorization")
    ):
        return HttpResponse(REFUSAL, status=403, content_type="text/plain")
    body = render([process_registry(), platform_registry])
    return HttpResponse(body, content_type=CONTENT_TYPE_LATEST)
