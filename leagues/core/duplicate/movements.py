"""Movements: which partnership holds which cards at which table for which board.

A movement is a pure function ``(tables, boards) -> schedule``; the schedule lists one
:class:`Seating` per table and board. Tables, boards, rounds and partnerships are
numbered from 1; the platform maps partnership slots to entrants by the draw of lots.

Online there are no physical boards to carry from table to table, so every table of a
round plays that round's boards at the same time (a *barometer* movement). That is also
what keeps a board secret for the shortest time: it is open during one round only, and
its traveller is complete when that round ends.

- ``teams_of_four``: two tables per match, two teams of two partnerships. Team A sits
  North-South at the first table and East-West at the second, team B the other way, and
  every board is played at both: each team holds each board once in each direction.
  The partnerships change opponents at half time (boards in two rounds), the usual
  practice of team matches, so a pair meets both pairs of the other team.
- ``mitchell``: ``tables`` North-South partnerships stay at their tables (1 to T), the
  East-West ones (T+1 to 2T) move up one table each round; every table plays round r's
  boards in round r. Each board is held North-South by T partnerships and East-West by
  T. North-South pairs are ranked among themselves and East-West among themselves (two
  fields). With ``arrow_switch`` the two directions swap at every table in the even
  rounds, so every partnership holds both directions and all are ranked together (one
  field), the online answer to the Howell movement's purpose.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ..errors import LeagueError
from .boards import MAX_BOARDS

MAX_TABLES = 128  # 256 partnerships: a large online field; the schedule stays 8,192 seatings


@dataclass(frozen=True, slots=True)
class Seating:
    """Board ``board`` at table ``table`` in round ``round``: who sits which way."""

    round: int
    table: int
    board: int
    north_south: int
    east_west: int

    def as_dict(self) -> dict[str, Any]:
        return {
            "round": self.round,
            "table": self.table,
            "board": self.board,
            "north_south": self.north_south,
            "east_west": self.east_west,
        }


Schedule = tuple[Seating, ...]


def _check_counts(tables: int, boards: int) -> None:
    for name, value, high in (("tables", tables, MAX_TABLES), ("boards", boards, MAX_BOARDS)):
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= high:
            raise LeagueError("bad_movement", f"{name} runs from 1 to {high}, not {value!r}.")


def teams_of_four(tables: int, boards: int) -> Schedule:
    """Matches of two tables: team ``2m-1`` against team ``2m`` at tables ``2m-1``, ``2m``.

    Team ``k``'s partnerships are ``2k-1`` and ``2k``. The first half of the boards
    (the larger half when odd) is round 1, the rest round 2 with opponents changed.
    """
    _check_counts(tables, boards)
    if tables % 2:
        raise LeagueError(
            "bad_movement", f"A teams-of-four match needs an even number of tables, not {tables}."
        )
    first_half = (boards + 1) // 2
    seatings = []
    for match in range(tables // 2):
        a, b = 2 * match + 1, 2 * match + 2  # teams
        a1, a2, b1, b2 = 2 * a - 1, 2 * a, 2 * b - 1, 2 * b
        open_room, closed_room = 2 * match + 1, 2 * match + 2
        for board in range(1, boards + 1):
            if board <= first_half:
                seatings.append(Seating(1, open_room, board, a1, b1))
                seatings.append(Seating(1, closed_room, board, b2, a2))
            else:
                seatings.append(Seating(2, open_room, board, a1, b2))
                seatings.append(Seating(2, closed_room, board, b1, a2))
    return tuple(sorted(seatings, key=_order))


def mitchell_rounds(tables: int, boards: int) -> int:
    """The rounds a Mitchell plays by default: the most that divide the boards evenly
    with no East-West pair meeting a North-South pair twice (at most ``tables``)."""
    _check_counts(tables, boards)
    return max(r for r in range(1, min(tables, boards) + 1) if boards % r == 0)


def mitchell(
    tables: int, boards: int, rounds: int | None = None, arrow_switch: bool = False
) -> Schedule:
    """The barometer Mitchell described in the module docstring."""
    _check_counts(tables, boards)
    rounds = mitchell_rounds(tables, boards) if rounds is None else rounds
    if isinstance(rounds, bool) or not isinstance(rounds, int) or not 1 <= rounds <= tables:
        raise LeagueError(
            "bad_movement",
            f"A Mitchell of {tables} tables plays 1 to {tables} rounds (more would pair "
            "the same partnerships twice).",
        )
    if boards % rounds:
        raise LeagueError(
            "bad_movement", f"{boards} boards do not split into {rounds} rounds of equal size."
        )
    per_round = boards // rounds
    seatings = []
    for round_index in range(rounds):
        switched = arrow_switch and round_index % 2 == 1
        for table in range(tables):
            stationary = table + 1
            mover = tables + (table + round_index) % tables + 1
            ns, ew = (mover, stationary) if switched else (stationary, mover)
            for offset in range(per_round):
                board = round_index * per_round + offset + 1
                seatings.append(Seating(round_index + 1, table + 1, board, ns, ew))
    return tuple(sorted(seatings, key=_order))


def mitchell_arrow_switch(tables: int, boards: int) -> Schedule:
    """``mitchell`` with the arrow switch: one field."""
    return mitchell(tables, boards, arrow_switch=True)


def _order(seating: Seating) -> tuple[int, int, int]:
    return (seating.round, seating.board, seating.table)


def partnerships(schedule: Sequence[Seating]) -> set[int]:
    """Every partnership slot the schedule seats."""
    return {s.north_south for s in schedule} | {s.east_west for s in schedule}


Movement = Callable[[int, int], Schedule]

#: The movements an organiser may pin, by the name stored in the competition's settings.
MOVEMENTS: dict[str, Movement] = {
    "teams_of_four": teams_of_four,
    "mitchell": mitchell,
    "mitchell_arrow_switch": mitchell_arrow_switch,
}


def movement(name: str) -> Movement:
    """The movement called ``name``; refuses an unknown one naming those offered."""
    try:
        return MOVEMENTS[name]
    except KeyError:
        raise LeagueError(
            "unknown_movement", f"movement {name!r} is not one of {', '.join(sorted(MOVEMENTS))}."
        ) from None
