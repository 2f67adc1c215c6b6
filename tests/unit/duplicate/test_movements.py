"""Movements: every partnership plays each board at most once, every board held both ways."""

from __future__ import annotations

from collections import Counter, defaultdict

import pytest
from hypothesis import given
from hypothesis import strategies as st

from leagues.core.duplicate.movements import (
    MOVEMENTS,
    Seating,
    mitchell,
    mitchell_rounds,
    movement,
    partnerships,
    teams_of_four,
)
from leagues.core.errors import LeagueError


def check_common(schedule: tuple[Seating, ...], tables: int, boards: int) -> None:
    # Each partnership plays each board at most once, never against itself.
    played = Counter((p, s.board) for s in schedule for p in (s.north_south, s.east_west))
    assert max(played.values()) == 1
    assert all(s.north_south != s.east_west for s in schedule)
    # Every board at every table once, and one table at a time for each partnership.
    assert Counter((s.table, s.board) for s in schedule) == {
        (t, b): 1 for t in range(1, tables + 1) for b in range(1, boards + 1)
    }
    seats = defaultdict(set)
    for s in schedule:
        seats[(s.round, s.north_south)].add(s.table)
        seats[(s.round, s.east_west)].add(s.table)
    assert all(len(at) == 1 for at in seats.values())
    # The same pair of partnerships meets in one round at most.
    meetings = defaultdict(set)
    for s in schedule:
        meetings[frozenset((s.north_south, s.east_west))].add(s.round)
    assert all(len(rounds) == 1 for rounds in meetings.values())


@given(st.integers(1, 10).map(lambda m: 2 * m), st.integers(1, 24))
def test_teams_of_four_each_team_holds_each_board_once_each_way(matches2: int, boards: int) -> None:
    schedule = teams_of_four(matches2, boards)
    check_common(schedule, matches2, boards)

    def team(p: int) -> int:
        return (p + 1) // 2

    for board in range(1, boards + 1):
        ns = Counter(team(s.north_south) for s in schedule if s.board == board)
        ew = Counter(team(s.east_west) for s in schedule if s.board == board)
        assert set(ns.values()) == {1} and ns.keys() == ew.keys()
        assert len(ns) == matches2  # every team
    for s in schedule:  # opponents are the other team of the same match
        assert (team(s.north_south) + 1) // 2 == (team(s.east_west) + 1) // 2


@given(st.integers(1, 20), st.integers(1, 30), st.booleans())
def test_mitchell_every_board_held_each_way_by_the_field(
    tables: int, boards: int, switch: bool
) -> None:
    schedule = mitchell(tables, boards, arrow_switch=switch)
    check_common(schedule, tables, boards)
    assert partnerships(schedule) <= set(range(1, 2 * tables + 1))
    for board in range(1, boards + 1):
        ns = {s.north_south for s in schedule if s.board == board}
        ew = {s.east_west for s in schedule if s.board == board}
        assert len(ns) == len(ew) == tables  # >= 2 whenever the field has 2 tables
    if switch and mitchell_rounds(tables, boards) >= 2:
        directions = defaultdict(set)
        for s in schedule:
            directions[s.north_south].add("ns")
            directions[s.east_west].add("ew")
        assert all(d == {"ns", "ew"} for d in directions.values())


def test_a_four_table_mitchell_by_hand() -> None:
    schedule = mitchell(4, 8)
    round2 = [(s.table, s.north_south, s.east_west) for s in schedule if s.board == 3]
    assert round2 == [(1, 1, 6), (2, 2, 7), (3, 3, 8), (4, 4, 5)]


def test_teams_change_opponents_at_half_time() -> None:
    schedule = teams_of_four(2, 4)
    assert [(s.round, s.table, s.board, s.north_south, s.east_west) for s in schedule[:2]] == [
        (1, 1, 1, 1, 3),
        (1, 2, 1, 4, 2),
    ]
    assert [(s.north_south, s.east_west) for s in schedule if s.board == 4] == [(1, 4), (3, 2)]


@pytest.mark.parametrize(
    "call",
    [
        lambda: teams_of_four(3, 8),
        lambda: teams_of_four(0, 8),
        lambda: mitchell(4, 8, rounds=5),
        lambda: mitchell(4, 9, rounds=2),
        lambda: mitchell(129, 8),
        lambda: movement("howell"),
    ],
)
def test_refusals(call: object) -> None:
    with pytest.raises(LeagueError):
        call()  # type: ignore[operator]


def test_every_offered_movement_is_named() -> None:
    assert set(MOVEMENTS) == {"teams_of_four", "mitchell", "mitchell_arrow_switch"}
