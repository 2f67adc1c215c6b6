"""Promotion and relegation between a season's divisions (pure)."""

from __future__ import annotations

from collections.abc import Sequence


def promote(divisions: Sequence[Sequence[str]], up: int, down: int) -> list[list[str]]:
    """Next season's divisions from this season's final orders (top division first): the
    first ``up`` of each division but the top go up one, the last ``down`` of each but the
    bottom go down one; everyone else stays.  Orders inside a division are kept."""
    count = len(divisions)
    moved: list[list[str]] = [[] for _ in range(count)]
    for index, order in enumerate(divisions):
        for place, entrant in enumerate(order):
            target = index
            if index > 0 and place < up:
                target = index - 1
            elif index < count - 1 and place >= len(order) - down:
                target = index + 1
            moved[target].append(entrant)
    return moved
