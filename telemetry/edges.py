"""One call per hook point at an edge of the platform: what it records in the metrics and
which ids it binds to the log context.

- :func:`command`: a table command (``games.services.table_commands.execute``);
- :func:`socket_opened`, :func:`socket_closed`, :func:`socket_refused`: a live WebSocket
  connection taking, giving back or being refused its slot under the connection cap
  (``games.live.connection_limits``). The socket's kind and ids come from its route's
  keyword arguments (``table_id``: a table's socket, ``competition_id``: a competition's).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from telemetry.logs import FIELDS, begin, bind
from telemetry.metrics import COMMAND_SECONDS, OPEN_SOCKETS, SOCKET_REFUSALS

logger = logging.getLogger("spades.access")


@contextmanager
def command(name: str, table_id: object, command_id: object) -> Iterator[None]:
    """A table command: binds ``table_id`` and ``command_id`` for the rest of its edge
    (the request's or task's later lines carry them) and times it by outcome: ``ok``,
    ``refused`` (an exception with an HTTP ``status`` below 500) or ``error``."""
    bind(table_id=table_id, command_id=command_id)
    started = time.perf_counter()
    outcome = "error"
    try:
        yield
        outcome = "ok"
    except Exception as exc:
        status = getattr(exc, "status", None)
        outcome = "refused" if isinstance(status, int) and status < 500 else "error"
        raise
    finally:
        COMMAND_SECONDS.labels(name, outcome).observe(time.perf_counter() - started)


def _route_ids(scope: dict[str, Any]) -> dict[str, Any]:
    kwargs = (scope.get("url_route") or {}).get("kwargs") or {}
    return {name: value for name, value in kwargs.items() if name in FIELDS}


def socket_kind(scope: dict[str, Any]) -> str:
    """``table``, ``competition``, ...: the first id its route names, else ``other``."""
    for name in _route_ids(scope):
        if name.endswith("_id"):
            return name.removesuffix("_id")
    return "other"


def _client(scope: dict[str, Any]) -> str:
    client = scope.get("client")
    return str(client[0]) if client else "-"


def socket_opened(scope: dict[str, Any]) -> str:
    """A connection took its slot: it is counted open until :func:`socket_closed`, and
    its lines (the consumer's task) get a request id of their own and the route's ids.
    Returns its kind."""
    kind = socket_kind(scope)
    begin(**_route_ids(scope))
    OPEN_SOCKETS.labels(kind).inc()
    logger.info("%s WS %s opened", _client(scope), scope.get("path", ""))
    return kind


def socket_closed(kind: str) -> None:
    """A connection counted by :func:`socket_opened` gave its slot back."""
    OPEN_SOCKETS.labels(kind).dec()
    logger.info("WS %s socket closed", kind)


def socket_refused(scope: dict[str, Any]) -> None:
    """A connection was refused over the cap; returns None (no slot)."""
    SOCKET_REFUSALS.labels(socket_kind(scope)).inc()
    logger.info("%s WS %s refused: too many connections", _client(scope), scope.get("path", ""))
