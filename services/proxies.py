"""The real client behind trusted proxies (``TRUSTED_PROXIES``, docs/operations.md).

A reverse proxy in front of the web says who its client is in ``X-Forwarded-For`` (each
proxy appends the address it got the request from) and how the client came in
``X-Forwarded-Proto``. Anyone can send those headers, so they count only when the TCP peer
is a trusted proxy: then the client is the rightmost address of ``X-Forwarded-For`` that is
not itself a trusted proxy. From any other peer they are removed (with ``X-Request-ID``
and the header ``SECURE_PROXY_SSL_HEADER`` names), so nothing later can be fooled by them.

:class:`TrustedProxyMiddleware` wraps the whole ASGI application, HTTP and WebSocket alike:
it rewrites ``scope["client"]`` (Django's ``REMOTE_ADDR``, which the API's throttles count
by, and the address the WebSocket connection cap counts by) and ``scope["scheme"]``, so
every per-address limit counts the real client.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.conf import settings

from telemetry.networks import Network, address_in, parse_address

FORWARDED_FOR = b"x-forwarded-for"
FORWARDED_PROTO = b"x-forwarded-proto"
REQUEST_ID = b"x-request-id"
#: Hops of X-Forwarded-For looked at, from the right (a longer chain is cut there).
MAX_HOPS = 16


def forwarded_client(peer: str, forwarded_for: str, trusted: Sequence[Network]) -> str:
    """The client of a request that reached us from ``peer``: ``peer`` itself unless it
    is a trusted proxy, else the nearest hop of ``forwarded_for`` that is not one (or
    the last trusted hop, when the one before it is not an IP address)."""
    client = peer
    hops = forwarded_for.rsplit(",", MAX_HOPS)[-MAX_HOPS:] if forwarded_for else []
    for hop in reversed(hops):
        if not address_in(client, trusted):
            break
        address = parse_address(hop)
        if address is None:
            break
        client = str(address)
    return client


def _header(headers: Sequence[tuple[bytes, bytes]], name: bytes) -> str:
    """Every value of header ``name``, joined as one comma-separated list."""
    return ",".join(value.decode("latin-1") for key, value in headers if key == name)


def _untrusted_headers() -> frozenset[bytes]:
    names = {FORWARDED_FOR, FORWARDED_PROTO, REQUEST_ID}
    ssl_header = getattr(settings, "SECURE_PROXY_SSL_HEADER", None)
    if ssl_header:
        names.add(ssl_header[0].removeprefix("HTTP_").lower().replace("_", "-").encode())
    return frozenset(names)


def behind_proxies(scope: dict[str, Any], trusted: Sequence[Network]) -> dict[str, Any]:
    """``scope`` as the real client sent it (see the module's text)."""
    headers = scope.get("headers") or []
    client = scope.get("client")
    peer = str(client[0]) if client else None
    if peer is not None and address_in(peer, trusted):
        real = forwarded_client(peer, _header(headers, FORWARDED_FOR), trusted)
        updated = {**scope, "client": (real, 0)}
        proto = _header(headers, FORWARDED_PROTO).rsplit(",", 1)[-1].strip().lower()
        secure = {"https": True, "wss": True, "http": False, "ws": False}.get(proto)
        if secure is not None:
            plain, tls = ("ws", "wss") if scope["type"] == "websocket" else ("http", "https")
            updated["scheme"] = tls if secure else plain
        return updated
    untrusted = _untrusted_headers()
    kept = [(key, value) for key, value in headers if key not in untrusted]
    return {**scope, "headers": kept} if len(kept) != len(headers) else scope


class TrustedProxyMiddleware:
    """ASGI middleware: every HTTP request and WebSocket connection as its real client
    sent it (``settings.TRUSTED_PROXIES``, read per connection)."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        if scope["type"] in ("http", "websocket"):
            scope = behind_proxies(scope, settings.TRUSTED_PROXIES)
        return await self.app(scope, receive, send)
