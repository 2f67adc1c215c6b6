"""Duplicate Spades: par's cost, the luck duplicate removes, how fast skill shows.

Run ``python -m benchmarks.duplicate [--boards N] [--hard-budget N] [--seasons N]
[--max-boards N] [--par-boards N] [--workers W] [--seed S] [--pool-file F]
[--skill-tau T] [--variance-boards N] [--luck-boards N] [--luck-tables N]
[--luck-budget N] [--hard-version V] [--quick] [--skip-core] [--skip-platform] [--platform-tables N]
[--platform-boards N] [--platform-level L] [--platform-workers N] [--db-name D]
[--redis-db N] [--keep-db]``; prints one JSON object (``--quick``: small sizes, a smoke
run of a couple of minutes). Points 1 to 4 are the pure core (``--skip-core`` leaves
them out); point 5 is the platform (``--skip-platform`` leaves it out).

1. **A pool of boards** (``--boards``, default 24), each played by the bots at every
   ordered pair of levels Easy, Normal and Hard (9 tables a board, one hand each, the
   standard preset, scored by ``board_scoring.score_board``), and its par (four Hard
   players, ``--pool-par-plays`` seeded plays, ``par.play_seed``). Hard here is
   ``--hard-version`` (default ``hard-3``, par's: its search scores a hand as a board;
   ``hard-2`` scores it as a running game's hand, the earlier figures), and runs
   without its clock guard at ``--hard-budget`` simulated card plays a decision (default
   10,000, the platform's; a smaller budget is faster but plays below Normal: at 1,000,
   Normal North-South gained +21 a board on it over 32 boards). The default pool is
   small so the run takes a few minutes; its figures are noisy: scale with ``--boards``.
   ``hard_edge_over_normal`` (and ``normal_edge_over_easy``): on the pool's boards, the
   IMPs of Hard's net minus Normal's in the same seat against the same opponents, both
   directions, every opponent level (``level_edge``).
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
3. **variance_ratio** (the issue's definition: the variance of a table's North-South net
   against the field, i.e. net minus the datum, the average net of the *other* tables
   that held the board in the same direction, over the variance of its raw net) over a
   **same-level field with seeded play**: ``--luck-boards`` boards (default 400, the
   issue's minimum), each played at ``--luck-tables`` tables (default 4) of four Hard
   players, every table with its own decision seeds, Hard at ``--luck-budget`` simulated
   card plays a decision (default 2,000, a fifth of the platform's, no clock guard: the
   full budget would take some 12 minutes of two idle cores). Every table is as good as
   the others, so what its score against the field keeps is the play's own chance, the
   luck that remains. With it ``variance_ratio_field`` (level, version, budget, tables,
   boards), ``variance_ratio_play_noise_share`` (the within-board share, the ratio an
   infinitely large field would give; n tables give about that times n/(n-1)) and
   ``variance_ratio_cards_share``. Easy and Normal are deterministic, so a field of either
   alone would give 0.
   **variance_ratio_mixed_levels**: the same ratio over a separate field of
   ``--variance-boards`` boards (default 480) at four tables, North-South Normal, Normal,
   Easy, Easy against East-West Normal, Easy, Normal, Easy. Not the measure of luck: the
   score against a mixed field also carries the skill difference between the levels
   (signal). With it ``mixed_levels_cards_share`` (the intraclass correlation of the nets
   by board), ``variance_ratio_mixed_levels_floor_infinite_field`` and
   ``play_noise_share`` (each level replaying a board four-handed with other seeds: Easy
   and Normal, 0). From the pool, with Hard: ``variance_ratio_with_hard`` (its Mitchell
   seatings, 3 tables a board), ``..._nine_tables`` (the nine tables of a board as the
   field) and ``hard_play_noise_share`` (Hard's par plays of the same board with other
   seeds).
4. **par_boards_per_second**: par as the platform computes it (``par.PAR_METHOD``: its
   pinned Hard version at its full budget with no clock guard, its documented number of plays) on
   one process, over ``--par-boards`` boards.
5. **A duplicate round through the whole platform** (``benchmarks.duplicate_platform``):
   ``--platform-tables`` tables (default 24, 48 all-bot partnerships) of
   ``--platform-level`` bots (default easy) play ``--platform-boards`` boards (default 4)
   on the platform's processes, organised over the HTTP API: ``round_minutes``,
   ``traveller_lag_ms`` (p50, p99) and ``par_seconds``.
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

from benchmarks.duplicate_platform import platform_half
from bots.strategies.decision import Strategy
from bots.strategies.hard import LATEST_BOARD, REVISIONS, HardStrategy
from bots.strategies.registry import get_strategy
from bots.strategies.selfplay import play_deal, play_version
from games.engine.rules import PRESETS, Rules
from leagues.core.duplicate.board_scoring import datums, imps, score_board
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
GRID = (12, 24, 36, 48, 72, 96, 144, 192, 288, 384, 576, 768, 1152, 1536, 2304, 3072, 4608)

_hard_budget = 2000
_pool_par_plays = 2
# The Hard revision of the pool and the same-level field: par's (hard-3, which searches
# with the board's scoring) unless --hard-version says otherwise.
HARD_VERSIONS = {f"hard-{revision}": revision for revision in REVISIONS}
_hard_revision = LATEST_BOARD


def _init(hard_budget: int, pool_par_plays: int, hard_revision: int = LATEST_BOARD) -> None:
    global _hard_budget, _pool_par_plays, _hard_revision
    _hard_budget, _pool_par_plays, _hard_revision = hard_budget, pool_par_plays, hard_revision


def _strategy(level: str) -> Strategy:
    if level == "hard":
        return HardStrategy(
            playout_budget=_hard_budget, time_limit_ms=math.inf, revision=_hard_revision
        )
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
    par_nets = []
    for play in range(1, _pool_par_plays + 1):
        played = play_deal(
            RULES, board.hands, board.dealer, [hard] * 4, play_seed(board.seed, play)
        )
        par_nets.append(score_board(RULES, played.bids, played.blind, played.tricks_won).net)
    return {"nets": nets, "par": Fraction(sum(par_nets), len(par_nets)), "par_nets": par_nets}


def save_pool(path: str, pool: Sequence[dict[str, Any]]) -> None:
    """The pool as JSON (nets by "ns-ew", par as a fraction's text), to rerun the seasons."""
    document = [
        {
            "nets": {f"{ns}-{ew}": net for (ns, ew), net in p["nets"].items()},
            "par": str(p["par"]),
            "par_nets": p["par_nets"],
        }
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
            "par_nets": p.get("par_nets", []),
        }
        for p in document
    ]


def build_pool(
    seed: str, boards: int, workers: int, budget: int, plays: int, revision: int = LATEST_BOARD
) -> list[dict[str, Any]]:
    jobs = [(seed, index) for index in range(boards)]
    if workers > 1:
        context = multiprocessing.get_context("fork")
        with context.Pool(workers, _init, (budget, plays, revision)) as pool:
            return pool.map(pool_board, jobs, chunksize=1)
    _init(budget, plays, revision)
    return [pool_board(job) for job in jobs]


def level_edge(pool: Sequence[dict[str, Any]], better: str, worse: str) -> dict[str, Any]:
    """``better``'s edge over ``worse`` on the same cards: on every pool board, against
    each level as opponents and from each direction, the IMPs of ``better``'s net minus
    ``worse``'s in the same seat (North-South: net(better-X) - net(worse-X); East-West:
    net(X-worse) - net(X-better)). Mean and standard deviation in IMPs and in points."""
    imp_edges: list[float] = []
    point_edges: list[float] = []
    for result in pool:
        nets = result["nets"]
        for other in LEVELS:
            for edge in (
                nets[(better, other)] - nets[(worse, other)],
                nets[(other, worse)] - nets[(other, better)],
            ):
                point_edges.append(float(edge))
                imp_edges.append(float(imps(edge)))
    if len(imp_edges) < 2:
        return {"comparisons": len(imp_edges)}
    return {
        "imps_mean": round(sum(imp_edges) / len(imp_edges), 3),
        "imps_sd": round(math.sqrt(_variance(imp_edges)), 2),
        "imps_standard_error": round(math.sqrt(_variance(imp_edges) / len(imp_edges)), 3),
        "points_mean": round(sum(point_edges) / len(point_edges), 2),
        "comparisons": len(imp_edges),
    }


SESSION = mitchell(TABLES, SESSION_BOARDS, arrow_switch=True)


def season_detail(
    pool: Sequence[dict[str, Any]],
    boards: int,
    rng: random.Random,
    model: SkillModel = DEFAULT_MODEL,
) -> tuple[tuple[bool, bool], tuple[bool, bool]]:
    """One season of ``boards`` boards; per rating (duplicate skill, openskill), whether
    it puts Hard above Normal and Normal above Easy."""
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

    def ordered(value: dict[int, float]) -> tuple[bool, bool]:
        level = {name: 0.0 for name in LEVELS}
        for slot, rating in value.items():
            level[SLOT_LEVEL[slot]] += rating
        return level["hard"] > level["normal"], level["normal"] > level["easy"]

    skill_ok = ordered({slot: skill[str(slot)].mu for slot in SLOT_LEVEL})
    open_ok = ordered(
        {slot: players[f"{slot}a"].mu + players[f"{slot}b"].mu for slot in SLOT_LEVEL}
    )
    return skill_ok, open_ok


def season(
    pool: Sequence[dict[str, Any]],
    boards: int,
    rng: random.Random,
    model: SkillModel = DEFAULT_MODEL,
) -> tuple[bool, bool]:
    """One season of ``boards`` boards; whether each rating orders the levels."""
    skill_ok, open_ok = season_detail(pool, boards, rng, model)
    return all(skill_ok), all(open_ok)


def boards_to_order(
    pool: Sequence[dict[str, Any]],
    seasons: int,
    max_boards: int,
    seed: str,
    model: SkillModel = DEFAULT_MODEL,
    pairwise: dict[str, dict[str, Any]] | None = None,
) -> tuple[dict[str, int | None], dict[str, dict[int, float]]]:
    """Per rating, the shortest season of the grid in which at least 95% of the seasons
    order the three levels, and the share at every length tried. ``pairwise``, when
    given, is filled with the same for each adjacent pair of levels (Hard above Normal,
    Normal above Easy): where the ordering fails, which pair is the hard one."""
    needed: dict[str, int | None] = {"duplicate_skill": None, "openskill_matches": None}
    shares: dict[str, dict[int, float]] = {"duplicate_skill": {}, "openskill_matches": {}}
    for boards in (b for b in GRID if b <= max_boards):
        counts = _season_counts(pool, boards, seasons, seed, model)
        for name in needed:
            for pair in COMPARISONS[:2] if pairwise is not None else ():
                assert pairwise is not None
                entry = pairwise.setdefault(name, {}).setdefault(
                    pair, {"boards": None, "shares": {}}
                )
                entry["shares"][str(boards)] = round(counts[name][pair] / seasons, 3)
                if entry["boards"] is None and counts[name][pair] >= 0.95 * seasons:
                    entry["boards"] = boards
            count = counts[name]["ordered"]
            shares[name][boards] = round(count / seasons, 3)
            if needed[name] is None and count >= 0.95 * seasons:
                needed[name] = boards
        if all(value is not None for value in needed.values()):
            break
    return needed, shares


COMPARISONS = ("hard>normal", "normal>easy", "ordered")


def _season_counts(
    pool: Sequence[dict[str, Any]], boards: int, seasons: int, seed: str, model: SkillModel
) -> dict[str, dict[str, int]]:
    """Per rating, in how many of ``seasons`` seasons of ``boards`` boards each
    comparison came out right (the seasons are the same for every caller)."""
    rng = random.Random(f"{seed}|{boards}")
    counts = {
        name: dict.fromkeys(COMPARISONS, 0) for name in ("duplicate_skill", "openskill_matches")
    }
    for _ in range(seasons):
        for name, (above_normal, above_easy) in zip(
            counts, season_detail(pool, boards, rng, model), strict=True
        ):
            counts[name]["hard>normal"] += above_normal
            counts[name]["normal>easy"] += above_easy
            counts[name]["ordered"] += above_normal and above_easy
    return counts


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
        "variance_ratio_with_hard": round(_variance(against) / _variance(raw), 3),
        "variance_ratio_with_hard_nine_tables": round(
            _variance(wide_against) / _variance(wide_raw), 3
        ),
        "with_hard_boards": len(pool),
        "with_hard_raw_sd": round(math.sqrt(_variance(raw)), 1),
        "with_hard_against_field_sd": round(math.sqrt(_variance(against)), 1),
        "hard_play_noise_share": hard_noise(pool),
    }


FIELD_LEVELS = ("normal", "easy")
FIELD_PAIRS = [(ns, ew) for ns in FIELD_LEVELS for ew in FIELD_LEVELS]


def field_board(job: tuple[str, int]) -> dict[str, Any]:
    """One board of the variance field: its net at every ordered pair of Normal and Easy
    (4 tables), and the same tables replayed with other decision seeds (play noise)."""
    seed, index = job
    round_seed = f"duplicate-field-{seed}-{index // MAX_BOARDS}"
    number = index % MAX_BOARDS + 1
    board = derive_board(board_seed(round_seed, number), number)
    nets: dict[str, list[int]] = {}
    for ns, ew in FIELD_PAIRS:
        strategies = [get_strategy(ns), get_strategy(ew)] * 2
        nets[f"{ns}-{ew}"] = []
        for replay in range(2):
            base = int.from_bytes(
                hashlib.sha256(f"{board.seed}|{ns}|{ew}|{replay}".encode()).digest()[:8], "big"
            )
            played = play_deal(RULES, board.hands, board.dealer, strategies, base)
            score = score_board(RULES, played.bids, played.blind, played.tricks_won)
            nets[f"{ns}-{ew}"].append(score.net)
    return nets


def build_field(seed: str, boards: int, workers: int) -> list[dict[str, list[int]]]:
    jobs = [(seed, index) for index in range(boards)]
    if workers > 1:
        with multiprocessing.get_context("fork").Pool(workers) as pool:
            return pool.map(field_board, jobs, chunksize=16)
    return [field_board(job) for job in jobs]


def field_figures(tables: Sequence[Sequence[int]]) -> dict[str, float]:
    """The issue's variance ratio over a field, and where the variance comes from.

    ``tables`` holds, per board, the North-South net of every table that played it (at
    least two a board, the same count on every board). Each table is compared with the
    *other* tables that held the board in the same direction (``datums``): ``ratio`` is
    the variance of net minus datum over the variance of the raw net. ``cards_share`` is
    the share of the nets' variance the board itself explains (the intraclass correlation
    of a one-way analysis of variance by board): what the tables holding the same cards
    have in common. An infinitely large field's datum is the board's mean, so ``floor`` =
    ``1 - cards_share`` is the lowest ratio any field of these players can give; a field
    of n tables gives about ``floor * n/(n-1)``.
    """
    counts = {len(nets) for nets in tables}
    if len(counts) != 1 or min(counts) < 2 or len(tables) < 2:
        raise ValueError("A field needs two boards or more, each at the same 2+ tables.")
    raw: list[float] = []
    against: list[float] = []
    within: list[float] = []
    for nets in tables:
        mean = sum(nets) / len(nets)
        for net, datum in zip(nets, datums(nets), strict=True):
            assert datum is not None
            raw.append(float(net))
            against.append(float(net - datum))
            within.append(float(net) - mean)
    # The cards' component is what the tables of a board share beyond what k independent
    # tables' mean would show by chance.
    k = counts.pop()
    within_square = sum(x * x for x in within) / (len(tables) * (k - 1))
    cards = max(0.0, _variance([sum(nets) / k for nets in tables]) - within_square / k)
    total = cards + within_square
    raw_variance = _variance(raw)
    return {
        "ratio": _variance(against) / raw_variance if raw_variance else 0.0,
        "raw_sd": math.sqrt(raw_variance),
        "against_field_sd": math.sqrt(_variance(against)),
        "cards_share": cards / total if total else 1.0,
        "floor": within_square / total if total else 0.0,
    }


def luck_report(field: Sequence[dict[str, list[int]]]) -> dict[str, Any]:
    """The issue's ratio over the mixed Easy/Normal field (every table of a board against
    the other tables that held it North-South), and where the variance comes from
    (``field_figures``). Not the measure of luck: the score against this field also
    carries the skill difference between Easy and Normal, which is signal.

    ``play_noise_share``: the within-board share when the same four players replay the
    board with other seeds.
    """
    tables = [[nets[f"{ns}-{ew}"][0] for ns, ew in FIELD_PAIRS] for nets in field]
    figures = field_figures(tables)
    noise = {}
    for level in FIELD_LEVELS:
        plays = [nets[f"{level}-{level}"] for nets in field]
        spread = _population_variance([float(x) for pair in plays for x in pair])
        inside = sum((a - b) ** 2 / 4 for a, b in plays) / len(plays)
        noise[level] = round(inside / spread, 3) if spread else None
    return {
        "variance_ratio_mixed_levels": round(figures["ratio"], 3),
        "variance_ratio_mixed_levels_field": {
            "levels": "North-South Normal, Normal, Easy, Easy against East-West Normal, "
            "Easy, Normal, Easy (Easy and Normal are deterministic)",
            "tables": len(FIELD_PAIRS),
            "boards": len(field),
        },
        "mixed_levels_raw_sd": round(figures["raw_sd"], 1),
        "mixed_levels_against_field_sd": round(figures["against_field_sd"], 1),
        "mixed_levels_cards_share": round(figures["cards_share"], 3),
        "variance_ratio_mixed_levels_floor_infinite_field": round(figures["floor"], 3),
        "play_noise_share": noise,
        "net_correlation_normal_vs_easy_tables": round(
            _correlation([float(nets[0]) for nets in tables], [float(nets[3]) for nets in tables]),
            3,
        ),
    }


LUCK_LEVEL = "hard"
# Hard's budget in the same-level field: a fifth of the platform's (10,000), about 0.33 s
# of one core a table where the full budget takes 0.88 s, so 400 boards at 4 tables fit
# in some 5 minutes of two idle cores.
LUCK_BUDGET = 2000


def luck_board(job: tuple[str, int, int, int, int]) -> list[int]:
    """One board of the same-level field: its North-South net at each of ``tables``
    tables of four Hard players (revision ``revision``, ``budget`` simulated card plays a
    decision, no clock guard), every table with its own decision seeds."""
    seed, index, tables, budget, revision = job
    round_seed = f"duplicate-luck-{seed}-{index // MAX_BOARDS}"
    number = index % MAX_BOARDS + 1
    board = derive_board(board_seed(round_seed, number), number)
    hard = HardStrategy(playout_budget=budget, time_limit_ms=math.inf, revision=revision)
    nets = []
    for table in range(tables):
        base = int.from_bytes(
            hashlib.sha256(f"{board.seed}|{LUCK_LEVEL}|table-{table}".encode()).digest()[:8],
            "big",
        )
        played = play_deal(RULES, board.hands, board.dealer, [hard] * 4, base)
        nets.append(score_board(RULES, played.bids, played.blind, played.tricks_won).net)
    return nets


def build_luck_field(
    seed: str, boards: int, tables: int, budget: int, workers: int, revision: int = LATEST_BOARD
) -> list[list[int]]:
    jobs = [(seed, index, tables, budget, revision) for index in range(boards)]
    if workers > 1:
        with multiprocessing.get_context("fork").Pool(workers) as pool:
            return pool.map(luck_board, jobs, chunksize=4)
    return [luck_board(job) for job in jobs]


def same_level_report(
    tables: Sequence[Sequence[int]], budget: int, revision: int = LATEST_BOARD
) -> dict[str, Any]:
    """The issue's ``variance_ratio`` over a field of one level whose play is seeded:
    every table plays the same cards as well as the others on average, so what a table's
    net against the field keeps is the play's own chance (the luck that remains), not a
    skill difference. ``variance_ratio_play_noise_share`` is the within-board share of
    the variance (the ratio an infinitely large field of these players would give)."""
    figures = field_figures(tables)
    return {
        "variance_ratio": round(figures["ratio"], 3),
        "variance_ratio_field": {
            "level": LUCK_LEVEL,
            "version": HardStrategy(revision=revision).version,
            "playout_budget": budget,
            "clock_guard": None,
            "tables": len(tables[0]),
            "boards": len(tables),
            "seating": "four Hard players a table, each table with its own decision seeds",
        },
        "variance_ratio_raw_sd": round(figures["raw_sd"], 1),
        "variance_ratio_against_field_sd": round(figures["against_field_sd"], 1),
        "variance_ratio_cards_share": round(figures["cards_share"], 3),
        "variance_ratio_play_noise_share": round(figures["floor"], 3),
    }


def hard_noise(pool: Sequence[dict[str, Any]]) -> float | None:
    """Hard's play noise: the within-board share of the variance of its par plays (four
    Hard players, the same board, other seeds)."""
    plays = [p["par_nets"] for p in pool if len(p.get("par_nets", [])) >= 2]
    if not plays:
        return None
    flat = [float(x) for nets in plays for x in nets]
    inside = sum(_population_variance([float(x) for x in nets]) for nets in plays) / len(plays)
    spread = _population_variance(flat)
    return round(inside / spread, 3) if spread else None


def _population_variance(values: Sequence[float]) -> float:
    mean = sum(values) / len(values)
    return sum((v - mean) ** 2 for v in values) / len(values)


def _correlation(xs: Sequence[float], ys: Sequence[float]) -> float:
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    cov = sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True))
    return cov / math.sqrt(sum((x - mx) ** 2 for x in xs) * sum((y - my) ** 2 for y in ys))


def _variance(values: Sequence[float]) -> float:
    mean = sum(values) / len(values)
    return sum((v - mean) ** 2 for v in values) / (len(values) - 1)


def par_speed(seed: str, boards: int) -> dict[str, Any]:
    """Par as pinned (full Hard, no clock, PAR_METHOD.plays plays) on this process."""
    cpu_started, started = time.process_time(), time.perf_counter()
    for number in range(1, boards + 1):
        board: Board = derive_board(board_seed(f"duplicate-par-{seed}", number), number)
        compute_par(board, RULES, play_version)
    wall = time.perf_counter() - started
    cpu = time.process_time() - cpu_started
    return {
        "par_boards_per_second": round(boards / wall, 3),
        "par_cpu_seconds_per_board": round(cpu / boards, 2),
        "par_wall_seconds_per_board": round(wall / boards, 2),
        "par_method": PAR_METHOD.as_dict(),
        "par_boards_timed": boards,
    }


QUICK = {
    "boards": 6,
    "hard_budget": 1000,
    "seasons": 20,
    "max_boards": 48,
    "par_boards": 0,
    "variance_boards": 40,
    "luck_boards": 24,
}


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    """The command line, bounded (``--quick``: the small sizes of ``QUICK``, each still
    overridable by its own flag)."""
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
    parser.add_argument(
        "--variance-boards", type=int, default=480, help="boards of the Easy/Normal field"
    )
    parser.add_argument(
        "--luck-boards", type=int, default=400, help="boards of the same-level (Hard) field"
    )
    parser.add_argument("--luck-tables", type=int, default=4, help="its tables a board")
    parser.add_argument(
        "--luck-budget", type=int, default=LUCK_BUDGET, help="its Hard playout budget"
    )
    parser.add_argument(
        "--hard-version",
        choices=sorted(HARD_VERSIONS),
        default=f"hard-{LATEST_BOARD}",
        help="Hard's revision in the pool and the same-level field (default: par's)",
    )
    parser.add_argument("--quick", action="store_true", help="small sizes: a smoke run")
    parser.add_argument(
        "--skip-core", action="store_true", help="leave out the pure core (points 1 to 4)"
    )
    parser.add_argument(
        "--skip-platform", action="store_true", help="leave out the round through the platform"
    )
    parser.add_argument("--platform-tables", type=int, default=24, help="the round's tables")
    parser.add_argument("--platform-boards", type=int, default=4, help="its boards")
    parser.add_argument("--platform-rounds", type=int, default=1, help="rounds, one by one")
    parser.add_argument("--platform-level", choices=("easy", "normal", "hard"), default="easy")
    parser.add_argument("--platform-workers", type=int, default=1, help="worker processes")
    parser.add_argument(
        "--platform-timeout", type=float, default=1800, help="seconds the round may take"
    )
    parser.add_argument(
        "--db-name", default=os.environ.get("SPADES_BENCH_DB_NAME", "spades_bench_duplicate")
    )
    parser.add_argument("--redis-db", type=int, default=13, help="scratch Redis database")
    parser.add_argument("--keep-db", action="store_true", help="keep the scratch database")
    quick, _ = parser.parse_known_args(argv)
    if quick.quick:
        parser.set_defaults(**QUICK)
    args = parser.parse_args(argv)
    limits = {
        "boards": (3, 4096),
        "hard_budget": (100, 100_000),
        "pool_par_plays": (1, 64),
        "seasons": (20, 10_000),
        "max_boards": (12, GRID[-1]),
        "par_boards": (0, 64),
        "workers": (1, 64),
        "variance_boards": (20, 100_000),
        "luck_boards": (20, 100_000),
        "luck_tables": (2, 64),
        "luck_budget": (100, 100_000),
        "platform_tables": (2, 256),
        "platform_boards": (1, 36),
        "platform_rounds": (1, 20),
        "platform_workers": (1, 8),
        "redis_db": (0, 15),
    }
    for name, (low, high) in limits.items():
        if not low <= getattr(args, name) <= high:
            parser.error(f"--{name.replace('_', '-')} runs from {low} to {high}")
    if not 0.0 <= args.skill_tau <= 1.0:
        parser.error("--skill-tau runs from 0 to 1")
    if not 10 <= args.platform_timeout <= 7200:
        parser.error("--platform-timeout runs from 10 to 7200 seconds")
    if args.skip_core and args.skip_platform:
        parser.error("--skip-core and --skip-platform leave nothing to run")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    load_before = os.getloadavg()[0]
    report: dict[str, Any] = {} if args.skip_core else core_report(args)
    if not args.skip_platform:
        report.update(platform_half(args))
    report["targets"] = {"variance_ratio_max": 0.5, "traveller_lag_ms_p99_max": 1000}
    report["quick"] = args.quick
    report["load_average_1min"] = [round(load_before, 2), round(os.getloadavg()[0], 2)]
    report["machine"] = {"cpus": os.cpu_count(), "python": platform.python_version()}
    print(json.dumps(report, sort_keys=True))
    return 0


def core_report(args: argparse.Namespace) -> dict[str, Any]:
    """Points 1 to 4: the pure core's figures."""
    revision = HARD_VERSIONS[args.hard_version]
    started = time.perf_counter()
    if args.pool_file and os.path.exists(args.pool_file):
        pool = load_pool(args.pool_file)
    else:
        pool = build_pool(
            args.seed, args.boards, args.workers, args.hard_budget, args.pool_par_plays, revision
        )
        if args.pool_file:
            save_pool(args.pool_file, pool)
    pool_seconds = time.perf_counter() - started
    started = time.perf_counter()
    luck = luck_report(build_field(args.seed, args.variance_boards, args.workers))
    field_seconds = time.perf_counter() - started
    started = time.perf_counter()
    luck_field = build_luck_field(
        args.seed, args.luck_boards, args.luck_tables, args.luck_budget, args.workers, revision
    )
    same_level = same_level_report(luck_field, args.luck_budget, revision)
    same_level["variance_ratio_seconds"] = round(time.perf_counter() - started, 1)
    # Ahead of the seasons, so a long run shows its luck figures early.
    print(json.dumps(same_level, sort_keys=True), file=sys.stderr, flush=True)
    model = SkillModel(tau=args.skill_tau)
    started = time.perf_counter()
    pairwise: dict[str, dict[str, Any]] = {}
    needed, shares = boards_to_order(
        pool, args.seasons, args.max_boards, args.seed, model, pairwise
    )
    season_seconds = time.perf_counter() - started
    report: dict[str, Any] = {
        "boards_to_order_levels": needed,
        "share_ordered": {name: {str(k): v for k, v in by.items()} for name, by in shares.items()},
        "boards_to_separate_pairs": pairwise,
        **same_level,
        **luck,
        "mixed_levels_seconds": round(field_seconds, 1),
        **variance_ratio(pool),
        "hard_edge_over_normal": level_edge(pool, "hard", "normal"),
        "normal_edge_over_easy": level_edge(pool, "normal", "easy"),
        "mean_net_by_pair": {
            f"{ns}-{ew}": round(sum(p["nets"][(ns, ew)] for p in pool) / len(pool), 1)
            for ns, ew in PAIRS
        },
        "skill_model": {"beta": model.beta, "tau": model.tau, "sigma0": model.sigma0},
        "pool": {
            "boards": len(pool),
            "file": args.pool_file,
            "hard_budget": args.hard_budget,
            "hard_version": args.hard_version,
            "par_plays": args.pool_par_plays,
            "seconds": round(pool_seconds, 1),
        },
        "seasons": args.seasons,
        "season_seconds": round(season_seconds, 1),
    }
    if args.par_boards:
        report.update(par_speed(args.seed, args.par_boards))
    return report


if __name__ == "__main__":
    sys.exit(main())
