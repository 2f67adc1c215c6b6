"""The table API's requests served whole in a bounded pool of threads, off daphne's loop.

Django's ASGI handler gives each request a thread of its own (a ``ThreadSensitiveContext``:
a thread created for the request and joined when it ends), and every sync middleware
(WhiteNoise among async ones) makes the request hop between that thread and the event
loop, the loop that also sends every socket's messages: thread creation and those hops
were about a quarter of the web's time per move (docs/benchmarks.md, "Capacity",
session 7).

:class:`ThreadPoolHandler` serves a request as a WSGI server would: the whole sync
middleware chain and view, ``request_started`` and ``request_finished`` (so
``close_old_connections``: the thread's database connection goes back to the bounded
psycopg pool when its request ends), in one thread of a pool of ``WEB_REQUEST_THREADS``;
only reading the body and sending the answer happen on the loop. The paths it serves are
:data:`POOLED_PATH_PREFIXES`: the table API, whose answers are never streamed (a streamed
answer pulls its pieces in the thread-sensitive thread, ``accounts.streaming``, so those
endpoints stay on Django's ASGI handler, as does everything else).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, MutableMapping
from concurrent.futures import ThreadPoolExecutor
from typing import Any, BinaryIO

from asgiref.sync import sync_to_async
from django.conf import settings
from django.core import signals
from django.core.exceptions import RequestAborted
from django.core.handlers.asgi import ASGIHandler, get_script_prefix
from django.core.handlers.base import BaseHandler
from django.http import HttpResponseBase
from django.urls import set_script_prefix

logger = logging.getLogger(__name__)

#: Served in the pool: the table API (``/api/tables`` and below: commands and reads; none
#: streams its answer).
POOLED_PATH_PREFIXES = ("/api/tables",)

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[dict[str, Any]]]
Send = Callable[[dict[str, Any]], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


class ThreadPoolHandler(ASGIHandler):
    """Django's request handling in sync mode, one request per pool thread (module text)."""

    def __init__(self, threads: int) -> None:
        BaseHandler.__init__(self)
        self.load_middleware(is_async=False)
        self.executor = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="http")

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":  # pragma: no cover - routed by ProtocolTypeRouter
            raise ValueError(f"HTTP only, not {scope['type']}")
        await self.handle(scope, receive, send)

    def in_pool(self, function: Callable[..., Any]) -> Callable[..., Awaitable[Any]]:
        # asgiref's wrapper carries the context variables (the log context) across and lets
        # an async_to_sync inside the view reach this loop, as Django's own threads do.
        return sync_to_async(function, thread_sensitive=False, executor=self.executor)

    async def handle(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            body_file = await self.read_body(receive)
        except RequestAborted:
            return
        try:
            response = await self.in_pool(self.respond)(scope, body_file)
            try:
                await self.send_response(response, send)
            finally:
                if response.streaming:  # its resources were still in use while sending
                    await self.in_pool(response.close)()
        finally:
            body_file.close()

    def respond(self, scope: Scope, body_file: BinaryIO) -> HttpResponseBase:
        """In a pool thread: the request from start to ``request_finished``, as WSGI."""
        set_script_prefix(get_script_prefix(scope))
        signals.request_started.send(sender=self.__class__, scope=scope)
        request, response = self.create_request(scope, body_file)
        if request is not None:
            response = self.get_response(request)
            response._handler_class = self.__class__  # type: ignore[attr-defined]
        if not response.streaming:
            # request_finished in this thread: its connection goes back to the pool now.
            response.close()
        return response


class PathDispatch:
    """HTTP requests under :data:`POOLED_PATH_PREFIXES` to the thread pool, the rest to
    Django's ASGI handler (with its static files handler in development)."""

    def __init__(self, pooled: ASGIApp, rest: ASGIApp) -> None:
        self.pooled = pooled
        self.rest = rest

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        path = scope.get("path", "")
        if scope["type"] == "http" and path.startswith(POOLED_PATH_PREFIXES):
            await self.pooled(scope, receive, send)
        else:
            await self.rest(scope, receive, send)


def http_application(rest: ASGIApp) -> ASGIApp:
    """The HTTP app: the table API in a pool of ``settings.WEB_REQUEST_THREADS`` threads."""
    return PathDispatch(ThreadPoolHandler(settings.WEB_REQUEST_THREADS), rest)
