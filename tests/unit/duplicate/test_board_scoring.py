"""Board scoring: prorated bags, matchpoints, the IMP-like scale, team matches."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

from games.engine.rules import PRESETS
from leagues.core.duplicate.board_scoring import (
    IMP_BANDS,
    MAX_IMPS,
    datums,
    imps,
    matchpoints,
    score_board,
    team_match,
    top,
    traveller,
)
from scoring.core.hand_score import score_team

STANDARD = PRESETS["standard"]


def test_a_bag_costs_its_share_of_the_penalty() -> None:
    # N 4 + S 3 = 7 taken 9: 70 + 2 bags at -9 = 52. E 4 + W 0 (nil made), took 4: 40 + 100.
    score = score_board(STANDARD, [4, 4, 3, 0], [False] * 4, [5, 4, 4, 0])
    assert score.north_south.points == 70 + 2 - 20 and score.north_south.bag_cost == 20
    assert score.east_west.points == 140
    assert score.net == 52 - 140
    bicycle = PRESETS["bicycle"]
    assert score_board(bicycle, [4, 4, 3, 0], [False] * 4, [5, 4, 4, 0]).north_south.points == 52


def test_ten_bags_on_one_board_are_prorated_not_a_lump() -> None:
    score = score_board(STANDARD, [1, 1, 1, 1], [False] * 4, [13, 0, 0, 0])
    # North-South: contract 2 made with 11 over: 20 + 11 - 110.
    assert score.north_south.points == 20 + 11 - 110
    assert score.east_west.points == -20


def test_a_failed_nil_counts_at_face_value_and_its_tricks_are_bags() -> None:
    score = score_board(STANDARD, [0, 3, 4, 3], [False] * 4, [2, 3, 5, 3])
    # North nil failed (-100), South 4 took 5: 40, bags 1 + North's 2 = 3 at -9.
    assert score.north_south.points == -100 + 40 + 3 - 30


bids = st.lists(st.integers(0, 13), min_size=4, max_size=4)


@st.composite
def tricks(draw: st.DrawFn) -> list[int]:
    cuts = sorted(draw(st.lists(st.integers(0, 13), min_size=3, max_size=3)))
    return [cuts[0], cuts[1] - cuts[0], cuts[2] - cuts[1], 13 - cuts[2]]


@given(bids, tricks(), st.sampled_from(sorted(PRESETS)))
def test_board_score_is_the_preset_score_less_prorated_bags(
    bid: list[int], took: list[int], preset: str
) -> None:
    rules = PRESETS[preset]
    if not rules.nil:
        bid = [max(1, b) for b in bid]
    score = score_board(rules, bid, [False] * 4, took)
    for team, side in ((0, score.north_south), (1, score.east_west)):
        free = score_team(
            rules.__class__(**{**rules.to_dict(), "bag_penalty": False}),
            team,
            bid,
            [False] * 4,
            took,
            0,
            0,
        )
        assert side.points == free.hand_score - (10 * free.bags if rules.bag_penalty else 0)


nets = st.lists(st.integers(-400, 400), min_size=1, max_size=12)


@given(nets)
def test_matchpoints(values: list[int]) -> None:
    points = matchpoints(values)
    n = len(values)
    assert sum(points) == n * (n - 1)  # every comparison hands out 2
    assert all(0 <= p <= top(n) for p in points)
    for a, pa in zip(values, points, strict=True):
        for b, pb in zip(values, points, strict=True):
            if a > b:
                assert pa > pb
            if a == b:
                assert pa == pb
    assert matchpoints(values[::-1]) == points[::-1]


def test_matchpoints_by_hand() -> None:
    assert matchpoints([50, -20, 50, 10]) == [5, 0, 5, 2]


@given(st.integers(-2000, 2000), st.integers(0, 2000))
def test_imps_are_odd_monotone_and_capped(d: int, e: int) -> None:
    assert imps(-d) == -imps(d)
    assert imps(abs(d) + e) >= imps(abs(d))
    assert abs(imps(d)) <= MAX_IMPS


def test_imp_bands_by_hand() -> None:
    assert [imps(d) for d in (0, 9, 10, 19, 20, 49, 50, 99, 100, 200, 449, 450, 5000)] == [
        0,
        0,
        1,
        1,
        2,
        3,
        4,
        5,
        6,
        8,
        11,
        12,
        12,
    ]
    assert imps(Fraction(19, 2)) == 0 and imps(Fraction(-21, 2)) == -1
    assert [low for low, _ in IMP_BANDS] == sorted(low for low, _ in IMP_BANDS)


@given(nets)
def test_traveller_lines_add_up(values: list[int]) -> None:
    lines = traveller([(i + 1, 2 * i + 1, 2 * i + 2, net) for i, net in enumerate(values)])
    assert all(line.matchpoints_ns + line.matchpoints_ew == top(len(values)) for line in lines)
    assert all(line.imps_ew == -line.imps_ns for line in lines)
    if len(values) == 1:
        assert datums(values) == [None] and lines[0].imps_ns == 0


def test_datum_leaves_the_table_out() -> None:
    assert datums([100, 0, 50]) == [25, 75, 50]
    line = traveller([(1, 1, 2, 100), (2, 3, 4, 0)], par_net=Fraction(40))[0]
    assert line.imps_ns == imps(100) == 6
    assert line.as_dict()["imps_against_par"] == imps(60) == 4


@given(st.lists(st.tuples(st.integers(-400, 400), st.integers(-400, 400)), max_size=16))
def test_team_match_is_symmetric(boards: list[tuple[int, int]]) -> None:
    match = team_match(boards)
    mirrored = team_match([(b, a) for a, b in boards])
    assert (match.team_a, match.team_b) == (mirrored.team_b, mirrored.team_a)
    assert {match.winner, mirrored.winner} in ({None}, {"a", "b"})


def test_team_match_by_hand() -> None:
    # Board 1: A's NS net +72 at table 1, A's EW net at table 2 is -(-28): swing 100 = 6.
    match = team_match([(72, -28), (-40, -40), (-30, 20)])
    assert match.board_imps == (6, 0, -4) and (match.team_a, match.team_b, match.winner) == (
        6,
        4,
        "a",
    )
