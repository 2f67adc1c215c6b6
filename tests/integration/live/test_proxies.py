"""Behind a trusted proxy (``TRUSTED_PROXIES``), every per-address limit counts the real
client: two clients behind one proxy are counted apart, and a header forged by a client
that is no trusted proxy changes nothing. HTTP (the API's login throttle per address) and
WebSocket (the connection cap per address) through a real daphne.

127.0.0.1 plays the trusted proxy; 127.0.0.2, on the same loopback, a client that talks to
the web directly and forges ``X-Forwarded-For``.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import socket
from collections.abc import Iterator
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from games.live.connection_limits import CLOSE_TOO_MANY_CONNECTIONS
from games.services import table_commands
from services.testing.processes import free_port, web_process
from tests.integration.live.conftest import SHORT_RULES, Processes, new_user

PROXY, CLIENT = "127.0.0.1", "127.0.0.2"


@pytest.fixture
def web(processes: Processes) -> int:
    """A web that trusts 127.0.0.1 as its proxy, with small per-address limits."""
    port = free_port()
    env = {
        **processes.env,
        "TRUSTED_PROXIES": PROXY,
        "THROTTLE_AUTH_IP": "3/min",
        "WS_CONNECTIONS_PER_ADDRESS": "2",
    }
    process = web_process(env, processes.log_dir, port)
    processes.started.append(process)
    process.start(timeout=60)
    return port


def login(port: int, source: str, forwarded_for: str) -> int:
    """A failed login (the per-address throttle counts it) from ``source``; its status."""
    connection = http.client.HTTPConnection(
        "127.0.0.1", port, timeout=10, source_address=(source, 0)
    )
    try:
        connection.request(
            "POST",
            "/api/auth/token",
            body=json.dumps({"username": "nobody", "password": "wrong"}),
            headers={"Content-Type": "application/json", "X-Forwarded-For": forwarded_for},
        )
        return connection.getresponse().status
    finally:
        connection.close()


def test_logins_behind_a_trusted_proxy_count_per_real_client(live_db: Any, web: int) -> None:
    assert [login(web, PROXY, "198.51.100.1") for _ in range(3)] == [400, 400, 400]
    assert login(web, PROXY, "198.51.100.1") == 429
    # Another client behind the same proxy has a count of its own.
    assert login(web, PROXY, "198.51.100.2") == 400
    # A proxy further out, trusted too, passes the client on.
    assert login(web, PROXY, "198.51.100.1, 127.0.0.1") == 429


def test_a_forged_header_from_an_untrusted_address_is_ignored(live_db: Any, web: int) -> None:
    statuses = [login(web, CLIENT, f"198.51.100.{n}") for n in range(10, 13)]

    assert statuses == [400, 400, 400]
    assert login(web, CLIENT, "198.51.100.99") == 429  # still 127.0.0.2's count
    assert login(web, PROXY, "198.51.100.99") == 400  # the real one has its own


@contextlib.contextmanager
def watching(
    port: int, table_id: str, source: str, forwarded_for: str
) -> Iterator[tuple[dict[str, Any], ClientConnection]]:
    """An anonymous socket on the table from ``source``: its first message, and it."""
    raw = socket.create_connection(("127.0.0.1", port), timeout=10, source_address=(source, 0))
    with connect(
        f"ws://127.0.0.1:{port}/ws/tables/{table_id}/",
        sock=raw,
        origin=f"http://127.0.0.1:{port}",  # type: ignore[arg-type]
        additional_headers={"X-Forwarded-For": forwarded_for},
        open_timeout=10,
    ) as live:
        yield json.loads(live.recv(timeout=10)), live


def refused(port: int, table_id: str, source: str, forwarded_for: str) -> bool:
    """Whether the socket is refused over the cap: the error, then close 4429."""
    with watching(port, table_id, source, forwarded_for) as (first, live):
        if first.get("code") != "too_many_connections":
            return False
        with pytest.raises(ConnectionClosed) as closed:
            live.recv(timeout=10)
    return closed.value.rcvd is not None and closed.value.rcvd.code == CLOSE_TOO_MANY_CONNECTIONS


def test_sockets_behind_a_trusted_proxy_count_per_real_client(live_db: Any, web: int) -> None:
    user = new_user("proxied")
    table_id = str(
        table_commands.create_table(
            actor=user,
            rules=SHORT_RULES,
            seats={seat: {"kind": "human"} for seat in ("north", "east", "south", "west")},
        ).table_id
    )
    with contextlib.ExitStack() as open_sockets:
        for forwarded_for in ("198.51.100.1", "198.51.100.1"):
            first, _ = open_sockets.enter_context(watching(web, table_id, PROXY, forwarded_for))
            assert first["type"] == "state"
        # The cap (2 per address) is the real client's, not the proxy's.
        assert refused(web, table_id, PROXY, "198.51.100.1")
        assert not refused(web, table_id, PROXY, "198.51.100.2")
        # From an untrusted address, made-up clients all count as that address.
        for forwarded_for in ("198.51.100.50", "198.51.100.51"):
            first, _ = open_sockets.enter_context(watching(web, table_id, CLIENT, forwarded_for))
            assert first["type"] == "state"
        assert refused(web, table_id, CLIENT, "198.51.100.52")
