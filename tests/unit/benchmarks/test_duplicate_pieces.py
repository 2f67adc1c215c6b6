"""The duplicate benchmark's pure pieces on a synthetic pool (nothing timed, no bots)."""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

from benchmarks.duplicate import (
    FIELD_PAIRS,
    LEVELS,
    PAIRS,
    boards_to_order,
    hard_noise,
    luck_report,
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
    assert mostly_cards["variance_ratio"] < 0.1 and mostly_cards["cards_share"] > 0.95
    assert mostly_cards["play_noise_share"] == {"normal": 0.0, "easy": 0.0}
    # No card effect at all: the datum only adds its own noise, (1 + 1/3) of the raw.
    no_cards = luck_report(field(2000, 0, 100))
    assert abs(no_cards["variance_ratio"] - 4 / 3) < 0.1 and no_cards["cards_share"] < 0.05
    assert abs(no_cards["variance_ratio_floor_infinite_field"] - 1) < 0.05


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
