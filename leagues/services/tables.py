"""Starting a round: one table per match, created through ``games.services``.

Each table's id derives from its command id ``<competition>:<round>:<board>``
(``games.services.table_commands.created_table_id``), so the round knows its tables
before any exists: ``RoundStarted`` and the table index (``leagues_competitiontable``)
commit first, and only then are the tables created, seated and (all-bot) started. So no
player can be seated at, and no game finish on, a table the competition does not know
yet. Each table carries the owner tag ``{"kind": "competition", "id", "round",
"board"}`` (``leagues.domain.table_owner``; games keeps it and never reads it) and the
competition's pinned rules with its match format (``leagues.core.results.match_rules``:
a fixed number of hands is a rule of the table's game, and a knockout's level match goes
on to extra hands). Starting a round again after a crash finds the same tables and
completes what is missing (every table command has its own command id).

The entrants' players sit North-South / East-West as paired (a reserve who came in sits
for the player out); a competition with ``bot_level`` has bots play every seat (its
results are flagged as bot-played and not rated); their games start at once. Otherwise
the players are seated (nobody else can take their seats) and each game starts when its
four players have arrived at the table (``leagues.services.presence``); a seat still
waiting at the end of the grace time is a no-show. A round with a start time is opened
by the schedule (``leagues.services.schedule``, ``by_schedule``), or earlier by an
organiser. Only when the competition allows bots for no-shows (``bots_for_no_shows``) do
the tables have a turn timer (the grace time): a player who stops playing is then
replaced by a bot (games' own timeout) and the result is flagged; otherwise nobody is
replaced and the organiser decides (a forfeit or a result). Spectators of every table
see it ``spectator_delay_tricks`` completed tricks behind play, as the competition
pinned at creation (0: live).

A duplicate competition's round (``settings.duplicate``) also commits its boards
(``BoardsCommitted``, the round seed kept secret by ``leagues.services.duplicate``), and
each table is created to deal those boards in order from that seed (``deal_seed``):
spectators see nothing of its play until the boards are revealed.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone

from games.engine.rules import RulesError
from games.services import table_commands
from games.services.actors import SystemActor
from games.services.errors import CommandRejected
from games.services.table_commands import StartGame, TakeSeat
from leagues.core.commitment import new_seed
from leagues.core.errors import LeagueError
from leagues.core.pairings import Pairing
from leagues.core.results import match_rules
from leagues.domain import decisions
from leagues.domain.decisions import duplicate
from leagues.domain.events import BOARDS_COMMITTED
from leagues.domain.settings import CompetitionSettings
from leagues.domain.state import CompetitionState
from leagues.domain.table_owner import TableOwner
from leagues.models import CompetitionTable
from leagues.projections import announce_tables
from leagues.selectors.players import users_of
from scoring.services.presets import resolve

from .duplicate import board_seed_of, keep_board_seed
from .quotas import check_round_tables
from .streams import actor_of, execute, load, parse_id, user_id_of

SEATS = ("north", "east", "south", "west")
DIRECTOR = SystemActor("competition")
SCHEDULE_ACTOR = {"kind": "system", "name": "schedule"}


@dataclass(frozen=True)
class PlannedTable:
    """One match's table, known before it exists."""

    board: int
    table_id: str
    command_id: str
    pairing: Pairing
    by_seat: dict[str, str]


def _table_rules(settings: CompetitionSettings, knockout: bool) -> dict[str, Any]:
    """The pinned rules and the match format's: what every table of the competition plays."""
    return {**settings.rules.table_spec, **match_rules(settings.match_format, knockout=knockout)}


def table_command_id(competition_id: str, round_number: int, board: int) -> str:
    return f"{competition_id}:{round_number}:{board}"


def _plan(state: CompetitionState, cid: str, round_number: int) -> list[PlannedTable]:
    paired = state.paired_round(round_number)
    assert paired is not None
    # A withdrawn entrant's match was recorded as a forfeit when paired: it needs no table.
    reported = state.reported_boards(round_number)
    planned = []
    for pairing in paired.pairing.matches:
        if pairing.board in reported and pairing.board not in state.tables.get(round_number, {}):
            continue
        ns = state.players_in(pairing.north_south, round_number)
        ew = state.players_in(pairing.east_west, round_number)
        command = table_command_id(cid, round_number, pairing.board)
        planned.append(
            PlannedTable(
                board=pairing.board,
                table_id=str(table_commands.created_table_id(DIRECTOR, command)),
                command_id=command,
                pairing=pairing,
                by_seat={"north": ns[0], "south": ns[1], "east": ew[0], "west": ew[1]},
            )
        )
    return planned


def start_round(
    user: Any,
    competition_id: object,
    round_number: object,
    *,
    now: datetime | None = None,
    by_schedule: bool = False,
) -> CompetitionState:
    """Record the round's tables, then create them, seat their players and start the
    all-bot games (idempotent; a second call after a crash completes the tables).
    ``by_schedule``: the round's start time has come (no organiser; ``user`` is ignored)."""
    cid = parse_id(competition_id)
    state = load(cid)
    opened = now or timezone.now()

    def may_start(current: CompetitionState) -> None:
        if not by_schedule:
            decisions.require_organiser(current, user_id_of(user))

    may_start(state)
    settings = decisions.require(state)
    if isinstance(round_number, bool) or not isinstance(round_number, int):
        raise LeagueError("unknown_round", "round is a whole number.")
    if state.paired_round(round_number) is None:
        raise LeagueError("unknown_round", f"Round {round_number} has not been paired.")
    if round_number in state.closed:
        raise LeagueError("round_closed", f"Round {round_number} is closed.")
    planned = _plan(state, cid, round_number)
    for knockout in {bool(table.pairing.match) for table in planned}:
        # The tables' rules are checked before the round is recorded as started.
        try:
            resolve(_table_rules(settings, knockout), settings.rules.version)
        except RulesError as error:
            raise LeagueError("bad_rules", str(error)) from None
    if round_number not in state.started:
        # A start a crash cut short has its tables counted already (recorded first).
        check_round_tables(state, round_number, len(planned))
    # Every seat's user is checked before anything is recorded: a refusal leaves no
    # half-started round behind.
    users = (
        {}
        if settings.bots_play
        else users_of(player for table in planned for player in table.by_seat.values())
    )
    if round_number in state.started:
        if _open_tables(state, cid, round_number, planned, users) == 0:
            raise LeagueError("round_started", f"Round {round_number} has started already.")
        _tables_opened(cid, round_number)
        return state  # a start a crash cut short, completed
    # A duplicate round's boards: a fresh secret seed, committed with the start.
    round_seed = new_seed() if settings.duplicate is not None else None

    def decide(current: CompetitionState) -> list[Any]:
        may_start(current)
        actor = SCHEDULE_ACTOR if by_schedule else actor_of(user)
        out = decisions.decide_start(
            current,
            round_number=round_number,
            tables=[(table.board, table.table_id) for table in planned],
            now=opened,
            by="schedule" if by_schedule else "organiser",
            actor=actor,
        )
        if round_seed is not None:
            out += duplicate.decide_boards_committed(
                current,
                round_number=round_number,
                round_seed=round_seed,
                tables=len(planned),
                actor=actor,
            )
        return out

    def index(current: CompetitionState, events: list[Any]) -> None:
        if round_seed is not None:
            committed = next(e for e in events if e.type == BOARDS_COMMITTED)
            keep_board_seed(cid, round_number, round_seed, committed.data["round_commitment"])
        CompetitionTable.objects.bulk_create(
            [
                CompetitionTable(
                    table_id=table.table_id,
                    competition_id=cid,
                    round=round_number,
                    board=table.board,
                    seated={
                        "north_south": [table.by_seat["north"], table.by_seat["south"]],
                        "east_west": [table.by_seat["east"], table.by_seat["west"]],
                    },
                )
                for table in planned
            ],
            ignore_conflicts=True,
        )

    started, _, _ = execute(cid, decide, command_id=f"start:{round_number}", after=index)
    _open_tables(started, cid, round_number, planned, users)
    _tables_opened(cid, round_number)
    return started


def _tables_opened(cid: str, round_number: int) -> None:
    """The competition's pages hear that the round's tables exist (after the commit)."""
    transaction.on_commit(lambda: announce_tables(cid, round_number))


def _open_tables(
    state: CompetitionState,
    cid: str,
    round_number: int,
    planned: list[PlannedTable],
    users: dict[str, Any],
) -> int:
    """Create, seat and (all-bot) start the recorded tables of a started round; how many
    were created by this call (0: all existed)."""
    settings = decisions.require(state)
    pinned = settings.rules
    bot_level = settings.bot_level
    grace = settings.grace_minutes * 60
    # A bot replaces a player who stops playing only where bots may stand in for players.
    allowed = settings.bots_for_no_shows
    timer = None if bot_level or not allowed else max(5, min(grace, 86_400)) if grace else None
    recorded = state.tables.get(round_number, {})
    duplicate_settings = settings.duplicate
    round_seed = board_seed_of(cid, round_number) if duplicate_settings is not None else None
    created_count = 0
    for table in planned:
        if recorded.get(table.board) != table.table_id:
            continue  # e.g. a match reported before the round started: no table
        rules = _table_rules(settings, bool(table.pairing.match))
        seats = {
            seat: {"kind": "bot", "level": bot_level} if bot_level else {"kind": "human"}
            for seat in SEATS
        }
        owner = TableOwner(cid, round_number, table.board)
        try:
            created = table_commands.create_table(
                actor=DIRECTOR,
                rules=rules,
                preset_version=pinned.version,
                seats=seats,
                turn_timer_seconds=timer,
                spectator_delay_tricks=settings.spectator_delay_tricks,
                command_id=table.command_id,
                owner=owner.as_tag(),
                deal_seed=round_seed,
                boards=None if duplicate_settings is None else duplicate_settings.boards_per_round,
            )
            assert str(created.table_id) == table.table_id
            created_count += 0 if created.duplicate else 1
            if not bot_level:
                for seat, player in table.by_seat.items():
                    table_commands.execute(
                        TakeSeat(table.table_id, seat),
                        users[player],
                        command_id=f"{table.command_id}:{seat}",
                    )
            else:
                table_commands.execute(
                    StartGame(table.table_id), DIRECTOR, command_id=f"{table.command_id}:start"
                )
        except CommandRejected as error:
            if error.code != "already_started":
                raise LeagueError(error.code, f"Board {table.board}: {error.message}") from None
    return created_count
