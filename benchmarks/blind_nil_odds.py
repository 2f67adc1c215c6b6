"""Blind nil odds: how often a level makes blind nil, and what it is worth against looking.

Run ``python -m benchmarks.blind_nil_odds [--level normal] [--deals N] [--seed S]``.

The constants of ``bots.strategies.blind_nil`` (the chance of making blind nil and the
points it gains or loses against a normal bid, by ``situation``: the partner's bid and the
opponents' so far) come from this measurement. For each deal (blind nil on, the standard
rules otherwise, the bidder's team 150 behind so both its seats may bid blind nil, no bags
carried in), each seat of the trailing team is played twice with the same cards: once
bidding blind nil before looking, once looking and bidding as the level does; its partner
always looks, and every other decision is the level's own. It is measured twice, with the
level itself and with Easy as the bidder's partner; ``table`` keeps the less favourable
figures of the two, situation by situation (the rule's table). A play's value is the
bidder's team's hand score minus the opponents' (``scoring.core``), so a blind nil that
makes the opponents' contract easier or harder counts too. The figures per situation:
blind nils played, the share made, and the mean value of the blind nil play minus the
looking play, with a 95% interval. Printed as one JSON object.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import platform
import sys
import time
from dataclasses import dataclass, replace
from typing import Any

from bots.strategies.blind_nil import SITUATIONS, situation
from bots.strategies.decision import Decision, Strategy
from bots.strategies.registry import LEVELS, get_strategy
from bots.strategies.selfplay import play_hand
from games.engine.deal import deal_deck, shuffled_deck
from games.engine.hand import BIDDING, HandState, new_hand
from games.engine.rules import PRESETS
from games.engine.seats import partner_of
from games.engine.view import SeatView
from scoring.core.hand_score import score_team

RULES = replace(PRESETS["standard"], blind_nil=True)
# The trailing team (north-south) is this far behind: eligible, and far from any target.
TOTALS = (100, 250)


@dataclass(frozen=True)
class ForcedBlind:
    """A level whose blind nil choice is fixed: bid it (``blind``) or always look."""

    inner: Strategy
    blind: bool

    @property
    def version(self) -> str:
        return f"{self.inner.version}+{'blind' if self.blind else 'look'}"

    def decide(self, view: SeatView, seed: int, samples: int | None = None) -> Decision:
        if view.phase == BIDDING and view.turn == view.seat and not view.looked:
            return Decision.bid(0, blind=True) if self.blind else Decision.look()
        return self.inner.decide(view, seed, samples)


_level = "normal"
_partner = "normal"


def _init(level: str, partner: str) -> None:
    global _level, _partner
    _level, _partner = level, partner


def play_seat(job: tuple[int, int]) -> list[dict[str, Any]]:
    """Deal ``index``: both seats of the trailing team, blind nil and looking."""
    seed, index = job
    dealer = index & 3
    dealt = deal_deck(shuffled_deck(f"blind-nil-odds-{seed}", index + 1), dealer)
    inner = get_strategy(_level)
    looker = ForcedBlind(inner, False)
    partner = ForcedBlind(get_strategy(_partner), False)
    rows = []
    for seat in (0, 2):
        strategies: list[Strategy] = [inner, looker, inner, looker]
        strategies[partner_of(seat)] = partner
        strategies[seat] = ForcedBlind(inner, True)
        blind, known = play_one(dealt, dealer, index, seed, strategies, seat)
        strategies[seat] = ForcedBlind(inner, False)
        looking, _ = play_one(dealt, dealer, index, seed, strategies, seat)
        rows.append(
            {
                "group": known,
                "made": blind.tricks_won[seat] == 0,
                "gain": value(blind) - value(looking),
            }
        )
    return rows


def play_one(
    dealt: list[int], dealer: int, index: int, seed: int, strategies: list[Strategy], seat: int
) -> tuple[HandState, str]:
    """The hand played out, and the situation ``seat`` bid in."""
    state = new_hand(RULES, dealt, dealer, index + 1, TOTALS)
    known: list[str] = []

    def note(s: int, decision: Decision, ms: float, cpu: float) -> None:
        if s == seat and decision.kind == "bid" and not known:
            known.append(situation(state.bids, seat))

    play_hand(state, strategies, seed * 7919 + index, TOTALS, (0, 0), note)
    return state, known[0]


def value(state: HandState) -> int:
    """North-south's hand score minus east-west's."""
    ours = score_team(RULES, 0, state.bids, state.blind, state.tricks_won, 0, 0)
    theirs = score_team(RULES, 1, state.bids, state.blind, state.tricks_won, 0, 0)
    return ours.hand_score - theirs.hand_score


def summarize(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Count, share made and mean gain with its 95% interval."""
    n = len(rows)
    gains = [r["gain"] for r in rows]
    mean = sum(gains) / n
    spread = math.sqrt(sum((g - mean) ** 2 for g in gains) / (n - 1)) if n > 1 else 0.0
    half = 1.96 * spread / math.sqrt(n) if n else 0.0
    return {
        "blind_nils": n,
        "made_share": round(sum(1 for r in rows if r["made"]) / n, 3),
        "mean_gain": round(mean, 1),
        "ci95": [round(mean - half, 1), round(mean + half, 1)],
    }


def measure(level: str, partner: str, deals: int, seed: int, workers: int) -> dict[str, Any]:
    """Figures by situation with ``partner`` playing the blind nil bidder's partner."""
    jobs = [(seed, index) for index in range(deals)]
    if workers > 1:
        with multiprocessing.get_context("fork").Pool(workers, _init, (level, partner)) as pool:
            results = pool.map(play_seat, jobs, chunksize=8)
    else:
        _init(level, partner)
        results = [play_seat(job) for job in jobs]
    rows = [row for result in results for row in result]
    groups: dict[str, list[dict[str, Any]]] = {}
    for row in rows:
        groups.setdefault(row["group"], []).append(row)
    return {
        "all": summarize(rows),
        "by_situation": {name: summarize(groups[name]) for name in sorted(groups)},
    }


def run(level: str, deals: int, seed: int, workers: int) -> dict[str, Any]:
    """Measure with the level itself and with Easy as the partner; the rule's table."""
    started = time.perf_counter()
    partners = sorted({level, "easy"})
    figures = {partner: measure(level, partner, deals, seed, workers) for partner in partners}
    # The rule's table: the less favourable of the partners, situation by situation (the
    # bot does not know how well its partner, perhaps a person, covers a blind nil).
    table = {}
    for name in SITUATIONS:
        found = [figures[p]["by_situation"].get(name) for p in partners]
        if all(found):
            table[name] = [
                min(f["made_share"] for f in found if f),
                min(f["mean_gain"] for f in found if f),
            ]
    return {
        "benchmark": "blind_nil_odds",
        "level": level,
        "version": get_strategy(level).version,
        "deals": deals,
        "seed": seed,
        "totals": list(TOTALS),
        "by_partner_level": figures,
        "table": table,
        "elapsed_s": round(time.perf_counter() - started, 1),
        "workers": workers,
        "python": platform.python_version(),
    }


def main(argv: list[str] | None = None) -> None:
    """Parse the options, measure, print one JSON object."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--level", choices=LEVELS, default="normal")
    parser.add_argument("--deals", type=int, default=4000, help="deals (default 4000)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args(argv)
    if args.deals < 2:
        parser.error("--deals must be at least 2")
    if args.workers < 1:
        parser.error("--workers must be at least 1")
    result = run(args.level, args.deals, args.seed, args.workers)
    sys.stdout.write(json.dumps(result) + "\n")


if __name__ == "__main__":
    main()
