"""Par: seeded plays of a pinned level, averaged; recomputed by anyone from the seeds."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction

import pytest

from bots.strategies.registry import exact_strategy
from bots.strategies.selfplay import play_level
from games.engine.rules import PRESETS, Rules
from leagues.core.duplicate.boards import derive_boards
from leagues.core.duplicate.par import PAR_METHOD, ParMethod, compute_par, play_seed, verify_par
from leagues.core.errors import LeagueError

STANDARD = PRESETS["standard"]
BOARD = derive_boards("par-round", 3)[2]


@dataclass
class Played:
    bids: list[int]
    blind: list[bool] = field(default_factory=lambda: [False] * 4)
    tricks_won: list[int] = field(default_factory=list)


def scripted(rules: Rules, hands: Sequence[int], dealer: int, level: str, seed: int) -> Played:
    # North-South take 6 or 7 tricks on bids of 3 + 3; East-West bid 3 + 3 too.
    north = 3 + seed % 2
    return Played([3, 3, 3, 3], tricks_won=[north, 3, 3, 13 - north - 6])


def test_seeds_and_averages() -> None:
    method = ParMethod("normal", "normal-1", 4)
    par = compute_par(BOARD, STANDARD, scripted, "normal-1", method)
    assert par.seeds == tuple(
        int.from_bytes(hashlib.sha256(f"spades-par|{BOARD.seed}|{i}".encode()).digest()[:8], "big")
        for i in (1, 2, 3, 4)
    )
    assert par.seeds[0] == play_seed(BOARD.seed, 1)
    ns = [60 if s % 2 == 0 else 60 + 1 - 10 for s in par.seeds]
    assert par.north_south == Fraction(sum(ns), 4)
    assert par.net == par.north_south - par.east_west
    document = par.as_dict()
    assert document["north_south_total"] == sum(ns) and len(document["plays"]) == 4
    assert all(isinstance(p["seed"], str) for p in document["plays"])


def test_par_refuses_another_version_than_pinned() -> None:
    with pytest.raises(LeagueError) as refused:
        compute_par(BOARD, STANDARD, scripted, "hard-1")
    assert refused.value.code == "par_version_mismatch"
    assert PAR_METHOD.version == exact_strategy(PAR_METHOD.level).version


def test_real_bots_recompute_the_same_par_and_a_changed_one_fails() -> None:
    method = ParMethod("normal", exact_strategy("normal").version, 2)
    par = compute_par(BOARD, STANDARD, play_level, method.version, method)
    published = par.as_dict()
    assert verify_par(BOARD, STANDARD, play_level, method.version, published).ok
    published["north_south_total"] += 1
    assert not verify_par(BOARD, STANDARD, play_level, method.version, published).ok


def test_hard_par_play_is_exact() -> None:
    # Hard without its clock guard: the same seed gives the same play on any machine.
    seed = play_seed(BOARD.seed, 1)
    first = play_level(STANDARD, BOARD.hands, BOARD.dealer, "hard", seed)
    again = play_level(STANDARD, BOARD.hands, BOARD.dealer, "hard", seed)
    assert first.plays == again.plays and first.bids == again.bids


def test_plays_are_bounded() -> None:
    with pytest.raises(LeagueError):
        ParMethod("hard", "hard-2", 0)
    with pytest.raises(LeagueError):
        ParMethod("hard", "hard-2", 65)
