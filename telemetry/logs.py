"""The log context (which request, table, command or competition a log line is about) and
the JSON line format (``LOG_FORMAT=json``).

Each edge starts a context of its own with a fresh ``request_id``: an HTTP request
(``services.request_log``), a Celery task (``services.celery``), a projector round, a
WebSocket connection (``telemetry.edges.socket_opened``). Inner calls add the ids they
know with :func:`bind` (the table command service binds ``table_id`` and ``command_id``);
those last until the edge's context ends, so the lines the edge writes after them (a
request's access line, a task's failure) carry them too. The context lives in a
:mod:`contextvars` variable: each thread and each asyncio task has its own, and asgiref
carries it into ``sync_to_async`` threads and back.
"""

from __future__ import annotations

import logging
import logging.config
import secrets
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from datetime import UTC, datetime
from types import MappingProxyType

import orjson

#: The ids a context may hold (docs/operations.md, "Logs").
FIELDS = ("request_id", "table_id", "command_id", "competition_id")
MAX_VALUE_LENGTH = 200

_EMPTY: Mapping[str, str] = MappingProxyType({})
_context: ContextVar[Mapping[str, str]] = ContextVar("spades_log_context", default=_EMPTY)
_process = {"name": "spades"}


def set_process_name(name: str) -> None:
    """Name this process in its JSON lines (``web``, ``worker``, ``projector``, ...)."""
    _process["name"] = name


def current() -> Mapping[str, str]:
    """The ids of the current context."""
    return _context.get()


def new_request_id() -> str:
    """A fresh request id: 16 hex digits."""
    return secrets.token_hex(8)


def bind(**ids: object) -> None:
    """Add ids to the current context (None removes one); they last until its edge ends."""
    updated = dict(_context.get())
    for name, value in ids.items():
        if value is None:
            updated.pop(name, None)
        else:
            updated[name] = str(value)[:MAX_VALUE_LENGTH]
    _context.set(MappingProxyType(updated))


def begin(request_id: object = None, **ids: object) -> str:
    """Start a new context in place (a loop's next round, a task): a request id (fresh
    unless given) and ``ids``, nothing of the one before. Returns the request id."""
    _context.set(_EMPTY)
    bind(request_id=request_id or new_request_id(), **ids)
    return _context.get()["request_id"]


def clear() -> None:
    """End the current context (a task is over)."""
    _context.set(_EMPTY)


@contextmanager
def scope(request_id: object = None, **ids: object) -> Iterator[str]:
    """An edge's context for the block (see :func:`begin`); the one before comes back
    after it, without what the block bound."""
    token = _context.set(_EMPTY)
    try:
        yield begin(request_id, **ids)
    finally:
        _context.reset(token)


def configure_json(config: dict[str, object]) -> None:
    """Django's ``LOGGING_CONFIG`` with JSON lines: the dict config, and Python's warnings
    as log records (logger ``py.warnings``), so no line a warning prints escapes the
    format."""
    logging.config.dictConfig(config)
    logging.captureWarnings(True)


class JsonFormatter(logging.Formatter):
    """One JSON object per record, on one line: time (UTC), level, logger, message,
    process, the context's ids, and the traceback if any (newlines escaped)."""

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, object] = {
            "time": datetime.fromtimestamp(record.created, tz=UTC).isoformat(
                timespec="milliseconds"
            ),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
            "process": _process["name"],
        }
        entry.update(_context.get())
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        if record.stack_info:
            entry["stack"] = self.formatStack(record.stack_info)
        return orjson.dumps(entry, default=str).decode()
