"""The capacity ramp: which table counts to try, and whether a step held (pure: no Django).

A step runs a number of tables for a while and is judged on what its moves did: it
holds when some moves were measured, none failed, every socket of the table received
every move, nothing arrived twice or out of sequence, and the p99 from a move's request
to the last of its table's sockets receiving it is within the limit. The ramp raises
the count geometrically until a step fails (or the ceiling is reached), then, if asked,
bisects between the last count that held and the first that failed.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from benchmarks.percentiles import nearest_rank

#: The issue's limit on the p99 from a move's request to its table's last socket.
LATENCY_LIMIT_MS = 100.0


@dataclass(frozen=True)
class StepOutcome:
    """What one step measured (the figures its verdict needs)."""

    tables: int
    latencies_ms: tuple[float, ...]
    errors: int = 0
    #: (move, socket) pairs the socket had not received when the step was judged.
    undelivered: int = 0
    duplicated: int = 0
    sequence_breaks: int = 0

    @property
    def p50_ms(self) -> float | None:
        return _rank(self.latencies_ms, 50)

    @property
    def p99_ms(self) -> float | None:
        return _rank(self.latencies_ms, 99)


def _rank(values: tuple[float, ...], p: float) -> float | None:
    return round(nearest_rank(sorted(values), p), 1) if values else None


def failure(outcome: StepOutcome, limit_ms: float = LATENCY_LIMIT_MS) -> str | None:
    """Why the step did not hold, or None when it held."""
    if outcome.errors:
        return f"{outcome.errors} error(s)"
    if outcome.undelivered:
        return f"{outcome.undelivered} move(s) not delivered to every socket"
    if outcome.duplicated:
        return f"{outcome.duplicated} event(s) delivered twice"
    if outcome.sequence_breaks:
        return f"{outcome.sequence_breaks} message(s) out of sequence"
    p99 = outcome.p99_ms
    if p99 is None:
        return "no move measured"
    if p99 > limit_ms:
        return f"p99 {p99} ms > {limit_ms:g} ms"
    return None


def grown(tables: int, factor: float) -> int:
    """The next count of the upward ramp: ``tables * factor``, at least one more."""
    return max(tables + 1, math.ceil(tables * factor))


def shrunk(tables: int, factor: float) -> int | None:
    """The next count of a downward search: ``tables / factor``, at least one fewer;
    None below one table."""
    if tables <= 1:
        return None
    return max(1, min(tables - 1, math.floor(tables / factor)))


def between(held: int, failed: int) -> int | None:
    """A count between one that held and one that failed (their geometric mean), or None
    when no whole count lies strictly between them."""
    if failed - held <= 1:
        return None
    middle = round(math.sqrt(held * failed)) if held > 0 else failed // 2
    return min(failed - 1, max(held + 1, middle))


class Ramp:
    """The counts to try, one step at a time: ``first``, then :meth:`after` each outcome."""

    def __init__(self, start: int, factor: float, ceiling: int, refinements: int = 0) -> None:
        if start < 1 or ceiling < start:
            raise ValueError("the ramp needs 1 <= start <= ceiling")
        if factor <= 1:
            raise ValueError("the ramp's factor must be above 1")
        if refinements < 0:
            raise ValueError("refinements cannot be negative")
        self.first = start
        self.factor = factor
        self.ceiling = ceiling
        self.refinements_left = refinements
        #: The largest count that held, 0 while none has.
        self.largest_held = 0
        #: The smallest count that failed, None while none has.
        self.smallest_failed: int | None = None

    def after(self, tables: int, held: bool) -> int | None:
        """Record the outcome at ``tables``; the next count to try, or None when done."""
        if held:
            self.largest_held = max(self.largest_held, tables)
        elif self.smallest_failed is None or tables < self.smallest_failed:
            self.smallest_failed = tables
        if self.smallest_failed is None:
            if tables >= self.ceiling:
                return None
            return min(self.ceiling, grown(tables, self.factor))
        if self.largest_held == 0:
            # Nothing has held yet (the first step was already too many): step down by the
            # same factor until a count holds, so a busy box still reports what it carries.
            return shrunk(self.smallest_failed, self.factor)
        if self.refinements_left <= 0:
            return None
        self.refinements_left -= 1
        return between(self.largest_held, self.smallest_failed)
