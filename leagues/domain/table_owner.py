"""The owner tag a competition's table carries (``TableCreated`` v3 ``owner``).

Games keeps the tag and shows it, and never reads it; the leagues write it when they
create a round's tables (``leagues.services.tables``) and read it back when a seated
player's socket announces them (``leagues.receivers``): the table says which match it
plays without a lookup.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

KIND = "competition"


@dataclass(frozen=True, slots=True)
class TableOwner:
    """The match a competition's table plays."""

    competition_id: str
    round: int
    board: int

    def as_tag(self) -> dict[str, Any]:
        return {"kind": KIND, "id": self.competition_id, "round": self.round, "board": self.board}

    @classmethod
    def of(cls, tag: object) -> TableOwner | None:
        """The competition's match a table's tag names, or None for any other tag."""
        if not isinstance(tag, Mapping) or tag.get("kind") != KIND:
            return None
        cid, number, board = tag.get("id"), tag.get("round"), tag.get("board")
        if not isinstance(cid, str) or not _counts(number) or not _counts(board):
            return None
        assert isinstance(number, int) and isinstance(board, int)
        return cls(cid, number, board)


def _counts(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 1
