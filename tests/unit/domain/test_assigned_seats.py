"""Seats the platform assigned (a table the system created, like a competition's): a
player cannot leave theirs before the game starts; at a player's own table they can."""

from __future__ import annotations

import pytest

from games.domain import decisions as d
from games.domain.errors import TableRefusal
from games.domain.table import TableState
from tests.unit.domain.tables import lobby

NORTH = 0


def table(created_by: int | None) -> TableState:
    state = lobby(created_by=created_by)
    d.decide_take_seat(state, d.ActorRef("user", 7), NORTH)
    return state


def test_an_assigned_seat_cannot_be_left_before_the_game_starts() -> None:
    state = table(created_by=None)
    version = state.version
    with pytest.raises(TableRefusal) as refused:
        d.decide_leave_seat(state, d.ActorRef("user", 7), NORTH)
    assert (refused.value.code, refused.value.status) == ("seat_assigned", 409)
    assert "North was assigned to you" in str(refused.value)
    assert state.players[NORTH] == 7 and state.version == version


def test_someone_else_still_hears_that_it_is_not_their_seat() -> None:
    state = table(created_by=None)
    with pytest.raises(TableRefusal) as refused:
        d.decide_leave_seat(state, d.ActorRef("user", 8), NORTH)
    assert refused.value.code == "not_your_seat"


def test_at_a_players_own_table_the_seat_may_be_left() -> None:
    state = table(created_by=7)
    d.decide_leave_seat(state, d.ActorRef("user", 7), NORTH)
    assert state.players[NORTH] is None
