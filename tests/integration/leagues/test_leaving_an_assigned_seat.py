"""A competition seat cannot be left before its game starts (games refuses
``seat_assigned`` at a table the system created): so the no-show handover always finds the
absent player's seat taken, and the sweep records one no-show and stops. Real PostgreSQL;
the sweep is called with an explicit ``now``."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from eventstore.reading import read_stream
from games.domain.streams import table_stream_id
from games.domain.table import TableState
from games.services import table_commands
from games.services.errors import CommandRejected
from games.services.table_commands import LeaveSeat
from leagues.domain import events as ev
from leagues.models import Competition
from leagues.services.presence import arrive
from leagues.services.schedule import run_due
from leagues.services.streams import load
from tests.integration.leagues import builders as lg

from .conftest import event_count

pytestmark = pytest.mark.django_db(transaction=True)

START = datetime(2030, 5, 4, 19, 30, tzinfo=UTC)
GRACE = 10  # minutes


def seats_of(cid: str) -> dict[str, Any]:
    users = get_user_model().objects
    return {seat: users.get(pk=int(p)) for seat, p in load(cid).seating(1, 1).items()}


def table_state(table_id: str) -> TableState:
    return TableState.fold(read_stream(table_stream_id(table_id)))


@pytest.mark.parametrize("bots", [True, False])
def test_a_competition_seat_cannot_be_left_and_the_no_show_is_recorded_once(
    organiser: Any, swiss: Any, bots: bool
) -> None:
    cid = swiss(
        2, rounds=1, round_starts=[START.isoformat()], grace_minutes=GRACE, bots_for_no_shows=bots
    )
    lg.pair_next_round(organiser, cid, round_number=1)
    run_due(START)
    table_id = load(cid).tables[1][1]
    seats = seats_of(cid)
    arrive(seats["north"], cid, 1)
    before = event_count()

    # Neither a player who arrived nor one who has not may stand up; nothing is written.
    client = Client()
    for seat in ("north", "west"):
        with pytest.raises(CommandRejected) as refused:
            table_commands.execute(LeaveSeat(table_id, seat), seats[seat])
        assert (refused.value.code, refused.value.status) == ("seat_assigned", 409)
        client.force_login(seats[seat])
        response = client.post(
            f"/api/tables/{table_id}/seats/{seat}/leave", {}, content_type="application/json"
        )
        assert response.status_code == 409
        assert response.json() == {
            "code": "seat_assigned",
            "message": f"{seat.capitalize()} was assigned to you for this match: "
            "it cannot be left before the game starts.",
        }
    assert event_count() == before
    assert all(player is not None for player in table_state(table_id).players)

    for seat in ("east", "south"):
        arrive(seats[seat], cid, 1)
    deadline = START + timedelta(minutes=GRACE)
    assert run_due(deadline) == 1
    no_shows = [e for e in lg.events_of(cid) if e.type == ev.NO_SHOW_RECORDED]
    assert [(e.data["seats"], e.data["bot"]) for e in no_shows] == [(["west"], bots)]
    table = table_state(table_id)
    if bots:
        # The bot took the absent player's seat and the game is on.
        assert (table.status, table.controller(3)) == ("playing", "bot")
    else:
        assert table.status == "abandoned"
    # Nothing left to do: the competition is no longer due, later sweeps do nothing.
    assert Competition.objects.get(id=cid).due_at is None
    after = event_count()
    for minutes in (1, 2, 60):
        assert run_due(deadline + timedelta(minutes=minutes)) == 0
    assert event_count() == after
