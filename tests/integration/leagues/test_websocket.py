"""``ws/competitions/<id>/``: the standings on connect and after every change, anonymous
allowed; an unknown competition is refused. Real Redis channel layer, real PostgreSQL
(committed: the consumer reads in its own thread), Channels' communicator in-process."""

from __future__ import annotations

import uuid
from typing import Any

from asgiref.sync import async_to_sync, sync_to_async
from channels.testing import WebsocketCommunicator

from eventstore.subscriptions import catch_up
from leagues.projections import official_standings
from leagues.services.streams import load
from services.asgi import application
from tests.integration.leagues import builders as lg
from tests.integration.live.conftest import new_user

ORIGIN = (b"origin", b"http://127.0.0.1")


def communicator(competition_id: str) -> WebsocketCommunicator:
    return WebsocketCommunicator(
        application, f"/ws/competitions/{competition_id}/", headers=[ORIGIN]
    )


def new_swiss(organiser: Any) -> str:
    state = lg.create_competition(
        organiser, {"name": "Pushed Swiss", "stages": [{"kind": "swiss", "rounds": 2}]}
    )
    for number in range(1, 5):
        lg.enter(
            organiser,
            state.competition_id,
            entrant_id=f"e{number}",
            players=[str(new_user("ws-player").pk), str(new_user("ws-player").pk)],
        )
    return state.competition_id


def record_round_one(organiser: Any, cid: str) -> int:
    """Pair round 1, North-South wins every board; the stream's version after."""
    lg.pair_next_round(organiser, cid)
    for pairing in load(cid).paired_round(1).pairing.matches:  # type: ignore[union-attr]
        lg.record_result(
            organiser,
            cid,
            round_number=1,
            board=pairing.board,
            points={"north_south": 120, "east_west": 30},
            winner="north_south",
        )
    return load(cid).version


def test_anonymous_subscribers_get_the_standings_then_every_change(live_db: Any) -> None:
    organiser = new_user("ws-organiser")
    cid = new_swiss(organiser)
    catch_up(official_standings)

    async def scenario() -> tuple[dict[str, Any], list[dict[str, Any]], int]:
        socket = communicator(cid)
        connected, _ = await socket.connect()
        assert connected
        first = await socket.receive_json_from(10)
        version = await sync_to_async(record_round_one)(organiser, cid)
        # The projection (here in this process) sends standings.changed after its commit.
        await sync_to_async(catch_up)(official_standings)
        pushed = [await socket.receive_json_from(10)]
        while pushed[-1]["version"] < version:
            pushed.append(await socket.receive_json_from(10))
        await socket.send_json_to({"after": 1})
        refusal = await socket.receive_json_from(5)
        await socket.disconnect()
        return first, [*pushed, refusal], version

    first, messages, version = async_to_sync(scenario)()
    assert first["type"] == "standings"
    assert first["standings"]["competition_id"] == cid
    assert first["standings"]["rounds"] == 0
    assert all(row["match_points"] == 0 for row in first["standings"]["standings"]["rows"])
    *pushed, refusal = messages
    versions = [message["version"] for message in pushed]
    assert versions == sorted(set(versions)) and versions[0] > first["version"]
    last = pushed[-1]
    assert last["version"] == version
    assert last["standings"]["closed_rounds"] == [1]
    points = sorted(row["match_points"] for row in last["standings"]["standings"]["rows"])
    assert points == [0, 0, 2, 2]
    assert refusal["type"] == "error" and refusal["code"] == "read_only"


def test_an_unknown_competition_is_refused(live_db: Any) -> None:
    async def scenario(competition_id: str) -> tuple[dict[str, Any], Any]:
        socket = communicator(competition_id)
        connected, _ = await socket.connect()
        assert connected
        message = await socket.receive_json_from(5)
        closed = await socket.receive_output(5)
        return message, closed

    for competition_id in (str(uuid.uuid4()), "not-a-uuid"):
        message, closed = async_to_sync(scenario)(competition_id)
        assert message["type"] == "error"
        assert message["code"] == "unknown_competition"
        assert closed == {"type": "websocket.close", "code": 4404}


def test_a_lost_notice_is_made_good_by_the_safety_sweep(live_db: Any, settings: Any) -> None:
    """No projection runs here, so no ``standings.changed`` is sent: the web process's
    safety sweep still brings the subscriber the new document."""
    settings.WS_SAFETY_SWEEP_SECONDS = 0.2
    organiser = new_user("ws-resync")
    cid = new_swiss(organiser)

    async def scenario() -> tuple[dict[str, Any], dict[str, Any], int]:
        socket = communicator(cid)
        connected, _ = await socket.connect()
        assert connected
        first = await socket.receive_json_from(10)
        version = await sync_to_async(record_round_one)(organiser, cid)
        pushed = await socket.receive_json_from(10)
        await socket.disconnect()
        return first, pushed, version

    first, pushed, version = async_to_sync(scenario)()
    assert pushed["type"] == "standings"
    assert pushed["version"] == version > first["version"]
    assert pushed["standings"]["projected"] is False  # computed from the stream
    assert pushed["standings"]["closed_rounds"] == [1]
