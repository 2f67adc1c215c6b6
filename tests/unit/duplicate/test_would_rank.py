"""Where a board played again would have ranked (``board_scoring.would_rank``): worked
examples, the East-West mirror, and the property that it agrees with the traveller."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from leagues.core.duplicate.board_scoring import imps, matchpoints, would_rank


def test_a_worked_example_from_north_south() -> None:
    rank = would_rank([100, 40, 40, -20], 40, "north_south", Fraction(10))
    # beats -20 (2), ties the two 40s (1 + 1), loses to 100: 4 of 8
    assert (rank.matchpoints, rank.top, rank.place) == (4, 8, 2)
    assert rank.imps == imps(40 - 40)  # datum (100 + 40 + 40 - 20) / 4 = 40
    assert rank.imps_against_par == imps(30)


def test_east_west_sees_the_nets_from_its_side() -> None:
    rank = would_rank([100, 40, -20], -50, "east_west", Fraction(10))
    # East-West's net 50 against 100 -> -100, -40, 20: it beats all three
    assert (rank.net, rank.matchpoints, rank.place) == (50, 6, 1)
    assert rank.imps == imps(50 - Fraction(-120, 3))
    assert rank.imps_against_par == imps(60)


def test_a_bad_direction_is_refused() -> None:
    with pytest.raises(ValueError, match="direction"):
        would_rank([0], 0, "north")


@given(st.lists(st.integers(-500, 500), min_size=1, max_size=12), st.integers(-500, 500))
def test_it_scores_as_one_more_table_of_the_traveller_would(field: list[int], net: int) -> None:
    rank = would_rank(field, net, "north_south")
    assert rank.matchpoints == matchpoints([*field, net])[-1]
    east_west = would_rank(field, net, "east_west")
    assert east_west.matchpoints == rank.top - rank.matchpoints
    assert east_west.imps == -rank.imps
