"""Results: a match's result (typed in, from a scoresheet, or from its table), its
confirmation by the players, forfeits, corrections, and what a result closes (the
round, the stage, the competition).

A table's result counts for the site ratings as it is recorded; one an organiser types
in counts only once a player of each side has confirmed it (:func:`confirm_result`;
``leagues.domain.decisions.results`` says why).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from eventstore.recorder import append
from eventstore.records import StoredEvent
from games.engine.rules import RulesError
from leagues.core.errors import LeagueError
from leagues.domain import decisions
from leagues.domain import events as ev
from leagues.domain.decisions import CorrectionRequest, ForfeitRequest, ResultRequest
from leagues.domain.state import CompetitionState
from scoring.core.scoresheet import ScoresheetError, score_scoresheet
from scoring.services.presets import resolve

from .pairing_secrets import seed_of
from .streams import actor_of, as_organiser, execute, execute_each, load, parse_id, user_id_of

MAX_SCORESHEET_HANDS = 200


def finish_if_complete(state: CompetitionState, actor: dict[str, Any]) -> None:
    """Append ``CompetitionFinished`` in the caller's transaction once every stage is done."""
    if state.finished or not state.rounds or state.last_round not in state.closed:
        return
    competition = state.competition()
    if competition.next_stage() < len(competition.settings.stages):
        return
    events = decisions.decide_finish(state, actor=actor)
    stored = append(ev.competition_stream_id(state.competition_id), state.version, events)
    for event in stored.events:
        state.apply(event)


def _finish(user: Any) -> Callable[[CompetitionState, list[StoredEvent]], None]:
    return lambda state, _stored: finish_if_complete(state, actor_of(user))


def record_result(
    user: Any, competition_id: object, round_number: int, request: ResultRequest
) -> CompetitionState:
    """An organiser's result: game points and winner, or a scoresheet in the calculator's
    format scored under the competition's pinned rules (it then counts the same). Typed
    in: it counts for the ratings once a player of each side confirms it."""
    cid = parse_id(competition_id)
    points: Mapping[str, Any] | None = request.points
    winner: object = request.winner
    hands = None
    sheet = None
    if request.scoresheet is not None:
        state0 = load(cid)
        decisions.require_organiser(state0, user_id_of(user))
        points, winner, hands, sheet = score_match_sheet(state0, request.scoresheet)
    source = "scoresheet" if sheet is not None else "organiser"

    def decide(state: CompetitionState, organiser: int) -> list[Any]:
        return decisions.decide_result(
            state,
            round_number=round_number,
            board=request.board,
            points=points,
            winner=winner,
            source=source,
            seed=seed_of(cid, round_number),
            actor=actor_of(user),
            scoresheet=sheet,
            hands=hands,
            organiser=organiser,
        )

    return as_organiser(user, cid, decide, after=_finish(user))


def confirm_result(user: Any, competition_id: object, result_id: str) -> CompetitionState:
    """A player who sat in a typed-in match confirms its result (their side's word)."""
    player = user_id_of(user)
    if player is None:
        raise LeagueError("not_signed_in", "Sign in first.")
    return execute(
        competition_id,
        lambda state: decisions.decide_confirm_result(
            state, result_id=result_id, player=str(player), actor=actor_of(user)
        ),
    )[0]


def score_match_sheet(
    state: CompetitionState, scoresheet: object
) -> tuple[dict[str, int], str | None, int, dict[str, Any]]:
    """Score a scoresheet under the competition's rules: (points, winner, hands, sheet)."""
    if not isinstance(scoresheet, Mapping) or not isinstance(scoresheet.get("hands"), list):
        raise LeagueError("bad_scoresheet", 'A scoresheet is {"hands": [...]} (docs/formats.md).')
    hands_raw = scoresheet["hands"]
    if len(hands_raw) > MAX_SCORESHEET_HANDS:
        raise LeagueError("bad_scoresheet", f"At most {MAX_SCORESHEET_HANDS} hands.")
    assert state.settings is not None
    snapshot = dict(state.settings.rules.snapshot)
    if "rules" in scoresheet:
        try:
            theirs = resolve(scoresheet["rules"]).rules.to_dict()
        except RulesError as error:
            raise LeagueError("bad_scoresheet", f"rules: {error}") from None
        if theirs != snapshot:
            raise LeagueError(
                "rules_mismatch", "The scoresheet's rules are not the competition's rules."
            )
    sheet = {"rules": dict(snapshot), "hands": list(hands_raw)}
    try:
        scored = score_scoresheet(sheet)
    except ScoresheetError as error:
        raise LeagueError("bad_scoresheet", error.message) from None
    fixed = state.settings.match_format.fixed_hands
    ledger = scored.ledger
    count = len(ledger.hands)
    if fixed is not None and count != fixed and ledger.winner is None:
        raise LeagueError(
            "bad_scoresheet", f"A fixed-hands match has {fixed} hands; this sheet has {count}."
        )
    totals = {"north_south": ledger.totals[0], "east_west": ledger.totals[1]}
    winner = outcome(
        totals,
        None if ledger.winner is None else ("north_south", "east_west")[ledger.winner],
        fixed,
    )
    if winner is None and fixed is None:
        raise LeagueError(
            "bad_scoresheet", "The game has not reached its target: no side has won yet."
        )
    return totals, winner, count, sheet


def outcome(totals: Mapping[str, int], ledger_winner: str | None, fixed: int | None) -> str | None:
    """A match's winner: in a fixed-hands match the side ahead after the hands (None: a
    draw); in a game to the target, the game's winner."""
    if fixed is not None:
        if totals["north_south"] == totals["east_west"]:
            return None
        return "north_south" if totals["north_south"] > totals["east_west"] else "east_west"
    return ledger_winner


@dataclass(frozen=True)
class TableResult:
    """A competition table's finished game, as the match-results projection kept it."""

    table_id: str
    round_number: int
    board: int
    points: Mapping[str, int]
    winner: str | None
    hands: int
    bot_substitute: bool


TABLE_RESULT_ACTOR = {"kind": "system", "name": "match_results"}


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
    """The result of a competition table's finished game (appended by the match-results
    projection; idempotent by the table id)."""
    return execute(
        competition_id,
        _table_result_decision(competition_id, result, {}),
        command_id=f"table-result:{result.table_id}",
        after=lambda s, _e: finish_if_complete(s, TABLE_RESULT_ACTOR),
    )[0]


def record_table_results(
    competition_id: str,
    results: Sequence[TableResult],
    *,
    after_all: Callable[[CompetitionState], object] | None = None,
) -> list[list[StoredEvent] | LeagueError]:
    """Several finished tables of one competition in one fold and one transaction
    (:func:`~leagues.services.streams.execute_each`), in the given order: per result its
    stored events, or the refusal (e.g. the organiser entered that match first);
    ``after_all`` gets the state after the last append, in the same transaction."""
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
        after_all=after_all,
    )


def record_forfeit(
    user: Any, competition_id: object, round_number: int, request: ForfeitRequest
) -> CompetitionState:
    cid = parse_id(competition_id)

    def decide(state: CompetitionState, organiser: int) -> list[Any]:
        return decisions.decide_forfeit(
            state,
            round_number=round_number,
            board=request.board,
            forfeited_by=request.forfeited_by,
            no_show=request.no_show,
            reason=request.reason,
            seed=seed_of(cid, round_number),
            organiser=organiser,
            actor=actor_of(user),
        )

    return as_organiser(user, cid, decide, after=_finish(user))


def correct_result(
    user: Any, competition_id: object, result_id: str, request: CorrectionRequest
) -> CompetitionState:
    return as_organiser(
        user,
        competition_id,
        lambda state, organiser: decisions.decide_correct(
            state, result_id=result_id, request=request, organiser=organiser, actor=actor_of(user)
        ),
    )


def advance_stage(user: Any, competition_id: object) -> CompetitionState:
    return as_organiser(
        user,
        competition_id,
        lambda state, _organiser: decisions.decide_advance(state, actor=actor_of(user)),
    )
