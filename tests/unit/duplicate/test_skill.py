"""The duplicate skill rating's update rules."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

from leagues.core.duplicate.skill import (
    DEFAULT_MODEL,
    PlayersOnBoard,
    Skill,
    TableOnBoard,
    rate,
    update_board,
    update_board_players,
)


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


# ---------------------------------------------------------------- per player


def test_per_player_with_one_player_a_side_is_the_partnership_update_to_the_bit() -> None:
    start = {"a": Skill(0.7, 1.3, 5), "b": Skill(-0.2, 0.9, 9)}
    tables = [TableOnBoard("a", "b", 140), TableOnBoard("c", "d", -30)]
    players = [PlayersOnBoard((t.north_south,), (t.east_west,), t.net) for t in tables]
    assert update_board_players(start, players, Fraction(70, 3)) == update_board(
        start, tables, Fraction(70, 3)
    )


@given(st.lists(st.integers(-300, 300), min_size=2, max_size=6), st.integers(-200, 200))
def test_partners_move_together_and_by_their_uncertainty(nets: list[int], par: int) -> None:
    tables = [
        PlayersOnBoard((f"n{i}", f"s{i}"), (f"e{i}", f"w{i}"), net) for i, net in enumerate(nets)
    ]
    after = update_board_players({}, tables, Fraction(par))
    # Equal newcomers: partners move alike, the board is zero-sum, every player counted.
    assert abs(sum(s.mu for s in after.values())) < 1e-9
    for i in range(len(nets)):
        assert after[f"n{i}"] == after[f"s{i}"] and after[f"e{i}"] == after[f"w{i}"]
        assert after[f"n{i}"].boards == 1
    # A settled partner (small sigma) moves less than a new one.
    uneven = update_board_players(
        {"n0": Skill(0.0, 0.5, 50)}, tables, Fraction(par) if par else Fraction(1)
    )
    assert abs(uneven["n0"].mu) <= abs(uneven["s0"].mu) + 1e-12
    assert uneven["n0"].sigma < uneven["s0"].sigma
