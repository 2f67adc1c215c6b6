"""Percentiles of timing samples, as every benchmark reports them (pure: no Django)."""

from __future__ import annotations

import math
from collections.abc import Sequence


def nearest_rank(ordered: Sequence[float], p: float) -> float:
    """The ``p``-th percentile (0-100) of ``ordered`` (sorted, not empty) by nearest rank:
    the smallest sample with at least ``p`` percent of the samples at or below it."""
    if not ordered:
        raise ValueError("no samples")
    # p * n / 100 is exact for the integral p and n the benchmarks use; the tolerance
    # keeps a float p from ranking one sample too high.
    rank = math.ceil(p * len(ordered) / 100 - 1e-9)
    return ordered[min(len(ordered) - 1, max(0, rank - 1))]


def percentiles(values: Sequence[float]) -> dict[str, float | None]:
    """p50/p95/p99 (nearest rank) in ms, rounded to 0.1, plus the count."""
    if not values:
        return {"p50": None, "p95": None, "p99": None, "n": 0}
    ordered = sorted(values)
    return {
        "p50": round(nearest_rank(ordered, 50), 1),
        "p95": round(nearest_rank(ordered, 95), 1),
        "p99": round(nearest_rank(ordered, 99), 1),
        "n": len(ordered),
    }
