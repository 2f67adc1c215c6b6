"""Serving a process's metrics to allowed scrapers only.

The web serves them at ``GET /metrics`` (``services.metrics``); the worker, projector and
scheduler each on a port of their own (:func:`serve`, ``GET /metrics`` there too). Both
answer only a client whose address is in ``METRICS_ALLOWED_ADDRESSES`` or that sends
``Authorization: Bearer METRICS_TOKEN`` (:class:`MetricsAccess`), else 403.

A process that forks workers (Celery's prefork pool) runs prometheus-client's
multiprocess mode: every process writes its values to files in
``PROMETHEUS_MULTIPROC_DIR``, and the scrape adds them up (:func:`process_registry`).
"""

from __future__ import annotations

import hmac
import logging
import os
import threading
from collections.abc import Callable, Iterable, Sequence
from socketserver import ThreadingMixIn
from typing import Any
from wsgiref.simple_server import WSGIRequestHandler, WSGIServer, make_server

from prometheus_client import CONTENT_TYPE_LATEST, REGISTRY, CollectorRegistry, generate_latest
from prometheus_client.multiprocess import MultiProcessCollector

from telemetry.networks import Network, address_in

logger = logging.getLogger(__name__)

MULTIPROCESS_DIR_VARIABLE = "PROMETHEUS_MULTIPROC_DIR"
REFUSAL = b"Metrics are served only to the configured addresses or with the metrics token.\n"


class MetricsAccess:
    """Who may read the metrics: these networks, or whoever sends the token (if one is
    set; compared in constant time)."""

    def __init__(self, networks: Sequence[Network], token: str = "") -> None:
        self.networks = list(networks)
        self.token = token.encode()

    def allows(self, address: object, authorization: str | None) -> bool:
        if self.token and authorization:
            scheme, _, credential = authorization.partition(" ")
            if scheme.lower() == "bearer" and hmac.compare_digest(
                credential.strip().encode(), self.token
            ):
                return True
        return address_in(address, self.networks)


def process_registry() -> CollectorRegistry:
    """What this process serves: the default registry, or in multiprocess mode one that
    adds up the files of every process of the group."""
    if os.environ.get(MULTIPROCESS_DIR_VARIABLE):
        registry = CollectorRegistry()
        MultiProcessCollector(registry)  # type: ignore[no-untyped-call]
        return registry
    return REGISTRY


def render(registries: Iterable[CollectorRegistry]) -> bytes:
    """The Prometheus text format of every metric of ``registries``."""
    return b"".join(generate_latest(registry) for registry in registries)


class _Server(ThreadingMixIn, WSGIServer):
    daemon_threads = True


class _QuietHandler(WSGIRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        """Scrapes are not logged (one every few seconds)."""


def metrics_app(
    access: MetricsAccess, registries: Callable[[], Iterable[CollectorRegistry]]
) -> Callable[..., list[bytes]]:
    """A WSGI app: ``/metrics`` to allowed scrapers (403 to others), ``/livez`` to anyone."""

    def app(environ: dict[str, Any], start_response: Callable[..., Any]) -> list[bytes]:
        path = environ.get("PATH_INFO", "")
        if path == "/livez":
            start_response("200 OK", [("Content-Type", "text/plain")])
            return [b"ok\n"]
        if path != "/metrics":
            start_response("404 Not Found", [("Content-Type", "text/plain")])
            return [b"Not found: the metrics are at /metrics.\n"]
        if not access.allows(environ.get("REMOTE_ADDR"), environ.get("HTTP_AUTHORIZATION")):
            start_response("403 Forbidden", [("Content-Type", "text/plain")])
            return [REFUSAL]
        body = render(registries())
        start_response("200 OK", [("Content-Type", CONTENT_TYPE_LATEST)])
        return [body]

    return app


def serve(
    address: str,
    port: int,
    access: MetricsAccess,
    registries: Callable[[], Iterable[CollectorRegistry]] = lambda: [process_registry()],
) -> WSGIServer | None:
    """Serve this process's metrics on ``address:port`` from a daemon thread; None (and
    a warning) when the port cannot be had: the process goes on without."""
    try:
        server = make_server(
            address, port, metrics_app(access, registries), _Server, handler_class=_QuietHandler
        )
    except OSError as exc:
        logger.warning("metrics not served on %s:%s: %s", address, port, exc)
        return None
    thread = threading.Thread(target=server.serve_forever, name="metrics-server", daemon=True)
    thread.start()
    logger.info("metrics served on http://%s:%s/metrics", address, port)
    return server
