"""The levels by name: ``get_strategy("easy" | "normal" | "hard")``."""

from __future__ import annotations

import math

from .decision import Strategy
from .easy import EasyStrategy
from .hard import HardStrategy
from .normal import NormalStrategy

LEVELS: tuple[str, ...] = ("easy", "normal", "hard")

_STRATEGIES: dict[str, Strategy] = {
    "easy": EasyStrategy(),
    "normal": NormalStrategy(),
    "hard": HardStrategy(),
}


class UnknownLevel(ValueError):
    """A level name that is not one of :data:`LEVELS`."""


def get_strategy(level: str) -> Strategy:
    """The strategy of a level; raises :class:`UnknownLevel` with the known names."""
    try:
        return _STRATEGIES[level]
    except KeyError:
        raise UnknownLevel(
            f"Unknown bot level {level!r}: use one of {', '.join(LEVELS)}."
        ) from None


# Hard's only source of nondeterminism is its wall-clock guard; without it a decision is
# fixed by the view and the seed, which is what a result anyone must recompute (a
# duplicate board's par) needs. Same code and version, same count budget.
_EXACT: dict[str, Strategy] = {
    "easy": _STRATEGIES["easy"],
    "normal": _STRATEGIES["normal"],
    "hard": HardStrategy(time_limit_ms=math.inf),
}


def exact_strategy(level: str) -> Strategy:
    """The level's strategy with no wall-clock guard: (view, seed) alone fixes each move.

    Slower than :func:`get_strategy`'s on a loaded machine (Hard always goes through its
    planned sampled deals), never different on an idle one.
    """
    get_strategy(level)  # the same refusal for an unknown level
    return _EXACT[level]
