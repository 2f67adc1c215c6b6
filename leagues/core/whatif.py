"""What-if: two standings tables of the same entrants, and who moved by how much.

Under other rules, each played table is rescored with the replay's "flag and go on"
mode, and a table where a played move would be refused under them is *not comparable*
(``scoring.core.replay.comparability``, the verdict the replay page shows for the same
table): its result stands as played, and :func:`not_comparable_summary` names it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .errors import LeagueError
from .standings import Standings


@dataclass(frozen=True, slots=True)
class Move:
    """An entrant whose place changed; ``change`` > 0 means it moved up."""

    entrant: str
    before: int
    after: int

    @property
    def change(self) -> int:
        return self.before - self.after

    def as_dict(self) -> dict[str, Any]:
        return {
            "entrant": self.entrant,
            "before": self.before,
            "after": self.after,
            "change": self.change,
        }


@dataclass(frozen=True, slots=True)
class Comparison:
    moves: tuple[Move, ...]
    unchanged: int

    def as_dict(self) -> dict[str, Any]:
        return {"moves": [move.as_dict() for move in self.moves], "unchanged": self.unchanged}


def compare(before: Standings, after: Standings) -> Comparison:
    """Who moved between ``before`` and ``after`` (biggest move first, then by new place)."""
    old, new = before.rank_of(), after.rank_of()
    if old.keys() != new.keys():
        missing = sorted(old.keys() ^ new.keys())
        raise LeagueError(
            "not_comparable",
            "The two tables rank different entrants "
            f"({', '.join(missing[:5])}{'...' if len(missing) > 5 else ''}).",
        )
    moves = [
        Move(entrant, old[entrant], new[entrant]) for entrant in new if old[entrant] != new[entrant]
    ]
    moves.sort(key=lambda move: (-abs(move.change), move.after))
    return Comparison(tuple(moves), len(new) - len(moves))


def not_comparable_summary(places: Sequence[tuple[int, int]]) -> str | None:
    """The what-if's sentence for the (round, board) results that are not comparable
    under the other rules (``None`` when every result is)."""
    if not places:
        return None
    count = len(places)
    named = "; ".join(f"round {number} board {board}" for number, board in places)
    return (
        f"{count} result{'s are' if count > 1 else ' is'} not comparable under these rules "
        f"(a move played would be refused) and stand{'' if count > 1 else 's'} as played: "
        f"{named}."
    )
