"""The duplicate benchmark's pure pieces on a synthetic pool (nothing timed, no bots)."""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

import pytest

from benchmarks.duplicate import (
    FIELD_PAIRS,
    LEVELS,
    LUCK_BUDGET,
    PAIRS,
    QUICK,
    boards_to_order,
    field_figures,
    hard_noise,
    level_edge,
    luck_board,
    luck_report,
    parse_args,
    same_level_report,
    season,
    variance_ratio,
)

STRENGTH = {"hard": 30, "normal": 10, "easy": -20}


def pool(boards: int, noise: int) -> list[dict[str, Any]]:
    rng = random.Random(7)
    out = []
    for _ in range(boards):
        cards = rng.randint(-150, 150)  # what the cards give North-South on this board
        nets = {
            (ns, ew): cards + STRENGTH[ns] - STRENGTH[ew] + rng.randint(-noise, noise)
            for ns, ew in PAIRS
        }
        out.append({"nets": nets, "par": Fraction(cards)})
    return out


def test_clear_skill_orders_the_levels_quickly() -> None:
    needed, shares = boards_to_order(pool(24, 0), seasons=20, max_boards=48, seed="t")
    assert needed["duplicate_skill"] == 12
    assert set(shares) == {"duplicate_skill", "openskill_matches"}


def test_a_season_answers_for_both_ratings() -> None:
    assert len(season(pool(12, 40), 24, random.Random(1))) == 2


def test_duplicate_removes_the_cards_share_of_the_variance() -> None:
    figures = variance_ratio(pool(60, 20))
    assert figures["variance_ratio_with_hard"] < 0.5 and figures["with_hard_boards"] == 60
    assert (
        figures["variance_ratio_with_hard_nine_tables"] < figures["variance_ratio_with_hard"] + 0.2
    )
    assert LEVELS[0] == "hard"
    assert figures["hard_play_noise_share"] is None  # a pool without par plays


def field(boards: int, cards_spread: int, noise: int) -> list[dict[str, list[int]]]:
    """Synthetic Easy/Normal field: what the cards give, plus each table's own noise."""
    rng = random.Random(3)
    out = []
    for _ in range(boards):
        cards = rng.randint(-cards_spread, cards_spread)
        nets = {}
        for ns, ew in FIELD_PAIRS:
            table = cards + rng.randint(-noise, noise)
            nets[f"{ns}-{ew}"] = [table, table]  # deterministic players: a replay repeats
        out.append(nets)
    return out


def test_the_luck_report_separates_the_cards_from_the_rest() -> None:
    mostly_cards = luck_report(field(400, 150, 10))
    assert mostly_cards["variance_ratio_mixed_levels"] < 0.1
    assert mostly_cards["mixed_levels_cards_share"] > 0.95
    assert mostly_cards["play_noise_share"] == {"normal": 0.0, "easy": 0.0}
    assert mostly_cards["variance_ratio_mixed_levels_field"]["boards"] == 400
    # No card effect at all: the datum only adds its own noise, (1 + 1/3) of the raw.
    no_cards = luck_report(field(2000, 0, 100))
    assert abs(no_cards["variance_ratio_mixed_levels"] - 4 / 3) < 0.1
    assert no_cards["mixed_levels_cards_share"] < 0.05
    assert abs(no_cards["variance_ratio_mixed_levels_floor_infinite_field"] - 1) < 0.05
    assert "variance_ratio" not in no_cards  # the issue's name is the same-level field's


def same_level(boards: int, tables: int, cards_sd: float, noise_sd: float) -> list[list[int]]:
    """A synthetic same-level field: what the cards give, plus each table's play noise."""
    rng = random.Random(11)
    out = []
    for _ in range(boards):
        cards = rng.gauss(0, cards_sd)
        out.append([round(cards + rng.gauss(0, noise_sd)) for _ in range(tables)])
    return out


def test_a_field_of_equal_tables_leaves_no_luck() -> None:
    figures = field_figures(same_level(400, 4, 120, 0))
    assert figures["ratio"] == 0.0 and figures["against_field_sd"] == 0.0
    assert figures["cards_share"] == 1.0 and figures["floor"] == 0.0


@pytest.mark.parametrize("tables", [4, 6])
def test_without_a_board_effect_the_ratio_is_n_over_n_minus_one(tables: int) -> None:
    """The datum of n-1 other tables adds 1/(n-1) of a table's variance to its own."""
    figures = field_figures(same_level(3000, tables, 0, 100))
    assert abs(figures["ratio"] - tables / (tables - 1)) < 0.05
    assert figures["cards_share"] < 0.03 and abs(figures["floor"] - 1) < 0.03


def test_the_ratio_is_the_play_noise_share_times_n_over_n_minus_one() -> None:
    # Play noise 60 against the cards' 120: a share of 3600 / (3600 + 14400) = 0.2.
    figures = field_figures(same_level(4000, 4, 120, 60))
    assert abs(figures["floor"] - 0.2) < 0.03
    assert abs(figures["ratio"] - 0.2 * 4 / 3) < 0.04


def test_a_field_needs_the_same_two_or_more_tables_on_every_board() -> None:
    with pytest.raises(ValueError):
        field_figures([[1, 2], [3, 4, 5]])
    with pytest.raises(ValueError):
        field_figures([[1], [2]])


def test_the_same_level_report_is_the_issue_s_variance_ratio_and_names_its_field() -> None:
    report = same_level_report(same_level(400, 5, 120, 60), 2000)
    assert report["variance_ratio"] == round(field_figures(same_level(400, 5, 120, 60))["ratio"], 3)
    field_ = report["variance_ratio_field"]
    assert field_["level"] == "hard" and field_["version"].startswith("hard-")
    assert (field_["playout_budget"], field_["tables"], field_["boards"]) == (2000, 5, 400)
    assert 0 < report["variance_ratio_play_noise_share"] < 0.5


def test_a_luck_board_is_played_at_every_table_and_repeats() -> None:
    nets = luck_board(("t", 0, 2, 100, 3))
    assert len(nets) == 2 and all(isinstance(net, int) for net in nets)
    assert luck_board(("t", 0, 2, 100, 3)) == nets
    assert same_level_report([nets, [0, 10]], 100, 2)["variance_ratio_field"]["version"] == (
        "hard-2"
    )


def test_the_level_edge_compares_two_levels_in_the_same_seat_on_the_same_cards() -> None:
    # Hard North-South nets 30 more than Normal in its seat, against every opponent;
    # East-West, Hard concedes 10 less than Normal: edges of +30 (3 IMPs) and +10 (1 IMP).
    nets = {}
    for other in ("hard", "normal", "easy"):
        nets[("hard", other)] = 50
        nets[("normal", other)] = 20
        nets[(other, "hard")] = -40
        nets[(other, "normal")] = -30
    nets[("hard", "hard")], nets[("hard", "normal")] = 50, 20  # both rules on these two
    edge = level_edge([{"nets": nets}, {"nets": nets}], "hard", "normal")
    assert edge["comparisons"] == 12
    points = [nets[("hard", o)] - nets[("normal", o)] for o in ("hard", "normal", "easy")] + [
        nets[(o, "normal")] - nets[(o, "hard")] for o in ("hard", "normal", "easy")
    ]
    assert edge["points_mean"] == round(sum(points) / 6, 2)
    assert parse_args([]).hard_version == "hard-3"
    assert parse_args(["--hard-version", "hard-2"]).hard_version == "hard-2"
    with pytest.raises(SystemExit):
        parse_args(["--hard-version", "hard-9"])


def test_quick_is_small_and_each_size_still_overridable() -> None:
    quick = parse_args(["--quick"])
    assert quick.luck_boards == QUICK["luck_boards"] < 100 and quick.par_boards == 0
    assert parse_args([]).luck_boards >= 400 and parse_args([]).luck_tables >= 4
    assert parse_args([]).luck_budget == LUCK_BUDGET
    assert parse_args(["--quick", "--luck-boards", "60"]).luck_boards == 60
    with pytest.raises(SystemExit):
        parse_args(["--luck-tables", "1"])


def test_hard_noise_is_the_within_board_share_of_its_par_plays() -> None:
    same = [{"par_nets": [x, x]} for x in range(-50, 50, 7)]
    assert hard_noise(same) == 0.0
    apart = [{"par_nets": [-10, 10]} for _ in range(5)]
    assert hard_noise(apart) == 1.0


def test_pairwise_shares_say_which_pair_is_hard_to_order() -> None:
    """Hard and Normal alike (the same strength): Normal above Easy is learnt, Hard
    above Normal stays a coin."""
    rng = random.Random(5)
    strength = {"hard": 10, "normal": 10, "easy": -40}
    boards = []
    for _ in range(24):
        cards = rng.randint(-100, 100)
        nets = {
            (ns, ew): cards + strength[ns] - strength[ew] + rng.randint(-30, 30) for ns, ew in PAIRS
        }
        boards.append({"nets": nets, "par": Fraction(cards)})
    pairwise: dict[str, Any] = {}
    needed, _ = boards_to_order(boards, seasons=20, max_boards=96, seed="p", pairwise=pairwise)
    skill = pairwise["duplicate_skill"]
    assert skill["normal>easy"]["boards"] is not None
    assert skill["hard>normal"]["boards"] is None and needed["duplicate_skill"] is None
    assert set(skill["hard>normal"]["shares"]) == {"12", "24", "36", "48", "72", "96"}
