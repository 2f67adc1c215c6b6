"""Presence at the table, and no-shows.

A competition table seats the match's players when the round opens (so nobody else can
take their seats), but its game waits until all four have *arrived*: each player checks
in at their table (``PlayerArrived``, command id ``arrive:<round>:<player>``) and the
fourth arrival starts the game, in the same transaction. A player checks in by the
tournament page's "Go to my table" (the REST ``arrive``) or simply by opening the table:
its socket announces a seated player with the table's owner tag (``games.live.presence``)
and :func:`arrive_at_owned_table` records the arrival (``leagues.receivers``).

A seat of a competition table cannot be left before its game starts (games refuses
``seat_assigned`` at a table the system created): the seat stays the player's, so a
player who goes away is a no-show like one who never came, and the handover below always
finds the absent player's seat taken. At the end of the grace time
(:mod:`leagues.domain.schedule`) a seat whose player has not arrived is a no-show
(``NoShowRecorded``, command id ``no-show:<round>:<board>``):

- the competition allows bots (``bots_for_no_shows``): the game starts and a bot plays
  each absent seat, handed over through the games services exactly as a player hands
  their seat to a bot (the absent player is the actor); the table's result is flagged
  ``bot_substitute`` (and so not rated). A player who turns up late may take their seat
  back at the table; the result stays flagged.
- otherwise: the absent side forfeits the match (``MatchForfeited``, ``no_show``; both
  sides absent: a double forfeit) and the table is abandoned.

The table commands run inside the competition's transaction (``execute``'s ``after``),
so the event and the table change commit together or not at all; a retry, or a second
worker, finds the command id used and does nothing.
"""

from __future__ import annotations

import logging
from datetime import datetime
from typing import Any

from games.services import table_commands
from games.services.errors import CommandRejected
from games.services.table_commands import AbandonTable, HandSeatToBot, StartGame
from leagues.core.errors import LeagueError
from leagues.domain import decisions, schedule
from leagues.domain.state import CompetitionState
from leagues.domain.table_owner import TableOwner

from .pairing_secrets import seed_of
from .results import finish_if_complete
from .streams import actor_of, execute, load, parse_id, user_id_of
from .tables import DIRECTOR, SCHEDULE_ACTOR

logger = logging.getLogger(__name__)


def _table_command(command: Any, actor: Any, command_id: str, tolerate: str = "") -> None:
    try:
        table_commands.execute(command, actor, command_id=command_id)
    except CommandRejected as error:
        if error.code != tolerate:
            raise LeagueError(error.code, error.message) from None


def _start_game(cid: str, number: int, board: int, table_id: str) -> None:
    # The same command id as an all-bot round's start (services.tables).
    _table_command(
        StartGame(table_id), DIRECTOR, f"{cid}:{number}:{board}:start", tolerate="already_started"
    )


def arrive(user: Any, competition_id: object, round_number: object) -> CompetitionState:
    """The signed-in player is at their table in ``round_number``; the fourth to arrive
    starts the game. Arriving again is a no-op (and starts a game a crash left waiting)."""
    me = user_id_of(user)
    if me is None:
        raise LeagueError("not_signed_in", "Sign in first.")
    player = str(me)
    cid = parse_id(competition_id)
    current = load(cid)
    if isinstance(round_number, bool) or not isinstance(round_number, int):
        raise LeagueError("unknown_round", "round is a whole number.")
    found = decisions.board_of_player(current, round_number, player)
    if found is not None and player in current.arrived.get(round_number, {}).get(found[0], ()):
        if not schedule.absent(current, round_number, found[0]):
            _start_game(cid, round_number, found[0], current.tables[round_number][found[0]])
        return current

    def start_when_all_here(state: CompetitionState, _events: list[Any]) -> None:
        board, _seat = decisions.board_of_player(state, round_number, player) or (0, "")
        if board and not schedule.absent(state, round_number, board):
            _start_game(cid, round_number, board, state.tables[round_number][board])

    def decide(state: CompetitionState) -> list[Any]:
        return decisions.decide_arrive(
            state, round_number=round_number, player=player, actor=actor_of(user)
        )

    return execute(
        cid, decide, command_id=f"arrive:{round_number}:{player}", after=start_when_all_here
    )[0]


def arrive_at_owned_table(user: Any, owner: object) -> CompetitionState | None:
    """``user``, seated at a table whose owner tag is ``owner``, opened it: if the tag is a
    competition's (``leagues.domain.table_owner``), they have arrived (:func:`arrive`).
    None for any other tag, read from the tag alone (no lookup)."""
    match = TableOwner.of(owner)
    if match is None:
        return None
    return arrive(user, match.competition_id, match.round)


def _after_no_show(cid: str, number: int, board: int) -> Any:
    def follow_up(state: CompetitionState, _events: list[Any]) -> None:
        record = state.no_show_of(number, board)
        assert record is not None
        table_id = state.tables[number][board]
        command = f"{cid}:{number}:{board}"
        if record["bot"]:
            _start_game(cid, number, board, table_id)
            for seat in record["seats"]:
                _table_command(
                    HandSeatToBot(table_id, seat, record["level"]),
                    DIRECTOR,  # the seat's event names the director, not the absent player
                    f"{command}:{seat}:no-show",
                )
        else:
            _table_command(AbandonTable(table_id), DIRECTOR, f"{command}:abandon")
            finish_if_complete(state, SCHEDULE_ACTOR)

    return follow_up


def resolve_no_shows(competition_id: object, *, now: datetime) -> int:
    """Record every no-show of the competition whose grace time is over at ``now``;
    returns how many were recorded (by this call)."""
    cid = parse_id(competition_id)
    state = load(cid)
    recorded = 0
    for number in sorted(state.started - state.closed):
        deadline = schedule.grace_deadline(state, number)
        if deadline is None or now < deadline:
            continue
        for board in schedule.waiting_boards(state, number):

            def decide(
                current: CompetitionState, board: int = board, number: int = number
            ) -> list[Any]:
                return decisions.decide_no_show(
                    current,
                    round_number=number,
                    board=board,
                    now=now,
                    seed=seed_of(cid, number),
                    actor=SCHEDULE_ACTOR,
                )

            try:
                _, _, duplicate = execute(
                    cid,
                    decide,
                    command_id=f"no-show:{number}:{board}",
                    after=_after_no_show(cid, number, board),
                )
            except LeagueError as error:
                # Someone arrived, or another worker recorded it, since this state was read.
                logger.info("no-show round %s board %s not recorded: %s", number, board, error)
                continue
            recorded += 0 if duplicate else 1
    return recorded
