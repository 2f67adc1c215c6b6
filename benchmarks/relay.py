"""The capacity benchmark's anchor: a bare relay on the platform's daphne and channel layer.

``python -m benchmarks.relay`` serves :data:`application` exactly as ``services.web``
serves the platform (the same daphne command line: bind address, port, access log) with
the same settings, so the same channel layer (``CHANNEL_LAYERS``: channels-redis's
pub/sub layer on ``$REDIS_URL``). No database, no game, no authentication:

- ``POST /relay/<key>`` with ``{"version": V, "message_bytes": M, "response_bytes": R}``
  sends the group ``relay.<key>`` one message of M bytes (``{"type": "events", "after":
  V-1, "version": V, "events": [{"version": V}], "table": {"pad": ...}}``, the shape of
  the platform's) and answers ``{"version": V, "pad": ...}`` of R bytes;
- ``ws/relay/<key>/`` joins that group, sends ``{"type": "state", "version": 0}`` (as
  the platform's first message) and then every group message as it comes.
"""

from __future__ import annotations

import os
import re
import sys
from typing import Any

import orjson

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "services.settings")

import django  # noqa: E402

django.setup()

from channels.consumer import get_handler_name  # noqa: E402
from channels.generic.websocket import AsyncWebsocketConsumer  # noqa: E402
from channels.layers import get_channel_layer  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402
from daphne.cli import CommandLineInterface  # noqa: E402
from django.urls import path  # noqa: E402

from services.heap import settle_after_startup  # noqa: E402
from services.web import daphne_arguments  # noqa: E402

#: Bounds on what a client may ask for (a message, a response).
MAX_BYTES = 1 << 20
RELAY_PATH = re.compile(r"^/relay/([0-9A-Za-z_-]{1,64})$")


def group_of(key: str) -> str:
    return f"relay.{key}"


def padded(content: dict[str, Any], holder: dict[str, Any], size: int) -> bytes:
    """``content`` encoded, with ``holder["pad"]`` grown until it is ``size`` bytes (or
    as small as it gets)."""
    holder["pad"] = ""
    bare = len(orjson.dumps(content))
    holder["pad"] = "x" * max(0, size - bare)
    return orjson.dumps(content)


def relay_message(version: int, size: int) -> bytes:
    """The message fanned out for ``version``: the platform's message shape, ``size``
    bytes."""
    table: dict[str, Any] = {}
    content = {
        "type": "events",
        "after": version - 1,
        "version": version,
        "events": [{"version": version}],
        "table": table,
    }
    return padded(content, table, size)


def relay_answer(version: int, size: int) -> bytes:
    content: dict[str, Any] = {"version": version}
    return padded(content, content, size)


async def respond(send: Any, status: int, body: bytes) -> None:
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


async def relay_http(scope: dict[str, Any], receive: Any, send: Any) -> None:
    """``POST /relay/<key>``: fan the message out, answer."""
    match = RELAY_PATH.match(scope.get("path", ""))
    if match is None or scope.get("method") != "POST":
        await respond(send, 404, b'{"code": "not_found"}')
        return
    body = b""
    while True:
        event = await receive()
        body += event.get("body", b"")
        if len(body) > MAX_BYTES:
            await respond(send, 413, b'{"code": "too_large"}')
            return
        if not event.get("more_body"):
            break
    try:
        request = orjson.loads(body)
        version = int(request["version"])
        message_bytes = int(request["message_bytes"])
        response_bytes = int(request["response_bytes"])
    except (ValueError, KeyError, TypeError):
        await respond(send, 400, b'{"code": "bad_request"}')
        return
    if not (0 <= message_bytes <= MAX_BYTES and 0 <= response_bytes <= MAX_BYTES):
        await respond(send, 400, b'{"code": "bad_request"}')
        return
    text = relay_message(version, message_bytes).decode()
    layer = get_channel_layer()
    assert layer is not None
    await layer.group_send(group_of(match.group(1)), {"type": "relay.message", "text": text})
    await respond(send, 200, relay_answer(version, response_bytes))


class RelayConsumer(AsyncWebsocketConsumer):
    """One socket of a relay table: every group message, sent as it comes."""

    async def dispatch(self, message: dict[str, Any]) -> None:
        # As games.consumers.TableConsumer: no aclose_old_connections() per message.
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    async def connect(self) -> None:
        self.group = group_of(str(self.scope["url_route"]["kwargs"]["key"]))
        await self.accept()
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.send(text_data='{"type": "state", "version": 0}')

    async def disconnect(self, code: int) -> None:
        await self.channel_layer.group_discard(self.group, self.channel_name)

    async def relay_message(self, message: dict[str, Any]) -> None:
        await self.send(text_data=message["text"])


application = ProtocolTypeRouter(
    {
        "http": relay_http,
        "websocket": AllowedHostsOriginValidator(
            URLRouter([path("ws/relay/<str:key>/", RelayConsumer.as_asgi())])
        ),
    }
)
settle_after_startup()


def main(argv: list[str] | None = None) -> None:
    """Serve the relay until SIGINT/SIGTERM, on ``services.web``'s command line."""
    arguments = daphne_arguments(
        sys.argv[1:] if argv is None else argv, "benchmarks.relay:application"
    )
    CommandLineInterface().run(arguments)


if __name__ == "__main__":
    main()
