"""Per-board reveal of a duplicate round (docs/leagues.md, "Duplicate competitions").

A board is secret only while some table of its round may still play it. The board-ends
projection (``leagues.projections.BoardEndsProjection``) follows the tables' own
``CardPlayed`` events: the 52nd card of hand ``n`` at a table dealing a round's boards
ends board ``n`` there (a hand is scored on its last trick; no other table event marks
it). :func:`keep_board_ends` keeps that board as played (bids, blind flags, tricks) in
the projection batch's transaction; :func:`drain_boards`, after the batch commits, waits
until every table of the round has finished the board, then appends in one transaction
that board's ``BoardResultRecorded`` for every table and its ``BoardRevealed`` (its seed
and deck only). Command ids ``board-result:<table>:<board>`` and
``board-revealed:<round>:<board>``, and decisions that skip what is recorded, make a
replayed or duplicated notice write nothing twice, whichever of this and the round's end
(``leagues.services.duplicate.record_round``) comes first.

Before the board is finished everywhere nothing of it is appended anywhere: a table's
result on board ``n`` stays in this process's pending rows, which no reader shows.
"""

from __future__ import annotations

import logging
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from typing import Any

from django.db.models import F

from eventstore.models import Event
from eventstore.reading import read_stream
from games.domain import events as table_events
from games.domain.streams import table_stream_id
from games.domain.table import TableState
from games.engine.rules import rules_from_spec
from leagues.core.errors import LeagueError
from leagues.domain.decisions import duplicate as dup
from leagues.domain.state import CompetitionState
from leagues.models import BoardSecret, CompetitionTable, PendingBoardResult

from .duplicate import DUPLICATE_ACTOR, board_seed_of
from .streams import Decide, execute_each, load

logger = logging.getLogger(__name__)

CARDS_IN_HAND = 52
MAX_KNOWN_TABLES = 20000

#: table id -> (competition id, round, table number) for a table dealing a duplicate
#: round's boards, None for any other table (a table never changes its competition).
_known: OrderedDict[str, tuple[str, int, int] | None] = OrderedDict()


def _duplicate_tables(table_ids: Sequence[str]) -> dict[str, tuple[str, int, int]]:
    unknown = [t for t in table_ids if t not in _known]
    if unknown:
        rows = list(CompetitionTable.objects.filter(table_id__in=unknown))
        dealt = {
            (str(c), r)
            for c, r in BoardSecret.objects.filter(
                competition_id__in={row.competition_id for row in rows}
            ).values_list("competition_id", "round")
        }
        found = {
            str(row.table_id): (str(row.competition_id), row.round, row.board)
            for row in rows
            if (str(row.competition_id), row.round) in dealt
        }
        for table_id in unknown:
            _known[table_id] = found.get(table_id)
        while len(_known) > MAX_KNOWN_TABLES:
            _known.popitem(last=False)
    return {t: seat for t in table_ids if (seat := _known.get(t)) is not None}


def keep_board_ends(cards: Mapping[tuple[str, int], Any]) -> int:
    """Keep every board a duplicate table finished in this batch (``cards``: (table id,
    hand number) -> its last ``CardPlayed`` in the batch); how many. Runs in the
    projection batch's transaction. A table outside duplicate rounds costs one lookup,
    then nothing; a hand not over yet one count."""
    tables = _duplicate_tables(sorted({table_id for table_id, _ in cards}))
    pending = []
    for (table_id, hand), event in cards.items():
        seat = tables.get(table_id)
        if seat is None:
            continue
        stream = table_stream_id(table_id)
        played = Event.objects.filter(
            stream_id=stream,
            type=table_events.CARD_PLAYED,
            version__lte=event.version,
            data__hand_number=hand,
        ).count()
        if played < CARDS_IN_HAND:
            continue
        history = read_stream(stream, limit=event.version)
        state = TableState.fold(history)
        if state.game is None or len(state.game.hands) < hand:
            continue
        scored = state.game.hands[hand - 1]
        competition_id, round_number, table = seat
        pending.append(
            PendingBoardResult(
                table_id=table_id,
                board_number=hand,
                competition_id=competition_id,
                round=round_number,
                table=table,
                played={
                    "bids": list(scored.bids),
                    "blind": list(scored.blind),
                    "tricks": list(scored.tricks_won),
                },
                finished_at=history[-1].recorded_at,
            )
        )
    if pending:
        # A rebuild sees the same cards again: the row kept is not kept twice, and the
        # competition's command ids make a second append a no-op.
        PendingBoardResult.objects.bulk_create(pending, ignore_conflicts=True)
    return len(pending)


def drain_boards() -> int:
    """Append every board finished at every table of its round (its results and its
    reveal, one transaction a competition); how many pending rows went in. The others
    wait for their board's last table."""
    by_competition: dict[str, list[PendingBoardResult]] = {}
    for row in PendingBoardResult.objects.order_by("finished_at")[:2000]:
        by_competition.setdefault(str(row.competition_id), []).append(row)
    done = 0
    for competition_id, rows in by_competition.items():
        try:
            done += _drain_competition(competition_id, rows)
        except Exception:
            logger.exception("competition %s: board results failed", competition_id)
            PendingBoardResult.objects.filter(pk__in=[row.pk for row in rows]).update(
                attempts=F("attempts") + 1
            )
    return done


def _ready(
    state: CompetitionState, rows: Sequence[PendingBoardResult]
) -> dict[tuple[int, int], list[PendingBoardResult]]:
    """The (round, board)s every table of whose round has finished (pending rows here
    and results already recorded), with their pending rows; and the rows already
    recorded or revealed (a round's end got there first) under their key too."""
    groups: dict[tuple[int, int], list[PendingBoardResult]] = {}
    for row in rows:
        groups.setdefault((row.round, row.board_number), []).append(row)
    ready = {}
    for (number, board), of_board in groups.items():
        found = state.duplicate.get(number)
        if found is None:
            continue
        tables = set(state.tables.get(number, {}))
        done = {int(r["table"]) for r in found.results if int(r["board"]) == board}
        done |= {row.table for row in of_board}
        if (tables and tables <= done) or found.board_revealed(board):
            ready[(number, board)] = of_board
    return ready


def _drain_competition(competition_id: str, rows: Sequence[PendingBoardResult]) -> int:
    state = load(competition_id)
    if state.settings is None or state.settings.duplicate is None:
        PendingBoardResult.objects.filter(pk__in=[row.pk for row in rows]).delete()
        return 0
    ready = _ready(state, rows)
    if not ready:
        return 0
    rules = rules_from_spec(dict(state.settings.rules.snapshot))
    seeds: dict[int, str | None] = {}
    commands: list[tuple[str | None, Decide]] = []
    for (number, board), of_board in sorted(ready.items()):
        if number not in seeds:
            seeds[number] = board_seed_of(competition_id, number)
        round_seed = seeds[number]
        if round_seed is None:
            raise LeagueError("no_board_seed", f"Round {number}'s board seed is missing.")
        for row in sorted(of_board, key=lambda r: r.table):
            commands.append((f"board-result:{row.table_id}:{board}", _result(row, rules)))
        commands.append((f"board-revealed:{number}:{board}", _reveal(number, board, round_seed)))
    outcomes = execute_each(competition_id, commands)
    for (command_id, _), outcome in zip(commands, outcomes, strict=True):
        if isinstance(outcome, LeagueError) and outcome.code != NOTHING_NEW:
            logger.warning("%s: not recorded: %s", command_id, outcome.message)
    went = [row.pk for of_board in ready.values() for row in of_board]
    PendingBoardResult.objects.filter(pk__in=went).delete()
    return len(went)


NOTHING_NEW = "nothing_new"


def _something(events: list[Any]) -> list[Any]:
    """A decision's events, or the refusal that says it is done already (recorded by the
    round's end or an earlier batch): an append needs an event."""
    if not events:
        raise LeagueError(NOTHING_NEW, "Recorded already.")
    return events


def _result(row: PendingBoardResult, rules: Any) -> Decide:
    def decide(state: CompetitionState) -> list[Any]:
        return _something(
            dup.decide_board_result(
                state,
                round_number=row.round,
                board=row.board_number,
                table=row.table,
                table_id=str(row.table_id),
                rules=rules,
                played=row.played,
                actor=DUPLICATE_ACTOR,
            )
        )

    return decide


def _reveal(number: int, board: int, round_seed: str) -> Decide:
    def decide(state: CompetitionState) -> list[Any]:
        return _something(
            dup.decide_board_reveal(
                state,
                round_number=number,
                board=board,
                round_seed=round_seed,
                actor=DUPLICATE_ACTOR,
            )
        )

    return decide
