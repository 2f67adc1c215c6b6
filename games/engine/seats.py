"""Seats and partnerships.

Seats are integers in clockwise order: north 0, east 1, south 2, west 3.  The
partnership of a seat is ``seat % 2``: north-south 0, east-west 1.
"""

from __future__ import annotations

NORTH, EAST, SOUTH, WEST = 0, 1, 2, 3
SEATS = (NORTH, EAST, SOUTH, WEST)
SEAT_NAMES = ("north", "east", "south", "west")
NORTH_SOUTH, EAST_WEST = 0, 1
TEAMS = (NORTH_SOUTH, EAST_WEST)
TEAM_NAMES = ("north_south", "east_west")
# How a sentence for a person names each team (TEAM_NAMES are the keys of JSON documents).
TEAM_WORDS = ("North-South", "East-West")


class SeatError(ValueError):
    """A seat or team name that cannot be read."""


def parse_seat(name: str) -> int:
    """The seat index for ``"north"`` .. ``"west"``."""
    try:
        return SEAT_NAMES.index(name)
    except ValueError:
        raise SeatError(f"'{name}' is not a seat: use one of {', '.join(SEAT_NAMES)}.") from None


def parse_team(name: str) -> int:
    """The team index for ``"north_south"`` or ``"east_west"``."""
    try:
        return TEAM_NAMES.index(name)
    except ValueError:
        raise SeatError(
            f'\'{name}\' is not a team: use "north_south" (North-South) or "east_west" (East-West).'
        ) from None


def team_of(seat: int) -> int:
    """The partnership a seat plays for."""
    return seat & 1


def partner_of(seat: int) -> int:
    """The seat across the table."""
    return (seat + 2) & 3


def left_of(seat: int) -> int:
    """The next seat clockwise."""
    return (seat + 1) & 3


def seats_of(team: int) -> tuple[int, int]:
    """The two seats of a partnership."""
    return (team, team + 2)
