"""The table API's requests do not queue behind one another in one web process
(``services.http_threads``: a pool of threads, each request whole in one): while a command
waits on PostgreSQL (its table's row locked by this test), the same daphne answers another
table's read, and the waiting command then completes once the lock is released. (Django's
own ASGI handler, a new thread per request, passed this too; the pool must not lose it.)
"""

from __future__ import annotations

import http.client
import json
import threading
from typing import Any

from django.db import connection, transaction

from tests.integration.live.conftest import Processes, new_user, token_for, wait_until
from tests.integration.live.test_connection_load import waiting_table


def call(port: int, method: str, path: str, token: str | None = None) -> tuple[int, Any]:
    client = http.client.HTTPConnection("127.0.0.1", port, timeout=20)
    headers = {"Content-Type": "application/json", "Host": "127.0.0.1"}
    if token is not None:
        headers["Authorization"] = f"Token {token}"
    try:
        client.request(method, path, body=b"{}" if method == "POST" else None, headers=headers)
        response = client.getresponse()
        return response.status, json.loads(response.read() or b"null")
    finally:
        client.close()


def test_a_read_is_answered_while_a_command_waits_on_the_database(
    live_db: Any, processes: Processes
) -> None:
    player, other = new_user("threads"), new_user("threads")
    blocked_table, free_table = waiting_table(player), waiting_table(other)
    token = token_for(player)
    _, port = processes.web()
    assert call(port, "GET", f"/api/tables/{free_table}")[0] == 200  # the process is warm

    answers: dict[str, tuple[int, Any]] = {}
    with transaction.atomic():
        # The command's append updates this row in the same statement: it waits for us.
        cursor = connection.cursor()
        cursor.execute("SELECT 1 FROM games_table WHERE id = %s FOR UPDATE", [blocked_table])
        command = threading.Thread(
            target=lambda: answers.__setitem__(
                "command",
                call(port, "POST", f"/api/tables/{blocked_table}/seats/south/take", token),
            )
        )
        command.start()

        def command_waits() -> bool:
            cursor.execute(
                "SELECT 1 FROM pg_stat_activity WHERE wait_event_type = 'Lock' "
                "AND datname = current_database()"
            )
            return cursor.fetchone() is not None

        wait_until(command_waits, 20, "the command never reached the locked row")
        status, body = call(port, "GET", f"/api/tables/{free_table}")
        assert status == 200 and body["id"] == free_table
        assert "command" not in answers  # still waiting on our lock
    command.join(20)
    status, body = answers["command"]
    assert status == 200, body
