"""The duplicate skill rating's update rules."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

from leagues.core.duplicate.skill import DEFAULT_MODEL, Skill, TableOnBoard, rate, update_board


def test_a_lone_table_without_par_teaches_nothing() -> None:
    after = update_board({}, [TableOnBoard("a", "b", 120)], None)
    assert after["a"] == after["b"] == Skill()


def test_beating_par_moves_north_south_up_and_east_west_down() -> None:
    after = update_board({}, [TableOnBoard("a", "b", 120)], Fraction(20))
    assert after["a"].mu > 0 > after["b"].mu
    assert after["a"].mu == -after["b"].mu
    assert after["a"].sigma < DEFAULT_MODEL.sigma0 and after["a"].boards == 1


@given(st.lists(st.integers(-300, 300), min_size=2, max_size=8), st.integers(-200, 200))
def test_a_board_is_zero_sum_for_equal_newcomers_and_order_free(nets: list[int], par: int) -> None:
    tables = [TableOnBoard(f"ns{i}", f"ew{i}", net) for i, net in enumerate(nets)]
    after = update_board({}, tables, Fraction(par))
    assert abs(sum(s.mu for s in after.values())) < 1e-9
    assert update_board({}, tables[::-1], Fraction(par)) == after
    best = max(range(len(nets)), key=lambda i: nets[i])
    assert after[f"ns{best}"].mu >= max(after[f"ns{i}"].mu for i in range(len(nets))) - 1e-9


def test_the_better_partnership_rises_over_boards() -> None:
    boards = []
    for board in range(40):
        swing = 60 if board % 3 else -20  # "a" beats the field most of the time
        boards.append(([TableOnBoard("a", "x", swing), TableOnBoard("b", "y", 0)], Fraction(0)))
    ratings = rate(boards)
    assert ratings["a"].mu > ratings["b"].mu and ratings["a"].mu > 0 > ratings["x"].mu
    assert ratings["a"].sigma < 1.0
