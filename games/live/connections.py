"""This thread's database connection, kept sound between uses by long-lived threads that
never go through Django's request cycle: Celery workers (which reuse connections across
tasks, ``CELERY_DB_REUSE_MAX``) and the WebSocket consumers' pool threads (which keep
theirs across messages)."""

from __future__ import annotations

import contextlib
import select

from django.db import connection


def ensure_sound_connection() -> None:
    """Close this thread's connection if it cannot serve the next query, so that query
    opens a new one instead of failing: an error left it unusable, or the server ended it.

    No round trip: a server that ends a session (a restart, ``pg_terminate_backend``, an
    idle timeout) sends its last message and closes the socket, which makes the idle
    connection's socket readable; a sound idle connection has nothing to read (Django
    never LISTENs). One ``poll`` instead of Django's health check, whose ``SELECT 1`` per
    message would double a WebSocket message's database round trips.
    """
    if connection.connection is None:
        return
    if connection.errors_occurred:
        connection.close_if_unusable_or_obsolete()
        if connection.connection is None:
            return
    if closed_by_server(connection.connection):
        consume_goodbye(connection.connection)
        connection.close()


def closed_by_server(raw: object) -> bool:
    """Whether an idle DB-API connection (psycopg) was ended by the server."""
    if getattr(raw, "closed", False):
        return True
    try:
        descriptor = raw.fileno()  # type: ignore[attr-defined]
    except Exception:  # a connection that lost its socket is as good as closed
        return True
    poller = select.poll()
    poller.register(descriptor, select.POLLIN | select.POLLPRI)
    return bool(poller.poll(0))


def consume_goodbye(raw: object) -> None:
    """Let libpq read what the server sent last, so the connection knows it is broken (a
    connection pool then discards it instead of handing it out again)."""
    pgconn = getattr(raw, "pgconn", None)
    if pgconn is None:
        return
    # Reading the end of the stream raises: exactly what marks the connection broken.
    with contextlib.suppress(Exception):
        pgconn.consume_input()
