"""Helpers for event store tests: fresh stream ids, threads with their own connections,
and a psycopg connection as the runtime role.

Events are immutable even in the test database (the trigger refuses Django's TRUNCATE,
so the events table is unmanaged and never flushed): every test uses fresh stream ids.
"""

from __future__ import annotations

import os
import threading
import uuid
from collections.abc import Callable, Iterator
from typing import Any

import psycopg
import pytest
from django.db import connection, connections
from psycopg.conninfo import conninfo_to_dict, make_conninfo

from services.settings import DEFAULT_APP_DATABASE_URL, DEFAULT_OWNER_DATABASE_URL


@pytest.fixture
def stream_prefix() -> str:
    return f"test-{uuid.uuid4().hex[:12]}"


def run_in_thread(target: Callable[[], Any]) -> Callable[[], Any]:
    """Start ``target`` in a thread with its own Django connection; returns a join()
    that re-raises the thread's exception or returns its result."""
    outcome: dict[str, Any] = {}

    def body() -> None:
        try:
            outcome["result"] = target()
        except BaseException as exc:
            outcome["error"] = exc
        finally:
            connections.close_all()

    thread = threading.Thread(target=body, daemon=True)
    thread.start()

    def join(timeout: float = 60) -> Any:
        thread.join(timeout)
        if thread.is_alive():
            raise TimeoutError("thread did not finish")
        if "error" in outcome:
            raise outcome["error"]
        return outcome.get("result")

    return join


def _same_role() -> bool:
    app = conninfo_to_dict(os.environ.get("DATABASE_URL", DEFAULT_APP_DATABASE_URL))
    owner = conninfo_to_dict(os.environ.get("DATABASE_OWNER_URL", DEFAULT_OWNER_DATABASE_URL))
    return app.get("user") == owner.get("user")


@pytest.fixture
def app_role_connection() -> Iterator[psycopg.Connection[Any]]:
    """An autocommit connection to the test database as the runtime role (spades_app)."""
    if _same_role():
        pytest.skip("DATABASE_URL and DATABASE_OWNER_URL use the same role")
    url = os.environ.get("DATABASE_URL", DEFAULT_APP_DATABASE_URL)
    conninfo = make_conninfo(url, dbname=connection.settings_dict["NAME"])
    with psycopg.connect(conninfo, autocommit=True, connect_timeout=5) as conn:
        yield conn
