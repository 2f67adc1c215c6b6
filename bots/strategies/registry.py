"""The levels by name: ``get_strategy("easy" | "normal" | "hard")``."""

from __future__ import annotations

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
