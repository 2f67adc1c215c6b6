"""The process entry points start for real and serve what they should."""

from __future__ import annotations

import json
import urllib.request
import uuid

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from tests.integration.live.conftest import Processes


def test_web_serves_health_and_refuses_a_websocket_with_a_bad_token(processes: Processes) -> None:
    _, port = processes.web()

    with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/health", timeout=5) as response:
        assert response.status == 200
        assert json.load(response)["status"] == "ok"

    url = f"ws://127.0.0.1:{port}/ws/tables/{uuid.uuid4()}/?token=not-a-token"
    with connect(url, origin=f"http://127.0.0.1:{port}", open_timeout=5) as socket:
        refusal = json.loads(socket.recv(timeout=5))
        assert refusal["type"] == "error"
        assert refusal["code"] == "not_authenticated"
        with pytest.raises(ConnectionClosed) as closed:
            socket.recv(timeout=5)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 4401


def test_bad_token_is_refused_not_downgraded(processes: Processes) -> None:
    _, port = processes.web()
    url = f"ws://127.0.0.1:{port}/ws/tables/{uuid.uuid4()}/?token=not-a-token"
    with connect(url, origin=f"http://127.0.0.1:{port}", open_timeout=5) as socket:
        refusal = json.loads(socket.recv(timeout=5))
        assert refusal["code"] == "not_authenticated"
        assert "token" in refusal["message"]
