"""Round start times, presence at the table, grace time and no-shows, against the real
PostgreSQL; the scheduler's sweep is called with an explicit ``now`` (no waiting).

The same sweep run by the real Celery beat and worker is in test_round_schedule_live.py.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from django.test import Client

from eventstore.reading import read_stream
from eventstore.subscriptions import catch_up
from games.domain.streams import table_stream_id
from games.domain.table import TableState
from games.models import Table
from leagues.core.errors import LeagueError
from leagues.domain import events as ev
from leagues.models import Competition, OfficialStandings
from leagues.projections import official_standings
from leagues.services.presence import arrive, resolve_no_shows
from leagues.services.schedule import run_due
from leagues.services.streams import load
from leagues.services.tables import start_round
from tests.integration.leagues import builders as lg

from .conftest import event_count

pytestmark = pytest.mark.django_db(transaction=True)

START = datetime(2030, 5, 4, 19, 30, tzinfo=UTC)
GRACE = 10  # minutes


def load_state(table_id: str) -> TableState:
    return TableState.fold(read_stream(table_stream_id(table_id)))


def types_of(cid: str) -> list[str]:
    return [e.type for e in lg.events_of(cid)]


def user_of(pk: str) -> Any:
    from django.contrib.auth import get_user_model

    return get_user_model().objects.get(pk=int(pk))


@pytest.fixture
def scheduled(organiser: Any, swiss: Any) -> Any:
    """A 2-entrant Swiss (one board) whose round 1 starts at START, paired."""

    def make(**spec: Any) -> str:
        cid = swiss(2, rounds=1, round_starts=[START.isoformat()], grace_minutes=GRACE, **spec)
        lg.pair_next_round(organiser, cid, round_number=1)
        return cid

    return make


def seats_of(cid: str, number: int = 1, board: int = 1) -> dict[str, Any]:
    state = load(cid)
    return {seat: user_of(player) for seat, player in state.seating(number, board).items()}


def table_of(cid: str, number: int = 1, board: int = 1) -> str:
    return load(cid).tables[number][board]


def test_the_tables_open_at_the_start_time(scheduled: Any) -> None:
    cid = scheduled()
    assert Competition.objects.get(id=cid).due_at == START
    assert run_due(START - timedelta(seconds=1)) == 0
    assert 1 not in load(cid).started

    assert run_due(START) == 1
    state = load(cid)
    assert 1 in state.started
    assert state.opened_at[1] == START.isoformat()
    table = Table.objects.get(id=table_of(cid))
    # The players are seated (nobody else can take their seats), the game waits for them.
    assert table.status == "lobby"
    table_state = load_state(table_of(cid))
    assert sorted(str(p) for p in table_state.players) == sorted(state.seating(1, 1).values())
    started = [e for e in lg.events_of(cid) if e.type == ev.ROUND_STARTED]
    assert started[0].data["by"] == "schedule"
    assert started[0].metadata["actor"] == {"kind": "system", "name": "schedule"}
    # Next due: the end of the grace time.
    assert Competition.objects.get(id=cid).due_at == START + timedelta(minutes=GRACE)

    # A second sweep (a retried job, another worker) opens nothing again.
    before = event_count()
    assert run_due(START + timedelta(seconds=1)) == 0
    assert event_count() == before


def test_an_organiser_may_still_start_the_round_early(organiser: Any, scheduled: Any) -> None:
    cid = scheduled()
    early = START - timedelta(minutes=30)
    start_round(organiser, cid, 1, now=early)
    state = load(cid)
    assert state.opened_at[1] == early.isoformat()
    # Players were told START: their grace still runs from it.
    assert Competition.objects.get(id=cid).due_at == START + timedelta(minutes=GRACE)
    before = event_count()
    assert run_due(START) == 0  # nothing to open, and the grace is not over
    assert event_count() == before


def test_present_players_start_the_game_and_are_never_marked(scheduled: Any) -> None:
    cid = scheduled(bots_for_no_shows=True)
    run_due(START)
    for user in seats_of(cid).values():
        arrive(user, cid, 1)
    assert Table.objects.get(id=table_of(cid)).status == "playing"
    assert Competition.objects.get(id=cid).due_at is None
    before = event_count()
    # Arriving twice is a no-op.
    arrive(next(iter(seats_of(cid).values())), cid, 1)
    assert run_due(START + timedelta(hours=5)) == 0
    assert resolve_no_shows(cid, now=START + timedelta(hours=5)) == 0
    assert event_count() == before
    assert ev.NO_SHOW_RECORDED not in types_of(cid)
    table_state = load_state(table_of(cid))
    assert all(table_state.controller(seat) == "human" for seat in range(4))


def test_a_no_show_with_bots_allowed_gets_a_bot(scheduled: Any) -> None:
    cid = scheduled(bots_for_no_shows=True)
    run_due(START)
    seats = seats_of(cid)
    for seat in ("north", "east", "south"):
        arrive(seats[seat], cid, 1)
    assert Table.objects.get(id=table_of(cid)).status == "lobby"  # west is missing

    deadline = START + timedelta(minutes=GRACE)
    assert resolve_no_shows(cid, now=deadline - timedelta(seconds=1)) == 0
    assert run_due(deadline) == 1
    state = load(cid)
    record = state.no_show_of(1, 1)
    assert record is not None
    assert record["seats"] == ["west"]
    assert record["players"] == [str(seats["west"].pk)]
    assert (record["side"], record["bot"], record["level"]) == ("east_west", True, "normal")
    # The bot took the seat through the games service, and the game is on.
    table_state = load_state(table_of(cid))
    assert table_state.status == "playing"
    assert table_state.controller(3) == "bot"
    assert [table_state.controller(s) for s in range(3)] == ["human"] * 3
    # The table's event names the competition's director, not the absent player.
    handed = [e for e in read_stream(table_stream_id(table_of(cid))) if e.type == "SeatHandedToBot"]
    assert [(e.data["seat"], e.data["reason"]) for e in handed] == [("west", "absent")]
    assert handed[0].metadata["actor"]["kind"] == "system"
    # No forfeit: the match is played; the late player cannot arrive any more.
    assert ev.MATCH_FORFEITED not in types_of(cid)
    with pytest.raises(LeagueError) as refused:
        arrive(seats["west"], cid, 1)
    assert refused.value.code == "no_show_recorded"

    # Idempotent: sweeping again records nothing.
    before = event_count()
    assert run_due(deadline + timedelta(minutes=1)) == 0
    assert resolve_no_shows(cid, now=deadline + timedelta(minutes=1)) == 0
    assert event_count() == before


def test_the_table_result_of_a_bot_substitute_is_flagged(scheduled: Any) -> None:
    cid = scheduled(bots_for_no_shows=True)
    run_due(START)
    run_due(START + timedelta(minutes=GRACE))
    state = lg.record_table_result(
        cid,
        lg.TableResult(
            table_id=table_of(cid),
            round_number=1,
            board=1,
            points={"north_south": 120, "east_west": 40},
            winner="north_south",
            hands=5,
            bot_substitute=True,  # what the match-results projection sees at this table
        ),
    )
    result = state.results[-1]
    assert (result.bot_substitute, result.rated, result.forfeited_by) == (True, False, None)


@pytest.mark.parametrize(
    ("absent_seats", "forfeited_by", "winner"),
    [(["east"], "east_west", "north_south"), (["north", "east"], "both", None)],
)
def test_a_no_show_without_bots_is_a_forfeit_and_the_standings_count_it(
    scheduled: Any, absent_seats: list[str], forfeited_by: str, winner: str | None
) -> None:
    cid = scheduled()
    run_due(START)
    # Without bots for no-shows the tables have no turn timer: nobody is replaced.
    assert Table.objects.get(id=table_of(cid)).turn_timer_seconds is None
    for seat, user in seats_of(cid).items():
        if seat not in absent_seats:
            arrive(user, cid, 1)
    run_due(START + timedelta(minutes=GRACE))
    state = load(cid)
    record = state.no_show_of(1, 1)
    assert record is not None
    assert (record["side"], record["bot"]) == (forfeited_by, False)
    result = state.results[-1]
    assert (result.forfeited_by, result.no_show, result.winner) == (forfeited_by, True, winner)
    assert state.result_info[result.id].organiser is None
    assert 1 in state.closed and state.finished  # the only match of the only round
    assert Table.objects.get(id=table_of(cid)).status == "abandoned"

    catch_up(official_standings)
    rows = OfficialStandings.objects.get(competition_id=cid).document["standings"]["rows"]
    points = {row["entrant"]: row["match_points"] for row in rows}
    match = state.paired_round(1).pairing.matches[0]  # type: ignore[union-attr]
    ns, ew = match.north_south, match.east_west
    if winner is None:
        assert points == {ns: 0, ew: 0}  # a double forfeit: both lose
    else:
        assert points == {ns: 2, ew: 0}


def test_arriving_is_for_a_player_of_an_open_table(
    organiser: Any, scheduled: Any, players: Any
) -> None:
    cid = scheduled()
    seats = seats_of(cid)
    with pytest.raises(LeagueError) as refused:
        arrive(seats["north"], cid, 1)
    assert refused.value.code == "round_not_started"
    run_due(START)
    before = event_count()
    (stranger,) = players(1)
    with pytest.raises(LeagueError) as refused:
        arrive(stranger, cid, 1)
    assert refused.value.code == "not_playing"
    assert event_count() == before

    # Through the API: the player's own session, 200; an anonymous one, 401 {code, message}.
    client = Client()
    client.force_login(seats["north"])
    response = client.post(
        f"/api/competitions/{cid}/rounds/1/arrive", {}, content_type="application/json"
    )
    assert response.status_code == 200, response.content
    assert response.json()["arrived"] == {"1": ["north"]}
    again = client.post(
        f"/api/competitions/{cid}/rounds/1/arrive", {"x": 1}, content_type="application/json"
    )
    assert again.status_code == 400
    anonymous = Client().post(
        f"/api/competitions/{cid}/rounds/1/arrive", {}, content_type="application/json"
    )
    assert anonymous.status_code == 401
    assert anonymous.json()["code"] == "not_signed_in"
    rounds = Client().get(f"/api/competitions/{cid}/rounds").json()["rounds"]
    assert rounds[0]["starts_at"] == START.isoformat()
    assert rounds[0]["grace_ends_at"] == (START + timedelta(minutes=GRACE)).isoformat()
    assert rounds[0]["matches"][0]["arrived"] == ["north"]


def test_a_forfeit_entered_by_the_organiser_names_the_absent_players(
    organiser: Any, scheduled: Any
) -> None:
    cid = scheduled()
    lg.record_forfeit(
        organiser, cid, round_number=1, board=1, forfeited_by="north_south", no_show=True
    )
    record = load(cid).no_show_of(1, 1)
    assert record is not None
    assert record["seats"] == ["north", "south"]
    assert record["bot"] is False


def test_two_workers_at_once_record_one_no_show(scheduled: Any) -> None:
    """Two sweeps at the same moment (two workers took the job): one NoShowRecorded, the
    bot handed the seat once."""
    import threading

    from django.db import connection

    cid = scheduled(bots_for_no_shows=True)
    run_due(START)
    seats = seats_of(cid)
    for seat in ("north", "south", "west"):
        arrive(seats[seat], cid, 1)
    deadline = START + timedelta(minutes=GRACE)
    gate = threading.Barrier(2)
    counts: list[int] = []
    problems: list[BaseException] = []

    def sweep() -> None:
        try:
            gate.wait(timeout=30)
            counts.append(resolve_no_shows(cid, now=deadline))
        except BaseException as error:  # reported below, in the test's thread
            problems.append(error)
        finally:
            connection.close()

    workers = [threading.Thread(target=sweep) for _ in range(2)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(timeout=60)
    assert not problems, problems
    assert sorted(counts) == [0, 1]
    assert types_of(cid).count(ev.NO_SHOW_RECORDED) == 1
    table_events = [e.type for e in read_stream(table_stream_id(table_of(cid)))]
    assert table_events.count("SeatHandedToBot") == 1
    assert table_events.count("GameStarted") == 1


def test_nobody_checks_in_where_bots_play_every_seat(swiss: Any) -> None:
    cid = swiss(2, rounds=1, bot_level="easy")
    state = load(cid)
    player = next(iter(state.entrants.values())).players[0]
    before = event_count()
    with pytest.raises(LeagueError) as refused:
        arrive(user_of(player), cid, 1)
    assert refused.value.code == "bots_play"
    assert event_count() == before
