"""Bot strength: duplicate matches between two levels, printed as one JSON object.

Run ``python -m benchmarks.bots [--deals N] [--a hard --b normal] [--seed S] [--workers W]
[--blind-nil]``. A side is a level (its latest revision) or a revision by version, so
``--a normal --b normal-1`` measures a change to Normal against the revision before it.

Each deal is one hand under the standard preset, played twice: once with level A as
north-south and level B as east-west, then with the partnerships swapped, every seat
seeing the same cards both times.  Each table is scored with ``scoring.core`` from 0/0
(no bags carried in).  A deal's points are A's hand score minus B's, summed over its two
tables, so the luck of the cards cancels and what remains is the play and the bidding.
The figures: mean points per duplicate deal with a 95% interval (normal approximation),
the share of deals A won (ties count half), nil and blind nil success and bags per hand
for each side,
and decision times per level (p50 and p95 in ms of wall-clock time over every bid, pass
and card, the same over cards alone, and of process CPU time, which other programs on
the machine do not inflate), next to the time of one random-play hand measured at the
start and at the end of the run as the machine's baseline, and the load average.

``--blind-nil``: blind nil on (``PRESETS["standard"]`` otherwise), and every deal starts
from a score where north-south trails by at least 100, so both north-south seats may bid
blind nil at both tables (A's seats at one, B's at the other, on the same cards). The
scores cycle through ``BLIND_NIL_TOTALS``: 150 to 300 behind, early and late in the game,
one of them the last chance (the opponents 50 from the target, 300 ahead).
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import os
import platform
import random
import sys
import time
from dataclasses import dataclass, field, replace
from typing import Any

from bots.strategies.decision import Decision, Strategy
from bots.strategies.hard import HardStrategy
from bots.strategies.registry import LEVELS, get_strategy, strategy_of_version
from bots.strategies.selfplay import play_hand
from games.engine.bidding import legal_bids, place_bid
from games.engine.cards import cards_in
from games.engine.deal import deal_deck, shuffled_deck
from games.engine.hand import COMPLETE, PLAYING, new_hand
from games.engine.play import legal_card_mask, play_card
from games.engine.rules import PRESETS
from scoring.core.hand_score import score_team

RULES = PRESETS["standard"]
BLIND_NIL_RULES = replace(RULES, blind_nil=True)
# North-south's and east-west's totals before a deal of the --blind-nil run, in turn.
BLIND_NIL_TOTALS: tuple[tuple[int, int], ...] = (
    (0, 150),
    (100, 300),
    (-50, 200),
    (250, 400),
    (150, 450),
    (300, 420),
)


@dataclass
class SideStats:
    """One level's tallies over the tables it played."""

    hands: int = 0
    nils_bid: int = 0
    nils_made: int = 0
    blind_nils_bid: int = 0
    blind_nils_made: int = 0
    blind_nil_points: int = 0
    hand_points: int = 0
    bags: int = 0
    sets: int = 0
    decision_ms: list[float] = field(default_factory=list)
    play_ms: list[float] = field(default_factory=list)
    cpu_ms: list[float] = field(default_factory=list)


@dataclass
class DealResult:
    """A duplicate deal: A's points minus B's over both tables, and each side's tallies."""

    points: int
    a: SideStats
    b: SideStats


_levels: tuple[str, str] = ("hard", "normal")
_hard_budget: int | None = None
_blind_nil = False


def _init_worker(levels: tuple[str, str], hard_budget: int | None, blind_nil: bool) -> None:
    global _levels, _hard_budget, _blind_nil
    _levels = levels
    _hard_budget = hard_budget
    _blind_nil = blind_nil


def side_strategy(side: str) -> Strategy:
    """A side's strategy: a level's latest revision, or a revision by version."""
    if side in LEVELS:
        strategy = get_strategy(side)
    else:
        found = strategy_of_version(side)
        if found is None:
            raise ValueError(f"{side!r} is neither a level nor a kept revision.")
        strategy = found
    if strategy.version.startswith("hard-") and _hard_budget is not None:
        return HardStrategy(
            playout_budget=_hard_budget, revision=int(strategy.version.split("-")[1])
        )
    return strategy


def play_deal(job: tuple[int, int]) -> DealResult:
    """Play deal ``index`` at both tables and score it for A."""
    seed, index = job
    dealer = index & 3
    dealt = deal_deck(shuffled_deck(f"bots-benchmark-{seed}", index + 1), dealer)
    a_level, b_level = _levels
    a_strategy, b_strategy = side_strategy(a_level), side_strategy(b_level)
    rules = BLIND_NIL_RULES if _blind_nil else RULES
    totals = BLIND_NIL_TOTALS[index % len(BLIND_NIL_TOTALS)] if _blind_nil else (0, 0)
    a_stats, b_stats = SideStats(), SideStats()
    points = 0
    for a_team in (0, 1):
        strategies = [a_strategy if seat & 1 == a_team else b_strategy for seat in range(4)]

        def record(
            seat: int, decision: Decision, ms: float, cpu_ms: float, a_team: int = a_team
        ) -> None:
            stats = a_stats if seat & 1 == a_team else b_stats
            stats.decision_ms.append(ms)
            stats.cpu_ms.append(cpu_ms)
            if decision.kind == "play":
                stats.play_ms.append(ms)

        state = new_hand(rules, dealt, dealer, index + 1, totals)
        play_hand(
            state,
            strategies,
            seed * 1_000_003 + index * 2 + a_team,
            team_totals=totals,
            on_decision=record,
        )
        scores = {
            team: score_team(rules, team, state.bids, state.blind, state.tricks_won, 0, 0)
            for team in (0, 1)
        }
        points += scores[a_team].hand_score - scores[1 - a_team].hand_score
        for team, stats in ((a_team, a_stats), (1 - a_team, b_stats)):
            score = scores[team]
            stats.hands += 1
            stats.bags += score.bags
            stats.hand_points += score.hand_score
            stats.nils_bid += sum(1 for nil in score.nils if not nil.blind)
            stats.nils_made += sum(1 for nil in score.nils if nil.made and not nil.blind)
            stats.blind_nils_bid += sum(1 for nil in score.nils if nil.blind)
            stats.blind_nils_made += sum(1 for nil in score.nils if nil.made and nil.blind)
            stats.blind_nil_points += sum(nil.points for nil in score.nils if nil.blind)
            stats.sets += 0 if score.made or score.contract == 0 else 1
    return DealResult(points, a_stats, b_stats)


def random_hand_ms(hands: int = 200) -> float:
    """Milliseconds per random-play hand on this machine now (the run's baseline)."""
    rng = random.Random(1)
    started = time.perf_counter()
    for number in range(1, hands + 1):
        state = new_hand(RULES, deal_deck(shuffled_deck("baseline", number), 0), 0, number)
        while state.phase != PLAYING:
            place_bid(state, state.turn, rng.choice(legal_bids(state, state.turn)))
        while state.phase != COMPLETE:
            play_card(state, state.turn, rng.choice(cards_in(legal_card_mask(state))))
    return (time.perf_counter() - started) * 1000.0 / hands


def percentile(values: list[float], fraction: float) -> float:
    """The value below which ``fraction`` of ``values`` lie (nearest rank)."""
    ordered = sorted(values)
    if not ordered:
        return 0.0
    rank = max(0, math.ceil(fraction * len(ordered)) - 1)
    return ordered[rank]


def summarize(side: list[SideStats]) -> dict[str, Any]:
    """Totals of one side as the JSON figures."""
    hands = sum(s.hands for s in side)
    nils_bid = sum(s.nils_bid for s in side)
    nils_made = sum(s.nils_made for s in side)
    blind_bid = sum(s.blind_nils_bid for s in side)
    blind_made = sum(s.blind_nils_made for s in side)
    times = [ms for s in side for ms in s.decision_ms]
    plays = [ms for s in side for ms in s.play_ms]
    cpu = [ms for s in side for ms in s.cpu_ms]
    return {
        "nils_bid": nils_bid,
        "nil_success_rate": round(nils_made / nils_bid, 3) if nils_bid else None,
        "blind_nils_bid": blind_bid,
        "blind_nil_success_rate": round(blind_made / blind_bid, 3) if blind_bid else None,
        "blind_nil_points": sum(s.blind_nil_points for s in side),
        "hand_points_per_hand": round(sum(s.hand_points for s in side) / hands, 2)
        if hands
        else None,
        "bags_per_hand": round(sum(s.bags for s in side) / hands, 3) if hands else None,
        "sets_per_hand": round(sum(s.sets for s in side) / hands, 3) if hands else None,
        "decisions": len(times),
        "decision_ms": {
            "p50": round(percentile(times, 0.5), 3),
            "p95": round(percentile(times, 0.95), 3),
            "max": round(max(times), 3) if times else 0.0,
        },
        "card_play_ms": {
            "p50": round(percentile(plays, 0.5), 3),
            "p95": round(percentile(plays, 0.95), 3),
        },
        "decision_cpu_ms": {
            "p50": round(percentile(cpu, 0.5), 3),
            "p95": round(percentile(cpu, 0.95), 3),
        },
    }


def run(
    a: str,
    b: str,
    deals: int,
    seed: int,
    workers: int,
    hard_budget: int | None,
    blind_nil: bool = False,
) -> dict[str, object]:
    """Play the match and return the figures."""
    baseline = random_hand_ms()
    load_before = os.getloadavg()[0]
    started = time.perf_counter()
    jobs = [(seed, index) for index in range(deals)]
    if workers > 1:
        context = multiprocessing.get_context("fork")
        with context.Pool(workers, _init_worker, ((a, b), hard_budget, blind_nil)) as pool:
            results = pool.map(play_deal, jobs, chunksize=4)
    else:
        _init_worker((a, b), hard_budget, blind_nil)
        results = [play_deal(job) for job in jobs]
    elapsed = time.perf_counter() - started
    load_after = os.getloadavg()[0]
    baseline_after = random_hand_ms()
    points = [r.points for r in results]
    mean = sum(points) / deals
    spread = math.sqrt(sum((p - mean) ** 2 for p in points) / (deals - 1)) if deals > 1 else 0.0
    half = 1.96 * spread / math.sqrt(deals)
    wins = sum(1.0 if p > 0 else 0.5 if p == 0 else 0.0 for p in points)
    a_side = summarize([r.a for r in results])
    b_side = summarize([r.b for r in results])
    return {
        "benchmark": "bots",
        "a": a,
        "b": b,
        "a_version": side_strategy(a).version,
        "b_version": side_strategy(b).version,
        "preset": "standard",
        "blind_nil": blind_nil,
        "totals": [list(t) for t in BLIND_NIL_TOTALS] if blind_nil else [[0, 0]],
        "deals": deals,
        "hands": 2 * deals,
        "seed": seed,
        "mean_points_per_deal": round(mean, 2),
        "ci95": [round(mean - half, 2), round(mean + half, 2)],
        "stdev_points_per_deal": round(spread, 2),
        "a_deal_win_share": round(wins / deals, 3),
        "sides": {"a": a_side, "b": b_side},
        "decision_ms": {a: _timing(a_side), b: _timing(b_side)},
        "baseline_random_hand_ms": [round(baseline, 3), round(baseline_after, 3)],
        "load_average_1min": [round(load_before, 2), round(load_after, 2)],
        "hard_budget": hard_budget if hard_budget is not None else None,
        "workers": workers,
        "elapsed_s": round(elapsed, 1),
        "python": platform.python_version(),
    }


def _timing(side: dict[str, Any]) -> dict[str, float]:
    """Wall-clock p50/p95/max of a side's decisions, with the CPU-time p50/p95 beside them."""
    return {
        **side["decision_ms"],
        "cpu_p50": side["decision_cpu_ms"]["p50"],
        "cpu_p95": side["decision_cpu_ms"]["p95"],
    }


def main(argv: list[str] | None = None) -> None:
    """Parse the options, play the match, print one JSON object."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--deals", type=int, default=400, help="duplicate deals (default 400)")
    sides = [*LEVELS, *(f"{level}-1" for level in LEVELS)]
    parser.add_argument(
        "--a", choices=sides, default="hard", help="level or revision A (default hard)"
    )
    parser.add_argument(
        "--b", choices=sides, default="normal", help="level or revision B (default normal)"
    )
    parser.add_argument("--seed", type=int, default=1, help="seed of the deals (default 1)")
    parser.add_argument(
        "--workers", type=int, default=2, help="processes to play deals in (default 2)"
    )
    parser.add_argument(
        "--hard-budget",
        type=int,
        default=None,
        help="simulated card plays per Hard decision (default: the level's own)",
    )
    parser.add_argument(
        "--blind-nil",
        action="store_true",
        help="blind nil on, north-south trailing (see BLIND_NIL_TOTALS)",
    )
    args = parser.parse_args(argv)
    if args.deals < 2:
        parser.error("--deals must be at least 2 (an interval needs two deals)")
    if args.workers < 1:
        parser.error("--workers must be at least 1")
    if args.hard_budget is not None and args.hard_budget < 1:
        parser.error("--hard-budget must be at least 1")
    result = run(
        args.a, args.b, args.deals, args.seed, args.workers, args.hard_budget, args.blind_nil
    )
    sys.stdout.write(json.dumps(result) + "\n")


if __name__ == "__main__":
    main()
