"""Issue 19 (a page polling a 404): a round is recorded as started (``RoundStarted``, its
table ids) before its tables are created, so for a moment the public page's boards name
tables that do not exist. Reproduced by a start cut short between the two: the round's
tables read says which exist (none yet), so the page shows them as being set up instead
of reading a table that answers 404; completing the start creates them, the read says
ready and the competition's socket says so (``{"type": "tables"}``). Real PostgreSQL
(committed), real Redis channel layer, the consumer in-process."""

from __future__ import annotations

from typing import Any

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from rest_framework.test import APIClient

from leagues.services import tables as round_tables
from leagues.services.streams import load
from leagues.services.tables import start_round
from tests.integration.leagues import builders as lg
from tests.integration.live.conftest import new_user

from .test_websocket import communicator, new_swiss


class Crash(Exception):
    pass


def start_cut_short(organiser: Any, cid: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Round 1 recorded as started; the process dies before creating any table."""

    def crash(*_args: Any, **_kwargs: Any) -> int:
        raise Crash

    lg.pair_next_round(organiser, cid)
    with monkeypatch.context() as patched:
        patched.setattr(round_tables, "_open_tables", crash)
        with pytest.raises(Crash):
            start_round(organiser, cid, 1)


def test_a_started_round_says_which_tables_exist_and_the_socket_says_when_all_do(
    live_db: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    organiser = new_user("setup-organiser")
    cid = new_swiss(organiser)
    start_cut_short(organiser, cid, monkeypatch)
    state = load(cid)
    assert 1 in state.started and state.tables[1]
    client = APIClient()

    # What the page read before: a table of the started round, not there yet.
    some_table = next(iter(state.tables[1].values()))
    assert client.get(f"/api/tables/{some_table}").status_code == 404
    # What it reads now: every board, none ready.
    before = client.get(f"/api/competitions/{cid}/rounds/1/tables")
    assert before.status_code == 200, before.content
    assert before.json()["started"] is True
    assert [t["ready"] for t in before.json()["tables"]] == [False] * len(state.tables[1])

    async def scenario() -> dict[str, Any]:
        socket = communicator(cid)
        connected, _ = await socket.connect()
        assert connected
        first = await socket.receive_json_from(10)
        assert first["type"] == "standings"
        # The start completed (as the scheduler or the organiser's retry does).
        await sync_to_async(start_round)(organiser, cid, 1)
        message: dict[str, Any] = await socket.receive_json_from(10)
        while message["type"] != "tables":
            message = await socket.receive_json_from(10)
        await socket.disconnect()
        return message

    assert async_to_sync(scenario)() == {"type": "tables", "round": 1}
    after = client.get(f"/api/competitions/{cid}/rounds/1/tables").json()
    assert all(t["ready"] for t in after["tables"])
    for table in after["tables"]:
        assert client.get(f"/api/tables/{table['table_id']}").status_code == 200


def test_the_round_tables_read_refuses_an_unpaired_round(live_db: Any) -> None:
    cid = new_swiss(new_user("setup-organiser"))
    answer = APIClient().get(f"/api/competitions/{cid}/rounds/3/tables")
    assert answer.status_code == 404
    assert answer.json()["message"] == "Round 3 has not been paired."
