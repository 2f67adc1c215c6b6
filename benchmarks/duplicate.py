"""Duplicate Spades: par's cost, the luck duplicate removes, how fast skill shows.

Run ``python -m benchmarks.duplicate [--boards N] [--hard-budget N] [--seasons N]
[--max-boards N] [--par-boards N] [--workers W] [--seed S]``; prints one JSON object.

1. **A pool of boards** (``--boards``, default 24), each played by the bots at every
   ordered pair of levels Easy, Normal and Hard (9 tables a board, one hand each, the
   standard preset, scored by ``board_scoring.score_board``), and its par (four Hard
   players, ``--pool-par-plays`` seeded plays, ``par.play_seed``). Hard here runs
   without its clock guard at ``--hard-budget`` simulated card plays a decision (default
   10,000, the platform's; a smaller budget is faster but plays below Normal: at 1,000,
   Normal North-South gained +21 a board on it over 32 boards). The default pool is
   small so the run takes a few minutes; its figures are noisy: scale with ``--boards``.
2. **Seasons** drawn from the pool: six partnerships (Hard, Normal and Easy twice) in a
   3-table barometer Mitchell with the arrow switch (``movements.mitchell``), sessions of
   3 rounds of 4 boards; each board of a season is drawn at random from the pool (with
   replacement: a bootstrap over boards). The **duplicate skill rating** (``skill.rate``)
   learns from every board; **openskill on match results alone** (``leagues.core.ratings``,
   the platform's ratings) from each round's 4-board match, won by the side with the
   larger sum of nets. A season orders the levels correctly when each level's mean rating
   (its two partnerships' mu) is Hard > Normal > Easy. ``boards_to_order_levels`` is, per
   rating, the smallest season length of the grid at which at least 95% of ``--seasons``
   seasons order the levels correctly (null: not within ``--max-boards``).
3. **variance_ratio**: over every table of the pool's Mitchell seatings, the variance of a
   partnership's result against the field (net minus the datum of the other tables) over
   the variance of its raw net: the share of the variance that duplicate leaves.
   ``variance_ratio_nine_tables`` does the same with every board's nine tables as the
   field (a larger field's datum is itself less noisy).
4. **par_boards_per_second**: par as the platform computes it (``par.PAR_METHOD``: Hard
   ``hard-2`` at its full budget with no clock guard, its documented number of plays) on
   one process, over ``--par-boards`` boards.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import multiprocessing
import os
import platform
import random
import sys
import time
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from bots.strategies.decision import Strategy
from bots.strategies.hard import HardStrategy
from bots.strategies.registry import exact_strategy, get_strategy
from bots.strategies.selfplay import play_deal, play_level
from games.engine.rules import PRESETS, Rules
from leagues.core.duplicate.board_scoring import datums, score_board
from leagues.core.duplicate.boards import MAX_BOARDS, Board, board_seed, derive_board
from leagues.core.duplicate.movements import mitchell
from leagues.core.duplicate.par import PAR_METHOD, compute_par, play_seed
from leagues.core.duplicate.skill import DEFAULT_MODEL, SkillModel, TableOnBoard, rate
from leagues.core.ratings import RatedMatch
from leagues.core.ratings import rate as openskill_rate

RULES: Rules = PRESETS["standard"]
LEVELS = ("hard", "normal", "easy")  # best first
PAIRS = [(ns, ew) for ns in LEVELS for ew in LEVELS]
TABLES = 3
ROUND_BOARDS = 4
SESSION_BOARDS = TABLES * ROUND_BOARDS
# Slots 1-3 sit North-South first, 4-6 East-West (movements.mitchell); a level in each.
SLOT_LEVEL = {1: "hard", 2: "normal", 3: "easy", 4: "hard", 5: "normal", 6: "easy"}
GRID = (12, 24, 36, 48, 72, 96, 144, 192, 288, 384, 576, 768, 1152)

_hard_budget = 2000
_pool_par_plays = 2


def _init(hard_budget: int, pool_par_plays: int) -> None:
    global _hard_budget, _pool_par_plays
    _hard_budget, _pool_par_plays = hard_budget, pool_par_plays


def _strategy(level: str) -> Strategy:
    if level == "hard":
        return HardStrategy(playout_budget=_hard_budget, time_limit_ms=math.inf)
    return get_strategy(level)


def pool_board(job: tuple[str, int]) -> dict[str, Any]:
    """One pool board: its net at each ordered level pair, and its par net."""
    seed, index = job
    round_seed = f"duplicate-benchmark-{seed}-{index // MAX_BOARDS}"
    number = index % MAX_BOARDS + 1
    board = derive_board(board_seed(round_seed, number), number)
    nets = {}
    for ns, ew in PAIRS:
        strategies = [_strategy(ns), _strategy(ew), _strategy(ns), _strategy(ew)]
        base = int.from_bytes(
            hashlib.sha256(f"{board.seed}|{ns}|{ew}".encode()).digest()[:8], "big"
        )
        played = play_deal(RULES, board.hands, board.dealer, strategies, base)
        nets[(ns, ew)] = score_board(RULES, played.bids, played.blind, played.tricks_won).net
    hard = _strategy("hard")
    par_total = Fraction(0)
    for play in range(1, _pool_par_plays + 1):
        played = play_deal(
            RULES, board.hands, board.dealer, [hard] * 4, play_seed(board.seed, play)
        )
        par_total += score_board(RULES, played.bids, played.blind, played.tricks_won).net
    return {"nets": nets, "par": par_total / _pool_par_plays}


def save_pool(path: str, pool: Sequence[dict[str, Any]]) -> None:
    """The pool as JSON (nets by "ns-ew", par as a fraction's text), to rerun the seasons."""
    document = [
        {"nets": {f"{ns}-{ew}": net for (ns, ew), net in p["nets"].items()}, "par": str(p["par"])}
        for p in pool
    ]
    with open(path, "w") as file:
        json.dump(document, file)


def load_pool(path: str) -> list[dict[str, Any]]:
    with open(path) as file:
        document = json.load(file)
    return [
        {
            "nets": {tuple(key.split("-")): net for key, net in p["nets"].items()},
            "par": Fraction(p["par"]),
        }
        for p in document
    ]


def build_pool(
    seed: str, boards: int, workers: int, budget: int, plays: int
) -> list[dict[str, Any]]:
    jobs = [(seed, index) for index in range(boards)]
    if workers > 1:
        context = multiprocessing.get_context("fork")
        with context.Pool(workers, _init, (budget, plays)) as pool:
            return pool.map(pool_board, jobs, chunksize=1)
    _init(budget, plays)
    return [pool_board(job) for job in jobs]


SESSION = mitchell(TABLES, SESSION_BOARDS, arrow_switch=True)


def season(
    pool: Sequence[dict[str, Any]],
    boards: int,
    rng: random.Random,
    model: SkillModel = DEFAULT_MODEL,
) -> tuple[bool, bool]:
    """One season of ``boards`` boards; whether each rating orders the levels."""
    skill_boards = []
    matches: list[RatedMatch] = []
    for session in range(boards // SESSION_BOARDS):
        drawn = [rng.randrange(len(pool)) for _ in range(SESSION_BOARDS)]
        match_nets: dict[tuple[int, int, int], int] = {}
        by_board: dict[int, list[TableOnBoard]] = {}
        for seat in SESSION:
            result = pool[drawn[seat.board - 1]]
            net = result["nets"][(SLOT_LEVEL[seat.north_south], SLOT_LEVEL[seat.east_west])]
            by_board.setdefault(seat.board, []).append(
                TableOnBoard(str(seat.north_south), str(seat.east_west), net)
            )
            key = (seat.round, seat.north_south, seat.east_west)
            match_nets[key] = match_nets.get(key, 0) + net
        for number in sorted(by_board):
            skill_boards.append((by_board[number], pool[drawn[number - 1]]["par"]))
        for (round_number, ns, ew), total in sorted(match_nets.items()):
            winner = None if total == 0 else "north_south" if total > 0 else "east_west"
            matches.append(
                RatedMatch(
                    f"{session}-{round_number}-{ns}",
                    len(matches),
                    (f"{ns}a", f"{ns}b"),
                    (f"{ew}a", f"{ew}b"),
                    winner,  # type: ignore[arg-type]
                )
            )
    skill = rate(skill_boards, model)
    players = openskill_rate(matches)

    def ordered(value: dict[int, float]) -> bool:
        level = {name: 0.0 for name in LEVELS}
        for slot, rating in value.items():
            level[SLOT_LEVEL[slot]] += rating
        return level["hard"] > level["normal"] > level["easy"]

    skill_ok = ordered({slot: skill[str(slot)].mu for slot in SLOT_LEVEL})
    open_ok = ordered(
        {slot: players[f"{slot}a"].mu + players[f"{slot}b"].mu for slot in SLOT_LEVEL}
    )
    return skill_ok, open_ok


def boards_to_order(
    pool: Sequence[dict[str, Any]],
    seasons: int,
    max_boards: int,
    seed: str,
    model: SkillModel = DEFAULT_MODEL,
) -> tuple[dict[str, int | None], dict[str, dict[int, float]]]:
    needed: dict[str, int | None] = {"duplicate_skill": None, "openskill_matches": None}
    shares: dict[str, dict[int, float]] = {"duplicate_skill": {}, "openskill_matches": {}}
    for boards in (b for b in GRID if b <= max_boards):
        rng = random.Random(f"{seed}|{boards}")
        right = [0, 0]
        for _ in range(seasons):
            for index, ok in enumerate(season(pool, boards, rng, model)):
                right[index] += ok
        for name, count in zip(needed, right, strict=True):
            shares[name][boards] = round(count / seasons, 3)
            if needed[name] is None and count >= 0.95 * seasons:
                needed[name] = boards
        if all(value is not None for value in needed.values()):
            break
    return needed, shares


def variance_ratio(pool: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Against-the-field variance over raw variance, over the pool's Mitchell seatings.

    Board ``i`` is seated as round ``i mod 3`` of the 3-table Mitchell (every pool board
    counts once, its three tables each a partnership's result in each direction).
    """
    raw: list[float] = []
    against: list[float] = []
    for index, result in enumerate(pool):
        shift = index % TABLES
        nets = [
            result["nets"][
                (SLOT_LEVEL[table + 1], SLOT_LEVEL[TABLES + (table + shift) % TABLES + 1])
            ]
            for table in range(TABLES)
        ]
        for net, datum in zip(nets, datums(nets), strict=True):
            assert datum is not None
            raw.append(float(net))
            against.append(float(net - datum))
    wide_raw: list[float] = []
    wide_against: list[float] = []
    for result in pool:
        nets = [result["nets"][pair] for pair in PAIRS]
        for net, datum in zip(nets, datums(nets), strict=True):
            assert datum is not None
            wide_raw.append(float(net))
            wide_against.append(float(net - datum))
    return {
        "variance_ratio": round(_variance(against) / _variance(raw), 3),
        "variance_ratio_nine_tables": round(_variance(wide_against) / _variance(wide_raw), 3),
        "tables": len(raw),
        "raw_sd": round(math.sqrt(_variance(raw)), 1),
        "against_field_sd": round(math.sqrt(_variance(against)), 1),
    }


def _variance(values: Sequence[float]) -> float:
    mean = sum(values) / len(values)
    return sum((v - mean) ** 2 for v in values) / (len(values) - 1)


def par_speed(seed: str, boards: int) -> dict[str, Any]:
    """Par as pinned (full Hard, no clock, PAR_METHOD.plays plays) on this process."""
    version = exact_strategy(PAR_METHOD.level).version
    cpu_started, started = time.process_time(), time.perf_counter()
    for number in range(1, boards + 1):
        board: Board = derive_board(board_seed(f"duplicate-par-{seed}", number), number)
        compute_par(board, RULES, play_level, version)
    wall = time.perf_counter() - started
    cpu = time.process_time() - cpu_started
    return {
        "par_boards_per_second": round(boards / wall, 3),
        "par_cpu_seconds_per_board": round(cpu / boards, 2),
        "par_wall_seconds_per_board": round(wall / boards, 2),
        "par_method": PAR_METHOD.as_dict(),
        "par_boards_timed": boards,
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--boards", type=int, default=24, help="pool boards (9 tables each)")
    parser.add_argument("--hard-budget", type=int, default=10_000)
    parser.add_argument("--pool-par-plays", type=int, default=2)
    parser.add_argument("--seasons", type=int, default=100)
    parser.add_argument("--max-boards", type=int, default=576)
    parser.add_argument("--par-boards", type=int, default=2)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", default="1")
    parser.add_argument(
        "--pool-file", help="read the pool from this JSON file if it exists, else save it there"
    )
    parser.add_argument("--skill-tau", type=float, default=DEFAULT_MODEL.tau)
    args = parser.parse_args(argv)
    limits = {
        "boards": (3, 4096),
        "hard_budget": (100, 100_000),
        "pool_par_plays": (1, 64),
        "seasons": (20, 10_000),
        "max_boards": (12, 1152),
        "par_boards": (0, 64),
        "workers": (1, 64),
    }
    for name, (low, high) in limits.items():
        if not low <= getattr(args, name) <= high:
            parser.error(f"--{name.replace('_', '-')} runs from {low} to {high}")
    if not 0.0 <= args.skill_tau <= 1.0:
        parser.error("--skill-tau runs from 0 to 1")
    load_before = os.getloadavg()[0]
    started = time.perf_counter()
    if args.pool_file and os.path.exists(args.pool_file):
        pool = load_pool(args.pool_file)
    else:
        pool = build_pool(
            args.seed, args.boards, args.workers, args.hard_budget, args.pool_par_plays
        )
        if args.pool_file:
            save_pool(args.pool_file, pool)
    pool_seconds = time.perf_counter() - started
    model = SkillModel(tau=args.skill_tau)
    started = time.perf_counter()
    needed, shares = boards_to_order(pool, args.seasons, args.max_boards, args.seed, model)
    season_seconds = time.perf_counter() - started
    report: dict[str, Any] = {
        "boards_to_order_levels": needed,
        "share_ordered": {name: {str(k): v for k, v in by.items()} for name, by in shares.items()},
        **variance_ratio(pool),
        "mean_net_by_pair": {
            f"{ns}-{ew}": round(sum(p["nets"][(ns, ew)] for p in pool) / len(pool), 1)
            for ns, ew in PAIRS
        },
        "skill_model": {"beta": model.beta, "tau": model.tau, "sigma0": model.sigma0},
        "pool": {
            "boards": len(pool),
            "file": args.pool_file,
            "hard_budget": args.hard_budget,
            "par_plays": args.pool_par_plays,
            "seconds": round(pool_seconds, 1),
        },
        "seasons": args.seasons,
        "season_seconds": round(season_seconds, 1),
    }
    if args.par_boards:
        report.update(par_speed(args.seed, args.par_boards))
    report["load_average_1min"] = [round(load_before, 2), round(os.getloadavg()[0], 2)]
    report["machine"] = {"cpus": os.cpu_count(), "python": platform.python_version()}
    print(json.dumps(report, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
