"""Deciding a stored bot move again from its recorded metadata, to check it.

A bot's move is stored with ``{"level", "strategy_version", "seed", "samples"}`` in its
event metadata (``samples`` only when a search ran).  :func:`replay_decision` asks the
same revision of the level (``strategy_version``: earlier revisions are kept) for the same
view with that seed and search budget and gets the same move, however loaded the machine
is: a budgeted search ignores the clock.
"""

from __future__ import annotations

from collections.abc import Mapping

from games.engine.view import SeatView

from .decision import Decision
from .registry import get_strategy, strategy_of_version


class NotReplayable(ValueError):
    """Metadata that does not describe a decision this code can make again."""


def replay_decision(actor: Mapping[str, object], view: SeatView) -> Decision:
    """The decision the bot described by ``actor`` (event metadata) makes for ``view``."""
    level = actor.get("level")
    if not isinstance(level, str):
        raise NotReplayable("The metadata names no bot level.")
    get_strategy(level)  # an unknown level raises UnknownLevel
    version = actor.get("strategy_version")
    strategy = strategy_of_version(version) if isinstance(version, str) else None
    if strategy is None or not strategy.version.startswith(f"{level}-"):
        raise NotReplayable(
            f"The move was decided by {version!r}, which is not a revision of {level!r} "
            f"this code keeps."
        )
    return strategy.decide(view, _seed(actor.get("seed")), samples=_samples(actor.get("samples")))


def _seed(value: object) -> int:
    # Seeds beyond 53 bits are stored as text (JSON numbers are doubles).
    if isinstance(value, bool):
        raise NotReplayable(f"The metadata's seed {value!r} is not a number.")
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.lstrip("-").isdigit():
        return int(value)
    raise NotReplayable(f"The metadata's seed {value!r} is not a number.")


def _samples(value: object) -> int | None:
    if value is None:
        return None
    if isinstance(value, int) and not isinstance(value, bool) and value >= 1:
        return value
    raise NotReplayable(f"The metadata's samples {value!r} is not a positive count.")
