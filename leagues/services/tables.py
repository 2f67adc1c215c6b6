"""Starting a round: one table per match, created through ``games.services``.

Each table's command id is ``<competition>:<round>:<board>`` (its seats and start derive
theirs from it), so starting a round again after a crash finds the same tables.  The
tables are created and seated first, then ``RoundStarted`` and the table index commit
together, and only then do the games start: no table can finish before the
match-results projection knows which match it plays.  The entrants' players sit
North-South / East-West as paired (a reserve who came in sits for the player out); a
competition with ``bot_level`` has bots play every seat (its results are flagged as
bot-played and not rated); their games start at once.  Otherwise the players are seated
(nobody else can take their seats) and each game starts when its four players have
arrived at the table (``leagues.services.presence``); a seat still waiting at the end of
the grace time is a no-show.  A round with a start time is opened by the schedule
(``leagues.services.schedule``, ``by_schedule``), or earlier by an organiser.  Only when
the competition allows bots for no-shows (``bots_for_no_shows``) do the tables have a
turn timer (the grace time): a player who stops playing is then replaced by a bot
(games' own timeout) and the result is flagged; otherwise nobody is replaced and the
organiser decides (a forfeit or a result).  Spectators of every table see it
``spectator_delay_tricks`` completed tricks behind play, as the competition pinned at
creation (0: live).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.utils import timezone

from games.services import table_commands
from games.services.actors import SystemActor
from games.services.errors import CommandRejected
from games.services.table_commands import StartGame, TakeSeat
from leagues.core.errors import LeagueError
from leagues.domain import decisions
from leagues.domain.state import CompetitionState
from leagues.models import CompetitionTable
from leagues.selectors.players import users_of

from .quotas import check_round_tables
from .streams import actor_of, execute, load, parse_id, user_id_of

SEATS = ("north", "east", "south", "west")
DIRECTOR = SystemActor("competition")
SCHEDULE_ACTOR = {"kind": "system", "name": "schedule"}


def _table_rules(state: CompetitionState) -> tuple[dict[str, Any], int | None]:
    assert state.settings is not None
    return state.settings.rules.table_spec, state.settings.rules.version


def start_round(
    user: Any,
    competition_id: object,
    round_number: object,
    *,
    now: datetime | None = None,
    by_schedule: bool = False,
) -> CompetitionState:
    """Create the round's tables, seat its players and start the all-bot games (idempotent).
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
    paired = state.paired_round(round_number)
    if paired is None:
        raise LeagueError("unknown_round", f"Round {round_number} has not been paired.")
    if round_number in state.started:
        raise LeagueError("round_started", f"Round {round_number} has started already.")
    if round_number in state.closed:
        raise LeagueError("round_closed", f"Round {round_number} is closed.")
    rules, version = _table_rules(state)
    bot_level = settings.bot_level
    grace = settings.grace_minutes * 60
    # A bot replaces a player who stops playing only where bots may stand in for players.
    allowed = settings.bots_for_no_shows
    timer = None if bot_level or not allowed else max(5, min(grace, 86_400)) if grace else None
    fixed = settings.match_format.fixed_hands
    # A withdrawn entrant's match was recorded as a forfeit when paired: it needs no table.
    reported = state.reported_boards(round_number)
    to_play = [p for p in paired.pairing.matches if p.board not in reported]
    check_round_tables(state, round_number, len(to_play))
    # Every seat's user is checked before the first table is created: a refusal leaves
    # no half-created round behind.
    users = (
        {}
        if bot_level
        else users_of(
            player
            for pairing in to_play
            for side in (pairing.north_south, pairing.east_west)
            for player in state.players_in(side, round_number)
        )
    )
    delay = settings.spectator_delay_tricks
    tables: list[tuple[int, str, dict[str, Any]]] = []
    for pairing in to_play:
        ns = state.players_in(pairing.north_south, round_number)
        ew = state.players_in(pairing.east_west, round_number)
        by_seat = {"north": ns[0], "south": ns[1], "east": ew[0], "west": ew[1]}
        command = f"{cid}:{round_number}:{pairing.board}"
        seats = {
            seat: {"kind": "bot", "level": bot_level} if bot_level else {"kind": "human"}
            for seat in SEATS
        }
        try:
            created = table_commands.create_table(
                actor=DIRECTOR,
                rules=rules,
                preset_version=version,
                seats=seats,
                turn_timer_seconds=timer,
                spectator_delay_tricks=delay,
                command_id=command,
            )
            table_id = str(created.table_id)
            if not bot_level:
                for seat, player in by_seat.items():
                    table_commands.execute(
                        TakeSeat(table_id, seat), users[player], command_id=f"{command}:{seat}"
                    )
        except CommandRejected as error:
            raise LeagueError(error.code, f"Board {pairing.board}: {error.message}") from None
        seated = {"north_south": list(ns), "east_west": list(ew), "fixed_hands": fixed}
        tables.append((pairing.board, table_id, seated))

    def decide(current: CompetitionState) -> list[Any]:
        may_start(current)
        return decisions.decide_start(
            current,
            round_number=round_number,
            tables=[(board, table_id) for board, table_id, _ in tables],
            now=opened,
            by="schedule" if by_schedule else "organiser",
            actor=SCHEDULE_ACTOR if by_schedule else actor_of(user),
        )

    def index(current: CompetitionState, _events: list[Any]) -> None:
        CompetitionTable.objects.bulk_create(
            [
                CompetitionTable(
                    table_id=table_id,
                    competition_id=cid,
                    round=round_number,
                    board=board,
                    seated=seated,
                )
                for board, table_id, seated in tables
            ],
            ignore_conflicts=True,
        )

    started, _, _ = execute(cid, decide, command_id=f"start:{round_number}", after=index)
    if not bot_level:
        return started  # each game starts when its players have arrived
    for board, table_id, _ in tables:
        try:
            table_commands.execute(
                StartGame(table_id), DIRECTOR, command_id=f"{cid}:{round_number}:{board}:start"
            )
        except CommandRejected as error:
            if error.code != "already_started":
                raise LeagueError(error.code, f"Board {board}: {error.message}") from None
    return started
