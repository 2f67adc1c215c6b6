"""``ws/tables/<id>/``: every event exactly once, in order, filtered for the viewer, and a
client that drops its connection is brought up to date. Real Redis channel layer, real
Celery worker process, real PostgreSQL; Channels' communicator in-process, and a real
WebSocket client against daphne (``services.web``) in a child process."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from asgiref.sync import async_to_sync, sync_to_async
from channels.testing import WebsocketCommunicator
from django.db import connection
from django.test import Client
from websockets.sync.client import connect

from eventstore.signals import events_committed
from games.live.fanout import on_events_committed
from games.selectors.visibility import events_for_viewer
from games.services import table_commands
from games.services.table_commands import HandSeatToBot, StartGame, TakeSeat, execute
from services.asgi import application
from tests.integration.live.conftest import (
    SEAT_NAMES,
    SHORT_RULES,
    Processes,
    create_table,
    human_move,
    new_user,
    table_row,
    token_for,
    wait_until,
)

ORIGIN = (b"origin", b"http://127.0.0.1")


def communicator(
    table_id: str, *, token: str | None = None, cookie: str | None = None, after: int | None = None
) -> WebsocketCommunicator:

    query = []
    if token is not None:
        query.append(f"token={token}")
    if after is not None:
        query.append(f"after={after}")
    path = f"/ws/tables/{table_id}/" + ("?" + "&".join(query) if query else "")
    headers = [ORIGIN]
    if cookie is not None:
        headers.append((b"cookie", cookie.encode()))
    return WebsocketCommunicator(application, path, headers=headers)


def session_cookie(user: Any) -> str:
    client = Client()
    client.force_login(user)
    return f"sessionid={client.cookies['sessionid'].value}"


def shows_finished(message: dict[str, Any]) -> bool:
    return bool(message.get("table", {}).get("status") == "finished")


def is_error(code: str) -> Callable[[dict[str, Any]], bool]:
    return lambda message: message["type"] == "error" and message["code"] == code


async def receive_until(
    socket: WebsocketCommunicator, timeout: float, *awaited: Callable[[dict[str, Any]], bool]
) -> list[dict[str, Any]]:
    """Every message until each of ``awaited`` has matched one of them (in any order: a
    reply to the client and the table's own updates race each other)."""
    messages: list[dict[str, Any]] = []
    pending = list(awaited)
    deadline = time.monotonic() + timeout
    while pending:
        message = await socket.receive_json_from(timeout=max(0.1, deadline - time.monotonic()))
        messages.append(message)
        pending = [condition for condition in pending if not condition(message)]
    return messages


async def receive_until_finished(
    socket: WebsocketCommunicator, timeout: float
) -> list[dict[str, Any]]:
    """Every message until one shows the table finished."""
    return await receive_until(socket, timeout, shows_finished)


def check_stream(messages: list[dict[str, Any]], start: int) -> list[int]:
    """The messages chain (each ``after`` is the previous ``version``); returns the event
    versions in the order received."""
    versions: list[int] = []
    last = start
    for message in messages:
        assert message["type"] == "events", message
        assert message["after"] == last, f"gap: after {message['after']} but last {last}"
        assert message["version"] > last
        for event in message["events"]:
            assert last < event["version"] <= message["version"]
            versions.append(event["version"])
        assert message["table"]["version"] == message["version"]
        last = message["version"]
    return versions


def assert_no_hidden_cards(messages: list[dict[str, Any]], seat: str | None) -> None:
    """Nothing a seat may not know: no deck before a hand is over, no one else's cards."""
    for message in messages:
        hand = message["table"]["hand"]
        if hand is not None and hand["phase"] != "complete":
            assert hand["revealed"] is None
        if seat is None:
            assert hand is None or "you" not in hand
        elif hand is not None:
            assert hand["you"]["seat"] == seat
        for event in message["events"]:
            if event["type"] == "HandDealt" and "deck" in event["data"]:
                # Only a finished hand's deal is public; this one is shown with its hand over.
                assert message["table"]["hand"]["number"] > event["data"]["hand_number"] or (
                    message["table"]["hand"]["phase"] == "complete"
                )
            if seat is None:
                assert "your_cards" not in event["data"]


def test_communicators_get_every_event_once_in_order_filtered_for_their_seat(
    live_db: Any, processes: Processes
) -> None:

    processes.worker()
    human = new_user()
    spectator = new_user("spectator")
    table_id = create_table(human, humans={"north": human}, start=False)
    north_token, watcher_cookie = token_for(human), session_cookie(spectator)

    async def scenario() -> tuple[list[Any], list[Any], int]:
        north = communicator(table_id, token=north_token)
        watcher = communicator(table_id, cookie=watcher_cookie)
        for socket in (north, watcher):
            connected, _ = await socket.connect()
            assert connected
        states = [await north.receive_json_from(5), await watcher.receive_json_from(5)]
        assert all(s["type"] == "state" for s in states)
        assert (
            states[0]["table"]["your_seat"] == "north" and states[1]["table"]["your_seat"] is None
        )
        start = states[0]["version"]

        await sync_to_async(execute)(StartGame(table_id, first_dealer="north"), human)
        for _ in range(6):
            await sync_to_async(wait_until)(
                lambda: (r := table_row(table_id)).seat_to_act == 0 or r.status != "playing",
                30,
                "north's turn",
            )
            await sync_to_async(human_move)(table_id, human, 0)
        await sync_to_async(execute)(HandSeatToBot(table_id, "north", level="easy"), human)
        north_messages = await receive_until_finished(north, 90)
        watcher_messages = await receive_until_finished(watcher, 90)
        for socket in (north, watcher):
            await socket.disconnect()
        return north_messages, watcher_messages, start

    north_messages, watcher_messages, start = async_to_sync(scenario)()

    for messages, viewer, seat in (
        (north_messages, human, "north"),
        (watcher_messages, spectator, None),
    ):
        received = check_stream(messages, start)
        expected = [e["version"] for e in events_for_viewer(table_id, viewer, after_version=start)]
        assert received == expected  # every event, exactly once, in order
        assert_no_hidden_cards(messages, seat)
    final = table_row(table_id)
    assert north_messages[-1]["version"] == watcher_messages[-1]["version"] == final.version


def test_a_client_that_reconnects_with_after_is_brought_up_to_date(
    live_db: Any, processes: Processes
) -> None:
    processes.worker()
    viewer = new_user("viewer")
    table_id = create_table(new_user(), start=False)
    token = token_for(viewer)

    async def scenario() -> tuple[int, list[Any], list[Any], list[Any]]:

        first = communicator(table_id, token=token)
        assert (await first.connect())[0]
        start = (await first.receive_json_from(5))["version"]
        creator = await sync_to_async(lambda: table_row(table_id).created_by)()
        await sync_to_async(execute)(StartGame(table_id, first_dealer="north"), creator)
        before_drop = [await first.receive_json_from(10) for _ in range(5)]
        await first.disconnect()  # dropped; the bots play on
        dropped_at = before_drop[-1]["version"]
        await sync_to_async(wait_until)(
            lambda: table_row(table_id).version > dropped_at + 20, 30, "the game to move on"
        )
        second = communicator(table_id, token=token, after=dropped_at)
        assert (await second.connect())[0]
        # A bad request is answered, and the connection stays usable. The catch-up can
        # already bring the finished table, before the reply: wait for both.
        await second.send_to(text_data="{not json")
        after_drop = await receive_until(second, 90, shows_finished, is_error("bad_request"))
        errors = [m for m in after_drop if m["type"] == "error"]
        assert [e["code"] for e in errors] == ["bad_request"]
        after_drop = [m for m in after_drop if m["type"] != "error"]
        # Asking again for what came after a version replays exactly that.
        await second.send_json_to({"after": dropped_at})
        replay = await second.receive_json_from(10)
        await second.disconnect()
        return start, before_drop, after_drop, [replay]

    start, before_drop, after_drop, replay = async_to_sync(scenario)()

    received = check_stream(before_drop + after_drop, start)
    expected = [e["version"] for e in events_for_viewer(table_id, viewer, after_version=start)]
    assert received == expected
    assert replay[0]["after"] == before_drop[-1]["version"]
    assert [e["version"] for e in replay[0]["events"]] == [
        v for v in expected if v > before_drop[-1]["version"]
    ]


def test_a_real_client_against_daphne_gets_every_event_once_and_recovers(
    live_db: Any, processes: Processes
) -> None:
    processes.worker()
    _, port = processes.web()
    viewer = new_user("viewer")
    table_id = create_table(new_user(), start=False)
    url = f"ws://127.0.0.1:{port}/ws/tables/{table_id}/?token={token_for(viewer)}"
    origin = f"http://127.0.0.1:{port}"

    messages: list[dict[str, Any]] = []
    with connect(url, origin=origin, open_timeout=10) as socket:  # type: ignore[arg-type]
        state = json.loads(socket.recv(timeout=10))
        assert state["type"] == "state"
        start = state["version"]
        execute(StartGame(table_id, first_dealer="north"), table_row(table_id).created_by)
        while len(messages) < 5:
            messages.append(json.loads(socket.recv(timeout=10)))
    # The connection dropped; the game goes on; reconnect from the last version seen.
    wait_until(lambda: table_row(table_id).version > messages[-1]["version"] + 20, 30, "moves")
    with connect(
        f"{url}&after={messages[-1]['version']}", origin=origin, open_timeout=10
    ) as socket:  # type: ignore[arg-type]
        while messages[-1]["table"]["status"] != "finished":
            messages.append(json.loads(socket.recv(timeout=60)))

    received = check_stream(messages, start)
    expected = [e["version"] for e in events_for_viewer(table_id, viewer, after_version=start)]
    assert received == expected
    assert_no_hidden_cards(messages, None)


def test_a_lost_group_notice_is_repaired_by_the_safety_sweep(live_db: Any, settings: Any) -> None:

    settings.WS_SAFETY_SWEEP_SECONDS = 0.5
    creator, player = new_user(), new_user()
    seats = {name: {"kind": "human" if name == "south" else "bot"} for name in SEAT_NAMES}
    table_id = str(
        table_commands.create_table(actor=creator, rules=SHORT_RULES, seats=seats).table_id
    )
    token = token_for(player)

    async def scenario() -> tuple[dict[str, Any], dict[str, Any]]:
        socket = communicator(table_id, token=token)
        assert (await socket.connect())[0]
        state = await socket.receive_json_from(5)
        # The commit's notice never leaves this process (as if the layer dropped it).
        events_committed.disconnect(dispatch_uid="games.live.fanout")
        try:
            await sync_to_async(execute)(TakeSeat(table_id, "south"), player)
        finally:
            events_committed.connect(on_events_committed, dispatch_uid="games.live.fanout")
        repaired = await socket.receive_json_from(5)
        await socket.disconnect()
        return state, repaired

    state, repaired = async_to_sync(scenario)()
    assert repaired["type"] == "events" and repaired["after"] == state["version"]
    assert [e["type"] for e in repaired["events"]] == ["SeatTaken"]
    assert repaired["table"]["your_seat"] == "south"


def test_a_spectator_without_a_token_is_let_in_and_sees_no_hand(live_db: Any) -> None:
    # A human seat keeps the table waiting, so the spectator's view is of a hand in play.
    player = new_user("watched")
    table_id = create_table(new_user("host"), humans={"south": player})

    async def watch() -> dict[str, Any]:
        socket = communicator(table_id)
        connected, _ = await socket.connect()
        assert connected
        try:
            return await socket.receive_json_from(timeout=10)
        finally:
            await socket.disconnect()

    first = async_to_sync(watch)()

    assert first["type"] == "state"
    assert first["table"]["your_seat"] is None
    assert_no_hidden_cards([{**first, "events": []}], None)


def test_a_bad_token_is_refused_not_downgraded_to_a_spectator(live_db: Any) -> None:
    table_id = create_table(new_user("host2"), humans={"south": new_user("p2")})

    async def refused() -> tuple[dict[str, Any], Any]:
        socket = communicator(table_id, token="not-a-token")
        await socket.connect()
        message = await socket.receive_json_from(timeout=10)
        closed = await socket.receive_output(timeout=10)
        return message, closed

    message, closed = async_to_sync(refused)()

    assert message["code"] == "not_authenticated"
    assert closed["code"] == 4401


def test_json_nested_too_deeply_is_a_bad_request_and_the_socket_stays_open(
    live_db: Any,
) -> None:
    viewer = new_user("viewer")
    table_id = create_table(new_user(), start=False)
    token = token_for(viewer)

    async def scenario() -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
        socket = communicator(table_id, token=token)
        assert (await socket.connect())[0]
        state = await socket.receive_json_from(5)
        await socket.send_to(text_data="[" * 2000 + "]" * 2000)
        refused = await socket.receive_json_from(5)
        await socket.send_json_to({"after": 0})
        answered = await socket.receive_json_from(5)
        await socket.disconnect()
        return state, refused, answered

    state, refused, answered = async_to_sync(scenario)()
    assert refused["type"] == "error" and refused["code"] == "bad_request"
    assert answered["type"] == "events" and answered["after"] == 0
    assert answered["version"] == state["version"] == len(answered["events"])


def backend_pid() -> int:
    """This thread's PostgreSQL backend (connecting if needed)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        return int(cursor.fetchone()[0])


def close_connection() -> None:
    """Close this thread's connection (``connection.close`` would bind the caller's)."""
    connection.close()


def terminate_backend(pid: int) -> None:
    """End one backend of the test database and wait until it is gone."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE pid = %s AND datname = current_database() AND pid <> pg_backend_pid()",
            [pid],
        )
        assert cursor.fetchone() == (True,)

    def gone() -> bool:
        with connection.cursor() as cursor:
            cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE pid = %s", [pid])
            return cursor.fetchone() == (0,)

    wait_until(gone, 10, f"backend {pid} to exit")


def test_a_pool_thread_whose_connection_the_server_ended_reconnects_before_the_next_message(
    live_db: Any,
) -> None:
    viewer = new_user("viewer")
    table_id = create_table(new_user(), start=False)
    token = token_for(viewer)

    async def scenario() -> tuple[dict[str, Any], dict[str, Any], int, int]:
        # One pool thread, so the consumer's reads and these probes share its connection.
        pool = ThreadPoolExecutor(max_workers=1)
        loop = asyncio.get_running_loop()
        loop.set_default_executor(pool)
        try:
            socket = communicator(table_id, token=token)
            assert (await socket.connect())[0]
            state = await socket.receive_json_from(5)
            ended = await loop.run_in_executor(None, backend_pid)
            await sync_to_async(terminate_backend)(ended)
            await socket.send_json_to({"after": 0})
            answered = await socket.receive_json_from(10)
            serving = await loop.run_in_executor(None, backend_pid)
            await socket.disconnect()
            await loop.run_in_executor(None, close_connection)
            return state, answered, ended, serving
        finally:
            pool.shutdown(wait=True)

    state, answered, ended, serving = async_to_sync(scenario)()
    assert answered["type"] == "events" and answered["after"] == 0
    assert answered["version"] == state["version"]
    assert serving != ended  # the thread reconnected
