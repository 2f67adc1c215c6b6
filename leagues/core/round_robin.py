"""Round robin by the circle method: single or double, a bye each round for odd counts.

Positions come from the draw of lots under the competition's lots seed (or the order
given, ``order="as_listed"``), drawn once for the whole schedule: every round's input
carries ``lots_seed``, so each round re-derives the same slots.  With
``N`` slots (the entrants, plus a bye slot when their number is odd), slot ``N-1`` is
fixed and slots ``0 .. m-1`` (``m = N-1``) rotate: in round ``r`` (0-based) slots ``x``
and ``y`` meet when ``x + y = r (mod m)``, and the one slot with ``2x = r (mod m)``
meets the fixed slot.  ``x`` sits North-South against ``y`` when ``(x - y) mod m`` is
odd, and the fixed slot sits North-South in even rounds.  Every pair meets once;
each entrant sits North-South in half its matches (±1), alternating round to round
except once; the second cycle of a double round robin swaps every orientation.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .errors import LeagueError
from .lots import lot
from .pairings import Pairing, RoundPairing

ENGINE = "round_robin"
ENGINE_VERSION = 1
MAX_ROUND_ROBIN_ENTRANTS = 256
ORDERS = ("lots", "as_listed")


def rounds_needed(entrant_count: int, double: bool = False) -> int:
    """How many rounds the schedule has."""
    slots = entrant_count + entrant_count % 2
    return (slots - 1) * (2 if double else 1)


def positions(entrant_ids: Sequence[str], seed: str, order: str = "lots") -> list[str]:
    """The entrants in slot order: by the draw of lots, or as listed."""
    if order not in ORDERS:
        raise LeagueError("bad_order", f"order {order!r} is not one of {', '.join(ORDERS)}.")
    if len(set(entrant_ids)) != len(entrant_ids):
        raise LeagueError("duplicate_entrant", "An entrant is listed twice.")
    if not 2 <= len(entrant_ids) <= MAX_ROUND_ROBIN_ENTRANTS:
        raise LeagueError(
            "bad_entrant_count",
            f"A round robin has 2 to {MAX_ROUND_ROBIN_ENTRANTS} entrants.",
        )
    if order == "as_listed":
        return list(entrant_ids)
    return sorted(entrant_ids, key=lambda entrant: (lot(seed, ENGINE, entrant), entrant))


def schedule_round(slots: Sequence[str | None], round_index: int) -> RoundPairing:
    """Round ``round_index`` (0-based, double cycles included) of the slot order.

    ``slots`` has an even length; a ``None`` slot is the bye.
    """
    rotating = len(slots) - 1
    cycle, r = divmod(round_index, rotating)
    swap = cycle % 2 == 1
    fixed = slots[rotating]
    matches: list[tuple[str, str]] = []
    byes: list[str] = []

    def add(north: str | None, east: str | None) -> None:
        if north is None or east is None:
            sitting = east if north is None else north
            if sitting is not None:
                byes.append(sitting)
            return
        matches.append((east, north) if swap else (north, east))

    for x in range(rotating):
        y = (r - x) % rotating
        if x == y:
            if r % 2 == 0:
                add(fixed, slots[x])
            else:
                add(slots[x], fixed)
        elif x < y:
            if (x - y) % rotating % 2 == 1:
                add(slots[x], slots[y])
            else:
                add(slots[y], slots[x])
    return RoundPairing(
        number=round_index + 1,
        matches=tuple(
            Pairing(board, north, east) for board, (north, east) in enumerate(matches, start=1)
        ),
        byes=tuple(byes),
    )


def schedule(
    entrant_ids: Sequence[str], seed: str, double: bool = False, order: str = "lots"
) -> list[RoundPairing]:
    """Every round of the round robin, in order."""
    ordered: list[str | None] = list(positions(entrant_ids, seed, order))
    if len(ordered) % 2:
        ordered.append(None)
    return [
        schedule_round(ordered, index) for index in range(rounds_needed(len(entrant_ids), double))
    ]


def canonical_input(
    round_number: int,
    entrant_ids: Sequence[str],
    double: bool = False,
    order: str = "lots",
    first_round: int = 1,
    lots_seed: str | None = None,
) -> dict[str, Any]:
    """The input a round is derived from (and committed to).

    ``first_round`` is the competition round the schedule starts in (a round robin
    after another stage); round ``round_number`` plays the schedule's round
    ``round_number - first_round + 1``.  ``lots_seed`` (the competition's) draws the
    positions; without it (inputs written before it was added) the round's own seed
    does, which re-draws the slots every round.
    """
    document: dict[str, Any] = {
        "engine": ENGINE,
        "engine_version": ENGINE_VERSION,
        "round": round_number,
        "first_round": first_round,
        "entrants": list(entrant_ids),
        "double": double,
        "order": order,
    }
    if lots_seed is not None:
        document["lots_seed"] = lots_seed
    return document


def derive(document: Mapping[str, Any], seed: str) -> RoundPairing:
    """Round ``document["round"]`` of the schedule the canonical input describes."""
    entrant_ids = [str(entrant) for entrant in document["entrants"]]
    double = bool(document.get("double", False))
    round_number = int(document["round"])
    first_round = int(document.get("first_round", 1))
    total = rounds_needed(len(entrant_ids), double)
    index = round_number - first_round
    if not 0 <= index < total:
        raise LeagueError(
            "no_such_round",
            f"This round robin has rounds {first_round} to {first_round + total - 1}, "
            f"not {round_number}.",
        )
    draw = str(document.get("lots_seed", seed))
    ordered: list[str | None] = list(
        positions(entrant_ids, draw, str(document.get("order", "lots")))
    )
    if len(ordered) % 2:
        ordered.append(None)
    scheduled = schedule_round(ordered, index)
    return RoundPairing(round_number, scheduled.matches, scheduled.byes)
