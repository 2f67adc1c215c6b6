"""The HTTP edge of the logs and metrics: every request's log context, access line and
latency.

A request gets a request id: the ``X-Request-ID`` a trusted proxy sent, when well formed
(``services.proxies`` removes the header from anyone else), or a fresh one; the response
echoes it. The ids in its URL (``table_id``, ``competition_id``) are bound when its view
is known. When it ends, one access line (logger ``spades.access``: client, method, path
without the query string, status, milliseconds) carries whatever the request bound on the
way (a table command's ``command_id``), and ``spades_http_request_duration_seconds``
counts it by route, method and status. The client is the real one (``TRUSTED_PROXIES``).
"""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Awaitable, Callable
from typing import Any

from asgiref.sync import iscoroutinefunction, markcoroutinefunction
from django.http import HttpRequest, HttpResponseBase

from telemetry.logs import FIELDS, bind, scope
from telemetry.metrics import observe_request

logger = logging.getLogger("spades.access")

_REQUEST_ID = re.compile(r"^[A-Za-z0-9._:-]{1,64}$")
#: The ids a URL may name that go into the log context.
URL_IDS = tuple(name for name in FIELDS if name.endswith("_id") and name != "request_id")

METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})


def incoming_request_id(request: HttpRequest) -> str | None:
    """The proxy's request id, if it is one we can log as it is."""
    value = request.META.get("HTTP_X_REQUEST_ID")
    return value if isinstance(value, str) and _REQUEST_ID.match(value) else None


class RequestLogMiddleware:
    """Sync and async: no thread hop of its own on daphne's event loop."""

    sync_capable = True
    async_capable = True

    def __init__(self, get_response: Callable[[HttpRequest], Any]) -> None:
        self.get_response = get_response
        self.is_async = iscoroutinefunction(get_response)
        if self.is_async:
            markcoroutinefunction(self)

    def __call__(self, request: HttpRequest) -> Any:
        if self.is_async:
            return self._call_async(request)
        with scope(incoming_request_id(request)) as request_id:
            started = time.perf_counter()
            response = self.get_response(request)
            return self.finish(request, response, request_id, started)

    async def _call_async(self, request: HttpRequest) -> HttpResponseBase:
        get_response: Callable[[HttpRequest], Awaitable[HttpResponseBase]] = self.get_response
        with scope(incoming_request_id(request)) as request_id:
            started = time.perf_counter()
            response = await get_response(request)
            return self.finish(request, response, request_id, started)

    def process_view(
        self, request: HttpRequest, view: Any, args: Any, kwargs: dict[str, Any]
    ) -> None:
        bind(**{name: value for name, value in kwargs.items() if name in URL_IDS})

    def finish(
        self, request: HttpRequest, response: HttpResponseBase, request_id: str, started: float
    ) -> HttpResponseBase:
        seconds = time.perf_counter() - started
        match = request.resolver_match
        route = match.route if match is not None and match.route else "unmatched"
        method = request.method if request.method in METHODS else "other"
        observe_request(route, method, response.status_code, seconds)
        response["X-Request-ID"] = request_id
        logger.info(
            "%s %s %s %d %.1fms",
            request.META.get("REMOTE_ADDR", "-"),
            request.method,
            request.path,
            response.status_code,
            seconds * 1000,
        )
        return response
