"""Abandoning tables: the creator's command, and the scheduler's job for idle all-bot
tables (``TableAbandoned``); an abandoned table stops and frees its quota."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from eventstore.reading import read_stream
from games.domain import events as ev
from games.models import Table
from games.services.errors import CommandRejected
from games.services.idle_tables import abandon_idle_bot_tables
from games.services.table_commands import AbandonTable, create_table, execute
from games.services.table_state import forget, reading_state
from tests.factories import TableFactory

pytestmark = pytest.mark.django_db

ALL_BOTS = {seat: {"kind": "bot"} for seat in ("north", "east", "south", "west")}


def events_of(table: Any) -> list[Any]:
    return read_stream(f"table-{table.id}")


def test_the_creator_abandons_an_all_bot_table_and_it_stops(users: dict[int, Any]) -> None:
    table = TableFactory(creator=users[0], seats=ALL_BOTS, started=True)

    result = execute(AbandonTable(table.id), users[0])

    [event] = result.events
    assert (event.type, event.data) == (
        ev.TABLE_ABANDONED,
        {"reason": "creator", "user_id": users[0].pk},
    )
    assert event.schema_version == 1
    table.refresh_from_db()
    assert (table.status, table.seat_to_act, table.acting_seats) == ("abandoned", None, [])
    forget(table.id)
    with reading_state(table.id) as state:  # the stream folds with the new event
        assert state.status == "abandoned" and not state.bot_to_act()


def test_abandoning_frees_the_all_bot_quota(users: dict[int, Any], settings: Any) -> None:
    settings.SPADES_MAX_BOT_TABLES_PER_USER = 1
    first = create_table(actor=users[0], seats=ALL_BOTS)
    with pytest.raises(CommandRejected) as refused:
        create_table(actor=users[0], seats=ALL_BOTS)
    assert refused.value.status == 429

    execute(AbandonTable(first.table_id), users[0])

    assert not create_table(actor=users[0], seats=ALL_BOTS).duplicate


def test_only_the_creator_abandons_and_only_an_open_table_without_other_players(
    users: dict[int, Any],
) -> None:
    lobby = TableFactory(creator=users[0], players={"north": users[1]})
    before = len(events_of(lobby))
    with pytest.raises(CommandRejected) as stranger:
        execute(AbandonTable(lobby.id), users[2])
    assert (stranger.value.status, stranger.value.code) == (403, "not_allowed")
    with pytest.raises(CommandRejected) as seated:
        execute(AbandonTable(lobby.id), users[0])
    assert (seated.value.status, seated.value.code) == (409, "players_seated")
    assert len(events_of(lobby)) == before

    alone = TableFactory(creator=users[0], seats=ALL_BOTS)
    execute(AbandonTable(alone.id), users[0])
    with pytest.raises(CommandRejected) as again:
        execute(AbandonTable(alone.id), users[0])
    assert (again.value.status, again.value.code) == (409, "not_open")


def test_the_scheduler_abandons_only_idle_all_bot_tables(
    users: dict[int, Any], settings: Any
) -> None:
    settings.SPADES_BOT_TABLE_IDLE_SECONDS = 600
    idle_bots = TableFactory(creator=users[0], seats=ALL_BOTS, started=True)
    idle_lobby = TableFactory(creator=users[1], seats=ALL_BOTS)
    with_a_person = TableFactory(
        creator=users[2], seats={"east": "bot", "south": "bot", "west": "bot"}
    )
    later = timezone.now() + timedelta(seconds=601)

    assert abandon_idle_bot_tables(now=timezone.now()) == 0  # none is idle yet
    assert abandon_idle_bot_tables(now=later) == 2

    statuses = dict(Table.objects.values_list("id", "status"))
    assert statuses[idle_bots.id] == statuses[idle_lobby.id] == "abandoned"
    assert statuses[with_a_person.id] == "lobby"
    last = events_of(idle_bots)[-1]
    assert (last.type, last.data) == (ev.TABLE_ABANDONED, {"reason": "idle", "user_id": None})
    assert last.metadata["actor"] == {"kind": "system", "name": "scheduler"}
    assert abandon_idle_bot_tables(now=later) == 0  # already abandoned
