"""Par: seeded plays of a pinned level, averaged; recomputed by anyone from the seeds."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction

import pytest

from bots.strategies.registry import exact_strategy_of_version
from bots.strategies.selfplay import play_version
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


def scripted(rules: Rules, hands: Sequence[int], dealer: int, version: str, seed: int) -> Played:
    # North-South take 6 or 7 tricks on bids of 3 + 3; East-West bid 3 + 3 too.
    north = 3 + seed % 2
    return Played([3, 3, 3, 3], tricks_won=[north, 3, 3, 13 - north - 6])


def test_seeds_and_averages() -> None:
    method = ParMethod("normal", "normal-1", 4)
    par = compute_par(BOARD, STANDARD, scripted, method)
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


def test_par_asks_for_the_pinned_version_and_refuses_one_not_kept() -> None:
    asked: list[str] = []

    def recording(
        rules: Rules, hands: Sequence[int], dealer: int, version: str, seed: int
    ) -> Played:
        asked.append(version)
        return scripted(rules, hands, dealer, version, seed)

    compute_par(BOARD, STANDARD, recording)
    assert set(asked) == {PAR_METHOD.version}
    assert exact_strategy_of_version(PAR_METHOD.version) is not None
    with pytest.raises(LeagueError) as refused:
        compute_par(BOARD, STANDARD, play_version, ParMethod("hard", "hard-99", 1))
    assert refused.value.code == "par_version_gone"
    published = compute_par(BOARD, STANDARD, scripted, ParMethod("hard", "hard-99", 1)).as_dict()
    assert not verify_par(BOARD, STANDARD, play_version, published).ok


def test_real_bots_recompute_the_same_par_and_a_changed_one_fails() -> None:
    method = ParMethod("normal", "normal-2", 2)
    par = compute_par(BOARD, STANDARD, play_version, method)
    published = par.as_dict()
    assert verify_par(BOARD, STANDARD, play_version, published).ok
    published["north_south_total"] += 1
    assert not verify_par(BOARD, STANDARD, play_version, published).ok


def test_a_par_recorded_under_an_earlier_version_is_recomputed_by_that_version() -> None:
    # hard-2's par stays verifiable whatever version par pins now: verify_par plays the
    # version the published par names.
    method = ParMethod("hard", "hard-2", 1)
    published = compute_par(BOARD, STANDARD, play_version, method).as_dict()
    assert published["method"]["version"] == "hard-2"
    assert verify_par(BOARD, STANDARD, play_version, published).ok


def test_hard_par_play_is_exact() -> None:
    # Hard without its clock guard: the same seed gives the same play on any machine.
    seed = play_seed(BOARD.seed, 1)
    first = play_version(STANDARD, BOARD.hands, BOARD.dealer, PAR_METHOD.version, seed)
    again = play_version(STANDARD, BOARD.hands, BOARD.dealer, PAR_METHOD.version, seed)
    assert first.plays == again.plays and first.bids == again.bids


def test_a_method_names_a_version_of_its_level() -> None:
    with pytest.raises(LeagueError):
        ParMethod("hard", "normal-2", 1)


def test_plays_are_bounded() -> None:
    with pytest.raises(LeagueError):
        ParMethod("hard", "hard-2", 0)
    with pytest.raises(LeagueError):
        ParMethod("hard", "hard-2", 65)
