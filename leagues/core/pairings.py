"""What a pairing engine returns, and the history later rounds are paired against."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

NORTH_SOUTH = "N"
EAST_WEST = "E"


@dataclass(frozen=True, slots=True)
class Pairing:
    """One match of a round: board number, the entrant on each side, and for a knockout
    the bracket match it is (``W1-3``; empty otherwise)."""

    board: int
    north_south: str
    east_west: str
    match: str = ""

    def as_dict(self) -> dict[str, Any]:
        document: dict[str, Any] = {
            "board": self.board,
            "north_south": self.north_south,
            "east_west": self.east_west,
        }
        if self.match:
            document["match"] = self.match
        return document


@dataclass(frozen=True, slots=True)
class RoundPairing:
    """A paired round: the matches and the byes, in board order."""

    number: int
    matches: tuple[Pairing, ...]
    byes: tuple[str, ...] = ()

    def as_dict(self) -> dict[str, Any]:
        """The canonical form that commitments and verification compare."""
        return {
            "round": self.number,
            "matches": [pairing.as_dict() for pairing in self.matches],
            "byes": list(self.byes),
        }

    def entrants(self) -> list[str]:
        """Every entrant of the round, matches first, then byes."""
        seen = [side for p in self.matches for side in (p.north_south, p.east_west)]
        return seen + list(self.byes)


@dataclass(slots=True)
class EntrantHistory:
    """What earlier rounds did to one entrant: opponents, byes, orientations (``"NEN..."``)."""

    opponents: Counter[str] = field(default_factory=Counter)
    byes: int = 0
    orientations: str = ""

    @property
    def balance(self) -> int:
        """North-South matches minus East-West matches."""
        return self.orientations.count(NORTH_SOUTH) - self.orientations.count(EAST_WEST)


def histories(rounds: Iterable[RoundPairing]) -> dict[str, EntrantHistory]:
    """Per entrant, what the given rounds (in round order) paired it with."""
    table: dict[str, EntrantHistory] = {}

    def of(entrant: str) -> EntrantHistory:
        found = table.get(entrant)
        if found is None:
            found = table[entrant] = EntrantHistory()
        return found

    for paired in sorted(rounds, key=lambda r: r.number):
        for pairing in paired.matches:
            north, east = of(pairing.north_south), of(pairing.east_west)
            north.opponents[pairing.east_west] += 1
            east.opponents[pairing.north_south] += 1
            north.orientations += NORTH_SOUTH
            east.orientations += EAST_WEST
        for entrant in paired.byes:
            of(entrant).byes += 1
    return table


def round_from_dict(document: Mapping[str, Any]) -> RoundPairing:
    """The inverse of :meth:`RoundPairing.as_dict` for documents the engines produced."""
    return RoundPairing(
        number=int(document["round"]),
        matches=tuple(
            Pairing(
                int(m["board"]), str(m["north_south"]), str(m["east_west"]), str(m.get("match", ""))
            )
            for m in document["matches"]
        ),
        byes=tuple(str(entrant) for entrant in document["byes"]),
    )


#: A pair of entrants that must not meet, ids in sorted order (``forbidden_pair``).
ForbiddenPair = tuple[str, str]
#: At most this many pairs are kept apart in one competition (every engine input that
#: uses them carries those of its field).
MAX_FORBIDDEN_PAIRS = 500


def forbidden_pair(a: str, b: str) -> ForbiddenPair:
    """The pair ``a``-``b`` as engines and inputs keep it: ids in sorted order."""
    return (a, b) if a <= b else (b, a)


def forbidden_among(
    forbidden: Iterable[Iterable[str]], entrants: Iterable[str]
) -> list[ForbiddenPair]:
    """The forbidden pairs whose two entrants are both among ``entrants``, sorted: what
    an engine input carries (pairs of entrants not in the field cannot meet)."""
    present = set(entrants)
    pairs = {forbidden_pair(*pair) for pair in (tuple(str(x) for x in p) for p in forbidden)}
    return sorted(p for p in pairs if len(p) == 2 and p[0] != p[1] and set(p) <= present)


def forbidden_meetings(
    paired: RoundPairing, forbidden: Iterable[Iterable[str]]
) -> list[ForbiddenPair]:
    """The forbidden pairs that meet in ``paired`` (an engine pairs one only when no
    pairing without it exists: docs/leagues.md, "Forbidden pairings")."""
    pairs = {forbidden_pair(*(str(x) for x in p)) for p in forbidden}
    met = {forbidden_pair(m.north_south, m.east_west) for m in paired.matches}
    return sorted(pairs & met)
