"""Opening a competition table checks the player in, however they got there (a bookmark,
"My games", a reconnect): the table socket announces a seated player
(``games.live.presence``) and leagues records the arrival. Through the real consumer
(Channels' communicator), the real Redis channel layer and the real PostgreSQL
(committed: the consumer reads in its own threads)."""

from __future__ import annotations

from typing import Any

from asgiref.sync import async_to_sync
from channels.testing import WebsocketCommunicator
from django.contrib.auth import get_user_model

from eventstore.reading import read_stream
from games.domain.streams import table_stream_id
from games.live.presence import is_seated_in_lobby
from games.models import Table
from leagues.models import CompetitionTable
from leagues.services.presence import arrive, arrive_at_owned_table
from leagues.services.streams import load
from leagues.services.tables import start_round
from services.asgi import application
from tests.integration.leagues import builders as lg
from tests.integration.live.conftest import create_table, new_user, token_for, wait_until

ORIGIN = (b"origin", b"http://127.0.0.1")


def open_round() -> tuple[str, str, dict[str, Any]]:
    """A one-board Swiss whose round 1 is open: (competition, table, seat -> user)."""
    organiser = new_user("arrival-organiser")
    cid = lg.create_competition(
        organiser,
        {
            "name": "Arrivals",
            "stages": [{"kind": "swiss", "rounds": 1}],
            "rules": {"preset": "standard", "target_score": 100, "lose_score": -100},
            "grace_minutes": 10,
        },
    ).competition_id
    for number in (1, 2):
        players = [str(new_user("arrival-player").pk) for _ in range(2)]
        lg.enter(organiser, cid, entrant_id=f"e{number}", players=players)
    lg.pair_next_round(organiser, cid, round_number=1)
    start_round(organiser, cid, 1)
    state = load(cid)
    users = {str(u.pk): u for u in _users(state.seating(1, 1).values())}
    seats = {seat: users[player] for seat, player in state.seating(1, 1).items()}
    return cid, state.tables[1][1], seats


def _users(ids: Any) -> list[Any]:
    return list(get_user_model().objects.filter(pk__in=[int(i) for i in ids]))


def arrived(cid: str) -> set[str]:
    """The seats of board 1 whose players have arrived."""
    state = load(cid)
    here = state.arrived.get(1, {}).get(1, ())
    return {seat for seat, player in state.seating(1, 1).items() if player in here}


def socket_of(table_id: str, token: str, after: int | None = None) -> WebsocketCommunicator:
    query = f"?token={token}" + (f"&after={after}" if after is not None else "")
    return WebsocketCommunicator(application, f"/ws/tables/{table_id}/{query}", headers=[ORIGIN])


def first_document(table_id: str, token: str) -> dict[str, Any]:
    """The table socket's first document, opened as ``token``; the socket closes once it
    has answered a second message, so its connect (and any arrival) has finished."""

    async def open_once() -> dict[str, Any]:
        socket = socket_of(table_id, token)
        assert (await socket.connect())[0]
        first: dict[str, Any] = await socket.receive_json_from(10)
        # Messages are handled one at a time: this answer comes after connect finished.
        await socket.send_json_to({"after": first["version"]})
        await socket.receive_json_from(10)
        await socket.disconnect()
        return first

    return async_to_sync(open_once)()


def test_the_fourth_player_opening_the_table_arrives_and_starts_the_game(live_db: Any) -> None:
    cid, table_id, seats = open_round()
    for seat in ("north", "east", "south"):
        arrive(seats[seat], cid, 1)
    version = Table.objects.get(id=table_id).version
    token = token_for(seats["west"])

    async def scenario() -> dict[str, Any]:
        # As the play page reconnects: the events after the version it has.
        socket = socket_of(table_id, token, after=version)
        assert (await socket.connect())[0]
        try:
            while True:
                message = await socket.receive_json_from(15)
                assert message["type"] != "error", message
                if message["table"]["status"] == "playing":
                    return message
        finally:
            await socket.disconnect()

    started = async_to_sync(scenario)()

    assert started["table"]["your_seat"] == "west"
    assert arrived(cid) == {"north", "east", "south", "west"}
    assert Table.objects.get(id=table_id).status == "playing"


def test_a_player_opening_the_table_is_checked_in_once(live_db: Any) -> None:
    cid, table_id, seats = open_round()
    token = token_for(seats["north"])

    assert first_document(table_id, token)["table"]["status"] == "lobby"
    wait_until(lambda: arrived(cid) == {"north"}, 10, "north checked in by opening the table")
    version = load(cid).version

    # Opening it again (another tab, a reconnect) records nothing more.
    assert first_document(table_id, token)["table"]["status"] == "lobby"
    assert load(cid).version == version
    assert arrived(cid) == {"north"}


def test_the_round_knows_its_tables_before_any_player_is_seated(live_db: Any) -> None:
    """The table ids derive from their command ids, so ``RoundStarted`` and the table
    index commit before any table exists: no socket can announce a seated player at a
    table the competition does not know yet (the race the announcement used to repeat
    for is gone)."""
    cid, table_id, _seats = open_round()
    started = next(e for e in lg.events_of(cid) if e.type == "RoundStarted")
    table_events = read_stream(table_stream_id(table_id))
    assert started.position < table_events[0].position
    assert table_events[0].data["owner"] == {
        "kind": "competition",
        "id": cid,
        "round": 1,
        "board": 1,
    }
    assert CompetitionTable.objects.filter(table_id=table_id, competition_id=cid).exists()


def test_a_spectator_of_a_competition_table_does_not_check_anyone_in(live_db: Any) -> None:
    cid, table_id, _seats = open_round()
    token = token_for(new_user("arrival-stranger"))

    assert first_document(table_id, token)["table"]["your_seat"] is None
    assert arrived(cid) == set()


def test_another_table_is_never_announced_and_costs_nothing(
    live_db: Any, django_assert_num_queries: Any
) -> None:
    player = new_user("arrival-casual")
    table_id = create_table(player, humans={"north": player}, start=False)
    view = first_document(table_id, token_for(player))["table"]
    assert view["your_seat"] == "north" and view["owner"] is None
    assert not is_seated_in_lobby(view)  # the socket sends no announcement at all
    with django_assert_num_queries(0):
        assert arrive_at_owned_table(player, None) is None
        assert arrive_at_owned_table(player, {"kind": "club-night", "id": "x"}) is None
