"""The levels by name: ``get_strategy("easy" | "normal" | "hard")`` (the latest revision),
and every revision by version: ``strategy_of_version("normal-1")`` (for replay)."""

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


# Earlier revisions, kept so that moves recorded under them replay exactly (replay.py);
# every version ever stored in a move's metadata must stay here.
_VERSIONS: dict[str, Strategy] = {
    strategy.version: strategy
    for strategy in (
        *_STRATEGIES.values(),
        EasyStrategy(revision=1),
        NormalStrategy(revision=1),
        HardStrategy(revision=1),
    )
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


def strategy_of_version(version: str) -> Strategy | None:
    """The strategy of a version (``"normal-1"``, ``"hard-2"``...), or ``None`` if unknown."""
    return _VERSIONS.get(version)


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
