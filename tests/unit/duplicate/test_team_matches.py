"""Team-of-four matches (issue 20, point 2: "a team-of-four match is scored by the
difference on each board"): ``board_scoring.team_match`` against an independent scorer
of the documented IMP table, its antisymmetry and totals, and ``session.team_matches`` /
``duplicate_standings`` on stage-seated (the platform's) and movement-seated rounds:
each board compared within its match's two rooms, team A the open room's North-South and
the closed room's East-West partnership, the match won by more IMPs and ranked first.
"""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from leagues.core.duplicate.board_scoring import team_match
from leagues.core.duplicate.movements import teams_of_four
from leagues.core.duplicate.session import (
    BoardResult,
    DuplicateSettings,
    DuplicateState,
    compared,
    duplicate_standings,
    team_matches,
)

# The IMP table of docs/leagues.md ("Board scoring"), written out again here: a difference
# of at least the left number is worth the right one.
DOCUMENTED = [
    (450, 12),
    (350, 11),
    (280, 10),
    (220, 9),
    (170, 8),
    (130, 7),
    (100, 6),
    (70, 5),
    (50, 4),
    (30, 3),
    (20, 2),
    (10, 1),
]


def my_imps(difference: int) -> int:
    size = abs(difference)
    value = next((points for lowest, points in DOCUMENTED if size >= lowest), 0)
    return value if difference >= 0 else -value


nets = st.integers(-700, 700)
boards = st.lists(st.tuples(nets, nets), min_size=1, max_size=36)


@given(boards)
def test_team_match_is_the_documented_table_board_by_board(played: list[tuple[int, int]]) -> None:
    match = team_match(played)
    expected = [my_imps(open_net - closed_net) for open_net, closed_net in played]
    assert list(match.board_imps) == expected
    a = sum(x for x in expected if x > 0)
    b = sum(-x for x in expected if x < 0)
    assert (match.team_a, match.team_b) == (a, b)
    assert match.winner == (None if a == b else "a" if a > b else "b")


@given(boards)
def test_team_match_is_antisymmetric_and_adds_up(played: list[tuple[int, int]]) -> None:
    match = team_match(played)
    swapped = team_match([(closed_net, open_net) for open_net, closed_net in played])
    assert swapped.board_imps == tuple(-x for x in match.board_imps)
    assert (swapped.team_a, swapped.team_b) == (match.team_b, match.team_a)
    assert swapped.winner == {"a": "b", "b": "a", None: None}[match.winner]
    assert match.team_a - match.team_b == sum(match.board_imps)
    assert match.team_a + match.team_b == sum(abs(x) for x in match.board_imps)
    assert all(abs(x) <= 12 for x in match.board_imps)


def test_team_match_by_hand() -> None:
    # +100 (6), -10 (1 to B), 0, +5 (0): 6 to 1, team A wins.
    match = team_match([(120, 20), (-10, 0), (30, 30), (5, 0)])
    assert match.board_imps == (6, -1, 0, 0)
    assert (match.team_a, match.team_b, match.winner) == (6, 1, "a")
    assert team_match([(10, 0), (0, 10)]).winner is None


NO_BIDS = (3, 3, 3, 3)
NO_BLIND = (False, False, False, False)


def result(rnd: int, table: int, board: int, ns: str, ew: str, net: int) -> BoardResult:
    # The scorer reads the nets only; the hands are a placeholder.
    return BoardResult(rnd, table, board, ns, ew, NO_BIDS, NO_BLIND, NO_BIDS, net, 0)


@st.composite
def stage_rounds(draw: Any) -> tuple[DuplicateState, list[str]]:
    """A stage-seated teams-of-four competition: each round an even number of tables,
    seated from a shuffle of the entrants, every table playing every board."""
    tables = draw(st.sampled_from([2, 4, 6]))
    entrants = [f"E{n}" for n in range(2 * tables)]
    per_round = draw(st.integers(1, 4))
    results = []
    for rnd in range(1, draw(st.integers(1, 3)) + 1):
        seated = draw(st.permutations(entrants))
        for table in range(1, tables + 1):
            ns, ew = seated[2 * table - 2], seated[2 * table - 1]
            for board in range(1, per_round + 1):
                results.append(result(rnd, table, board, ns, ew, draw(nets)))
    pinned = DuplicateSettings("teams_of_four", 0, 0, per_round, seating="stages")
    return DuplicateState(pinned, (), tuple(results)), entrants


@settings(max_examples=60, deadline=None)
@given(stage_rounds(), st.sampled_from(["matchpoints", "imps"]))
def test_stage_seated_matches_compare_the_two_rooms_only(
    drawn: tuple[DuplicateState, list[str]], scale: str
) -> None:
    state, entrants = drawn
    by_key = {(r.round, r.table, r.board): r for r in state.results}
    # Every board is compared with the other room of its match only.
    for line in compared(state):
        r = line.result
        other = by_key[(r.round, r.table + (1 if r.table % 2 else -1), r.board)]
        assert line.top == 2 and line.group == (r.table + 1) // 2
        assert line.matchpoints_ns == 2 * (r.net > other.net) + (r.net == other.net)
        assert line.imps_ns == my_imps(r.net - other.net)
    # One match per round and pair of tables, team A = open NS + closed EW.
    matches = team_matches(state)
    rounds = {r.round for r in state.results}
    tables = max(r.table for r in state.results)
    assert [(m.round, m.match) for m in matches] == [
        (rnd, m) for rnd in sorted(rounds) for m in range(1, tables // 2 + 1)
    ]
    imps_of: dict[str, int] = dict.fromkeys(entrants, 0)
    points: dict[str, int] = dict.fromkeys(entrants, 0)
    for m in matches:
        opened = next(r for r in state.results if (r.round, r.table) == (m.round, 2 * m.match - 1))
        closed = next(r for r in state.results if (r.round, r.table) == (m.round, 2 * m.match))
        assert m.team_a == (opened.north_south, closed.east_west)
        assert m.team_b == (opened.east_west, closed.north_south)
        margin = m.score.team_a - m.score.team_b
        for entrant in m.team_a:
            imps_of[entrant] += margin
            points[entrant] += 2 if margin > 0 else 1 if margin == 0 else 0
        for entrant in m.team_b:
            imps_of[entrant] -= margin
            points[entrant] += 2 if margin < 0 else 1 if margin == 0 else 0
    table = duplicate_standings(state, entrants, "", scale)
    rows = {row.entrant: row for row in table.rows}
    for entrant in entrants:
        # Within a match a partnership's IMPs against the other room are its team's.
        assert rows[entrant].imps == imps_of[entrant]
        assert rows[entrant].team is not None and rows[entrant].team["points"] == points[entrant]
    # Ranked by team points first, then the scale's total; equal both: a shared place.
    keys = [(-row.team["points"], -getattr(row, scale)) for row in table.rows if row.team]
    assert keys == sorted(keys)
    assert sum(row.team["points"] for row in table.rows if row.team) == 4 * len(matches)
    assert table.as_dict()["team_matches"] == [m.as_dict() for m in matches]


@settings(max_examples=30, deadline=None)
@given(st.sampled_from([2, 4]), st.integers(2, 6), st.data())
def test_a_movement_seated_match_is_its_two_halves_under_fixed_teams(
    tables: int, total: int, data: Any
) -> None:
    slots = {slot: f"P{slot}" for slot in range(1, 2 * tables + 1)}
    results = tuple(
        result(s.round, s.table, s.board, slots[s.north_south], slots[s.east_west], data.draw(nets))
        for s in teams_of_four(tables, total)
    )
    pinned = DuplicateSettings("teams_of_four", tables, 2, (total + 1) // 2)
    state = DuplicateState(pinned, (), results)
    matches = team_matches(state)
    assert [(m.round, m.match) for m in matches] == [(0, m) for m in range(1, tables // 2 + 1)]
    for m in matches:
        a, b = 2 * m.match - 1, 2 * m.match  # the movement's teams
        assert m.team_a == (f"P{2 * a - 1}", f"P{2 * a}")
        assert m.team_b == (f"P{2 * b - 1}", f"P{2 * b}")
        assert len(m.boards) == total  # both halves, every board in both rooms
    table = duplicate_standings(state, list(slots.values()), "lots")
    assert all(row.team is not None for row in table.rows)
    assert [row.team["points"] for row in table.rows if row.team] == sorted(
        (row.team["points"] for row in table.rows if row.team), reverse=True
    )


def test_another_movement_has_no_team_matches() -> None:
    pinned = DuplicateSettings("mitchell", 0, 0, 1, seating="stages")
    state = DuplicateState(
        pinned, (), (result(1, 1, 1, "A", "B", 10), result(1, 2, 1, "C", "D", 0))
    )
    assert team_matches(state) == []
    table = duplicate_standings(state, ["A", "B", "C", "D"], "")
    assert table.team_matches is None and "team_matches" not in table.as_dict()
    assert all(row.team is None and "team" not in row.as_dict() for row in table.rows)
