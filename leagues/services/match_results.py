"""The match-results process: a competition table's finished game becomes its match's
result.

It reacts to the end of a competition table's game (``DealSeedRevealed``, seen by the
``league_match_results`` projection, which hands the candidate tables to
:func:`keep_finished`): the result is the table's own final ledger read through
:func:`leagues.core.results.match_outcome`, so the board tile, the watch page, the replay
and the standings all say what the table says. The table's rules already hold the match
format (``leagues.core.results.match_rules``: a fixed number of hands ends the game), so
nothing here counts hands. A result is kept as a ``PendingTableResult`` row in the
projection batch's transaction, and :func:`drain_pending` appends it, after the batch,
as ``MatchResultRecorded`` (command id ``table-result:<table>``: idempotent), a
competition's pending results in one fold and one transaction. Appending inside the
batch's transaction could lose the race to a newer transaction for ever; after the
commit it just retries. A result the organiser entered first stands (the table's is
dropped with a warning). The standings are not written here: their one writer is the
``league_standings`` projection.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.db.models import F

from eventstore.reading import read_stream
from eventstore.records import StoredEvent
from games.domain import events as table_events
from games.domain.table import TableState
from leagues.core.errors import LeagueError
from leagues.core.results import match_outcome
from leagues.domain import decisions
from leagues.domain.state import CompetitionState
from leagues.models import CompetitionTable, PendingTableResult

from .duplicate import ready_rounds, record_round
from .pairing_secrets import seed_of
from .results import finish_if_complete
from .streams import execute, execute_each

logger = logging.getLogger(__name__)

TABLE_RESULT_ACTOR = {"kind": "system", "name": "match_results"}


@dataclass(frozen=True)
class TableResult:
    """A competition table's finished game, as the match-results process kept it."""

    table_id: str
    round_number: int
    board: int
    points: Mapping[str, int]
    winner: str | None
    hands: int
    bot_substitute: bool


def table_result(events: Sequence[Any]) -> dict[str, Any] | None:
    """The match result a table's events give (``points``, ``winner``, ``hands``,
    ``bots``), or None while its game goes on: the table's final ledger as it is."""
    state = TableState.fold(events)
    if state.game is None:
        return None
    if state.deals_from_boards and events[-1].type != table_events.DEAL_REVEAL_HELD:
        # A duplicate table's result is taken when its game ends (DealRevealHeld), not
        # again when its owner reveals its seed.
        return None
    ledger = state.game.ledger
    outcome = match_outcome(
        (ledger.totals[0], ledger.totals[1]), ledger.winner, ledger.finished_after_hand
    )
    if outcome is None:
        return None
    bots = any(e.type == table_events.SEAT_HANDED_TO_BOT for e in events) or any(
        seat.get("kind") == "bot"
        for seat in (events[0].data.get("seats") or {}).values()
        if isinstance(seat, dict)
    )
    result: dict[str, Any] = {
        "points": outcome.points,
        "winner": outcome.winner,
        "hands": outcome.hands,
        "bots": bots,
    }
    if state.deals_from_boards:
        # Each board as played: what the competition scores it from (BoardResultRecorded).
        result["boards"] = [
            {"bids": list(hand.bids), "blind": list(hand.blind), "tricks": list(hand.tricks_won)}
            for hand in state.game.hands
        ]
    return result


def keep_finished(candidates: Mapping[str, Any]) -> int:
    """Keep the results of the candidate tables (table id -> the stored event that ended
    its game) that are competitions' and finished; how many. Runs in the projection
    batch's transaction."""
    matches = {
        str(row.table_id): row
        for row in CompetitionTable.objects.filter(table_id__in=list(candidates))
    }
    pending = []
    for table_id, match in matches.items():
        event = candidates[table_id]
        history = read_stream(event.stream_id, limit=event.version)
        result = table_result(history)
        if result is None:
            continue
        pending.append(
            PendingTableResult(
                table_id=table_id,
                competition_id=match.competition_id,
                round=match.round,
                board=match.board,
                result=result,
                finished_at=history[-1].recorded_at,
            )
        )
    if pending:
        # A rebuild sees the same tables again: the stream's command id makes the second
        # append a no-op, and the row already kept is not kept twice.
        PendingTableResult.objects.bulk_create(pending, ignore_conflicts=True)
    return len(pending)


def _table_result_decision(
    competition_id: str, result: TableResult, seeds: dict[int, str | None]
) -> Callable[[CompetitionState], list[Any]]:
    def decide(state: CompetitionState) -> list[Any]:
        number = result.round_number
        if number not in seeds:
            seeds[number] = seed_of(competition_id, number)
        return decisions.decide_result(
            state,
            round_number=number,
            board=result.board,
            points=result.points,
            winner=result.winner,
            source="table",
            seed=seeds[number],
            actor=TABLE_RESULT_ACTOR,
            table_id=result.table_id,
            hands=result.hands,
            bot_substitute=result.bot_substitute,
        )

    return decide


def record_table_result(competition_id: str, result: TableResult) -> CompetitionState:
    """The result of a competition table's finished game (idempotent by the table id)."""
    return execute(
        competition_id,
        _table_result_decision(competition_id, result, {}),
        command_id=f"table-result:{result.table_id}",
        after=lambda s, _e: finish_if_complete(s, TABLE_RESULT_ACTOR),
    )[0]


def record_table_results(
    competition_id: str, results: Sequence[TableResult]
) -> list[list[StoredEvent] | LeagueError]:
    """Several finished tables of one competition in one fold and one transaction
    (:func:`~leagues.services.streams.execute_each`), in the given order: per result its
    stored events, or the refusal (e.g. the organiser entered that match first)."""
    seeds: dict[int, str | None] = {}
    return execute_each(
        competition_id,
        [
            (
                f"table-result:{result.table_id}",
                _table_result_decision(competition_id, result, seeds),
            )
            for result in results
        ],
        after=lambda s, _e: finish_if_complete(s, TABLE_RESULT_ACTOR),
    )


def _pending_result(pending: PendingTableResult) -> TableResult:
    result = pending.result
    return TableResult(
        table_id=str(pending.table_id),
        round_number=pending.round,
        board=pending.board,
        points=result["points"],
        winner=result["winner"],
        hands=result["hands"],
        bot_substitute=result["bots"],
    )


def drain_pending() -> int:
    """Append every pending table result to its competition; returns how many went in.

    The results of one competition go in together (one fold, one transaction): tables of
    a round finish in bursts, and one fold and commit per result made the last of a burst
    wait for all the others. If that fails, they are appended one by one, so one bad
    result cannot hold back the others.
    """
    by_competition: dict[str, list[PendingTableResult]] = {}
    for pending in PendingTableResult.objects.order_by("finished_at")[:500]:
        by_competition.setdefault(str(pending.competition_id), []).append(pending)
    done = 0
    for competition_id, rows in by_competition.items():
        ready, is_duplicate = ready_rounds(competition_id, rows)
        if is_duplicate:
            done += _drain_duplicate(competition_id, rows, ready)
            continue
        try:
            outcomes = record_table_results(competition_id, [_pending_result(r) for r in rows])
        except Exception:
            logger.exception("competition %s: results append failed; one by one", competition_id)
            done += sum(_drain_one(row) for row in rows)
            continue
        for row, outcome in zip(rows, outcomes, strict=True):
            if isinstance(outcome, LeagueError):
                # The organiser entered this match's result (or forfeited it) first.
                logger.warning("table %s: result not recorded: %s", row.table_id, outcome.message)
        PendingTableResult.objects.filter(pk__in=[row.pk for row in rows]).delete()
        done += len(rows)
    return done


def _drain_duplicate(
    competition_id: str, rows: Sequence[PendingTableResult], ready: set[int]
) -> int:
    """A duplicate competition's finished tables: a round's go in together once every
    table of the round is done (``leagues.services.duplicate``); the others wait."""
    done = 0
    for number in sorted(ready):
        of_round = [row for row in rows if row.round == number]
        try:
            record_round(competition_id, number, of_round)
        except Exception:
            logger.exception(
                "competition %s round %s: board results failed", competition_id, number
            )
            PendingTableResult.objects.filter(pk__in=[row.pk for row in of_round]).update(
                attempts=F("attempts") + 1
            )
            continue
        PendingTableResult.objects.filter(pk__in=[row.pk for row in of_round]).delete()
        done += len(of_round)
    return done


def _drain_one(pending: PendingTableResult) -> int:
    try:
        record_table_result(str(pending.competition_id), _pending_result(pending))
    except LeagueError as error:
        # The organiser entered this match's result (or forfeited it) first: theirs stands.
        logger.warning("table %s: result not recorded: %s", pending.table_id, error.message)
    except Exception:
        logger.exception("table %s: result append failed; retried later", pending.table_id)
        PendingTableResult.objects.filter(pk=pending.pk).update(attempts=pending.attempts + 1)
        return 0
    PendingTableResult.objects.filter(pk=pending.pk).delete()
    return 1
