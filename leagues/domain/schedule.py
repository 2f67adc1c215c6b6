"""A competition's clock rules: when a round's tables open, when its grace time ends, who
is absent, and the next moment the scheduler has something to do.

Times come in as arguments (no clock here), so the rules are testable at any "now". A
round's start time is ``round_starts[n - 1]`` (none: the organiser starts it). Its grace
time ends ``grace_minutes`` after the later of the start time and the moment its tables
actually opened: players are told a time, and a round opened late gives them the full
grace from the opening. A player is present once they have arrived at their table
(``PlayerArrived``); a seat whose player has not arrived by the end of the grace time is
a no-show. Competitions whose seats are all bots (``bot_level``) have no presence.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta

from .state import CompetitionState

SEAT_SIDES = {
    "north": "north_south",
    "south": "north_south",
    "east": "east_west",
    "west": "east_west",
}


def round_start(state: CompetitionState, number: int) -> datetime | None:
    """The start time the competition set for round ``number``, if any."""
    return None if state.settings is None else state.settings.round_start(number)


def due_to_open(state: CompetitionState, now: datetime) -> int | None:
    """The paired, unstarted round whose start time has come, if any."""
    number = state.last_round
    if not number or number in state.started or number in state.closed:
        return None
    start = round_start(state, number)
    return number if start is not None and start <= now else None


def grace_deadline(state: CompetitionState, number: int) -> datetime | None:
    """When a started round's empty seats become no-shows."""
    if number not in state.started:
        return None
    moments = [
        moment
        for moment in (
            round_start(state, number),
            datetime.fromisoformat(state.opened_at[number]) if number in state.opened_at else None,
        )
        if moment is not None
    ]
    if not moments or state.settings is None:
        return None
    return max(moments) + timedelta(minutes=state.settings.grace_minutes)


def absent(state: CompetitionState, number: int, board: int) -> dict[str, str]:
    """Seat -> player of a match's players who have not arrived at its table."""
    here = state.arrived.get(number, {}).get(board, set())
    return {
        seat: player for seat, player in state.seating(number, board).items() if player not in here
    }


def side_of(seats: Iterable[str]) -> str:
    """The side that is missing a player: ``north_south``, ``east_west`` or ``both``."""
    sides = {SEAT_SIDES[seat] for seat in seats}
    return sides.pop() if len(sides) == 1 else "both"


def waiting_boards(state: CompetitionState, number: int) -> list[int]:
    """Boards of a started round still waiting for a player (no result, no no-show)."""
    if (
        state.settings is None
        or state.settings.bots_play
        or number not in state.started
        or number in state.closed
    ):
        return []
    reported = state.reported_boards(number)
    return [
        board
        for board in sorted(state.tables.get(number, {}))
        if board not in reported
        and state.no_show_of(number, board) is None
        and absent(state, number, board)
    ]


def next_due(state: CompetitionState) -> datetime | None:
    """The next moment the scheduler must look at this competition (None: nothing to do)."""
    if not state.exists or state.finished:
        return None
    moments: list[datetime] = []
    number = state.last_round
    if number and number not in state.started and number not in state.closed:
        start = round_start(state, number)
        if start is not None:
            moments.append(start)
    for started in state.started - state.closed:
        deadline = grace_deadline(state, started)
        if deadline is not None and waiting_boards(state, started):
            moments.append(deadline)
    return min(moments) if moments else None
