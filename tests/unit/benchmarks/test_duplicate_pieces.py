"""The duplicate benchmark's pure pieces on a synthetic pool (nothing timed, no bots)."""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

from benchmarks.duplicate import LEVELS, PAIRS, boards_to_order, season, variance_ratio

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
    assert figures["variance_ratio"] < 0.5 and figures["tables"] == 180
    assert figures["variance_ratio_nine_tables"] < figures["variance_ratio"] + 0.2
    assert LEVELS[0] == "hard"
