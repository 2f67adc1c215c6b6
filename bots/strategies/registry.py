"""The levels by name: ``get_strategy("easy" | "normal" | "hard")`` (the latest revision
for a running game), ``board_strategy(level)`` (the latest for a single duplicate board:
Hard ``hard-3``, whose search scores a hand as a board), and every revision by version:
``strategy_of_version("normal-1")`` (for replay)."""

from __future__ import annotations

import math

from .decision import Strategy
from .easy import EasyStrategy
from .hard import LATEST_BOARD, HardStrategy
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
        HardStrategy(revision=LATEST_BOARD),
    )
}

# What plays a single duplicate board (par's plays, the bots of a duplicate table): the
# same levels, but Hard searches with the board's scoring (bags at their prorated cost),
# not the running game's. Easy and Normal do not search, so they are the same.
_BOARD_STRATEGIES: dict[str, Strategy] = {
    **_STRATEGIES,
    "hard": _VERSIONS[f"hard-{LATEST_BOARD}"],
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


def board_strategy(level: str) -> Strategy:
    """The strategy of a level for a single duplicate board (Hard: ``hard-3``)."""
    get_strategy(level)  # the same refusal for an unknown level
    return _BOARD_STRATEGIES[level]


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
# Every kept version without the guard: a par recorded under any of them is recomputed
# by the version that played it (``leagues`` verify_par, the par replay).
_EXACT_VERSIONS: dict[str, Strategy] = {
    version: (
        HardStrategy(revision=strategy.revision, time_limit_ms=math.inf)
        if isinstance(strategy, HardStrategy)
        else strategy
    )
    for version, strategy in _VERSIONS.items()
}


def exact_strategy(level: str) -> Strategy:
    """The level's strategy with no wall-clock guard: (view, seed) alone fixes each move.

    Slower than :func:`get_strategy`'s on a loaded machine (Hard always goes through its
    planned sampled deals), never different on an idle one.
    """
    get_strategy(level)  # the same refusal for an unknown level
    return _EXACT[level]


def exact_strategy_of_version(version: str) -> Strategy | None:
    """The kept version's strategy with no wall-clock guard (``None``: not kept): what
    recomputes a par recorded under ``version``, whichever version is latest now."""
    return _EXACT_VERSIONS.get(version)
