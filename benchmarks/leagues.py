"""League pairing and standings speed, printed as one JSON object measured in one run.

Run ``python -m benchmarks.leagues [--sizes 64,256,1024] [--results 10000,100000]
[--history-rounds 4] [--repeat 3]``.

- ``pair_ms``, keyed by entrant count: the time ``leagues.core.swiss.pair`` takes for
  one Swiss round of that many entrants (the best of ``--repeat`` runs), after
  ``--history-rounds`` earlier rounds (paired by the engine itself, random winners), so
  score groups, rematches to avoid and byes are those of a real mid-event round.
  Target: 256 entrants under 1,000 ms.
- ``standings_ms``, keyed by result count: ``leagues.core.standings.compute_standings``
  over that many results (2,000 entrants, 1,000 matches a round, default tie-breaks,
  head-to-head included), best of ``--repeat``.  Target: 100,000 results under 2,000 ms.
- ``pair_cpu_ms`` and ``standings_cpu_ms``: the same runs in process CPU time, which
  other programs on a shared machine do not inflate.

The platform half (``whatif_events_per_second``, ``rebuild_events_per_second``,
``tables_per_minute``, ``standings_lag_ms``) needs the leagues Django app and is added
by :func:`platform_figures` once that app exists; until then those keys are absent
rather than filled with numbers nobody measured.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import sys
import time
from collections.abc import Callable
from typing import Any

import networkx

from leagues.core.entrants import Entrant
from leagues.core.pairings import RoundPairing, histories
from leagues.core.results import Award, MatchResult
from leagues.core.standings import compute_standings
from leagues.core.swiss import SwissEntrant, pair, swiss_entrants

STANDINGS_ENTRANTS = 2000


def best_ms(run: Callable[[], object], repeat: int) -> tuple[float, float]:
    """(wall-clock ms, process CPU ms), each the best of ``repeat`` runs."""
    walls, cpus = [], []
    for _ in range(repeat):
        started, cpu_started = time.perf_counter(), time.process_time()
        run()
        walls.append((time.perf_counter() - started) * 1000)
        cpus.append((time.process_time() - cpu_started) * 1000)
    return round(min(walls), 1), round(min(cpus), 1)


def swiss_field(count: int, history_rounds: int, rng: random.Random) -> list[SwissEntrant]:
    """The engine's input for round ``history_rounds + 1`` of a simulated Swiss."""
    ids = [f"e{n:05d}" for n in range(count)]
    ratings = {entrant: rng.randint(0, 50_000) for entrant in ids}
    scores = dict.fromkeys(ids, 0)
    done: list[RoundPairing] = []
    for number in range(1, history_rounds + 1):
        paired = pair(number, swiss_entrants(scores, ratings, histories(done)), "bench")
        for match in paired.matches:
            scores[rng.choice((match.north_south, match.east_west))] += 2
        for bye in paired.byes:
            scores[bye] += 2
        done.append(paired)
    return swiss_entrants(scores, ratings, histories(done))


def pair_ms(
    sizes: list[int], history_rounds: int, repeat: int
) -> tuple[dict[str, float], dict[str, float]]:
    walls, cpus = {}, {}
    for count in sizes:
        field = swiss_field(count, history_rounds, random.Random(count))
        walls[str(count)], cpus[str(count)] = best_ms(
            lambda field=field: pair(history_rounds + 1, field, "bench"), repeat
        )
    return walls, cpus


def simulated_results(
    count: int, rng: random.Random
) -> tuple[list[Entrant], list[MatchResult], list[Award]]:
    ids = [f"e{n:05d}" for n in range(STANDINGS_ENTRANTS)]
    entrants = [Entrant(entrant, (f"{entrant}a", f"{entrant}b")) for entrant in ids]
    results: list[MatchResult] = []
    per_round = STANDINGS_ENTRANTS // 2
    number = 0
    while len(results) < count:
        number += 1
        order = list(ids)
        rng.shuffle(order)
        for board in range(min(per_round, count - len(results))):
            north, east = order[2 * board], order[2 * board + 1]
            ns, ew = rng.choice([(500, 310), (420, 505), (510, 490), (260, 500)])
            results.append(
                MatchResult(
                    f"r{len(results)}",
                    number,
                    board + 1,
                    north,
                    east,
                    ns,
                    ew,
                    "north_south" if ns > ew else "east_west",
                    len(results) + 1,
                )
            )
    return entrants, results, []


def standings_ms(counts: list[int], repeat: int) -> tuple[dict[str, float], dict[str, float]]:
    walls, cpus = {}, {}
    for count in counts:
        entrants, results, awards = simulated_results(count, random.Random(count))
        walls[str(count)], cpus[str(count)] = best_ms(
            lambda e=entrants, r=results, a=awards: compute_standings(e, r, a, lots_seed="b"),
            repeat,
        )
    return walls, cpus


def platform_figures(args: argparse.Namespace) -> dict[str, Any]:
    """The figures that need the leagues app (what-if rescoring and projection rebuild
    rates, tables per minute and standings lag of a bot-played Swiss): phase 2."""
    return {}


def run(args: argparse.Namespace) -> dict[str, Any]:
    pair_wall, pair_cpu = pair_ms(args.sizes, args.history_rounds, args.repeat)
    standings_wall, standings_cpu = standings_ms(args.results, args.repeat)
    figures: dict[str, Any] = {
        "pair_ms": pair_wall,
        "standings_ms": standings_wall,
        # Process CPU time: what other programs on a shared machine do not inflate.
        "pair_cpu_ms": pair_cpu,
        "standings_cpu_ms": standings_cpu,
        "targets": {"pair_ms_256": 1000, "standings_ms_100000": 2000},
        "python": platform.python_version(),
        "networkx": networkx.__version__,
    }
    figures.update(platform_figures(args))
    return figures


def counts(text: str) -> list[int]:
    values = [int(part) for part in text.split(",") if part]
    if not values or any(not 2 <= value <= 1_000_000 for value in values):
        raise argparse.ArgumentTypeError("a comma-separated list of counts from 2 to 1,000,000")
    return values


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--sizes", type=counts, default=[64, 256, 1024])
    parser.add_argument("--results", type=counts, default=[10_000, 100_000])
    parser.add_argument("--history-rounds", type=int, default=4)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    if not 0 <= args.history_rounds <= 20:
        parser.error("--history-rounds runs from 0 to 20")
    if not 1 <= args.repeat <= 20:
        parser.error("--repeat runs from 1 to 20")
    if any(size > 4096 for size in args.sizes):
        parser.error("--sizes: at most 4096 entrants")
    sys.stdout.write(json.dumps(run(args)) + "\n")


if __name__ == "__main__":
    main()
