"""Results: a match's result (typed in, or from a scoresheet), its confirmation by the
players, forfeits, corrections, and what a result closes (the round, the stage, the
competition). A table's result is the match-results process's (:mod:`.match_results`).

A table's result counts for the site ratings as it is recorded; one an organiser types
in counts only once a player of each side has confirmed it (:func:`confirm_result`;
``leagues.domain.decisions.results`` says why).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

from eventstore.recorder import append
from eventstore.records import StoredEvent
from games.engine.rules import RulesError
from leagues.core.errors import LeagueError
from leagues.core.results import match_outcome, match_rules
from leagues.domain import decisions
from leagues.domain import events as ev
from leagues.domain.decisions import CorrectionRequest, ForfeitRequest, ResultRequest
from leagues.domain.state import CompetitionState
from scoring.core.scoresheet import ScoresheetError, score_scoresheet
from scoring.services.presets import resolve, rules_from_mapping

from .pairing_secrets import seed_of
from .streams import actor_of, as_organiser, execute, load, parse_id, user_id_of

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
        _number, pairing = decisions.match_in_play(state0, round_number, request.board)
        points, winner, hands, sheet = score_match_sheet(
            state0, request.scoresheet, knockout=bool(pairing.match)
        )
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
    state: CompetitionState, scoresheet: object, *, knockout: bool = False
) -> tuple[dict[str, int], str | None, int, dict[str, Any]]:
    """Score a scoresheet under the rules the match's table would have played (the
    competition's pinned rules and its match format, ``match_rules``): (points, winner,
    hands, sheet), read through ``match_outcome`` exactly as a table's game is."""
    if not isinstance(scoresheet, Mapping) or not isinstance(scoresheet.get("hands"), list):
        raise LeagueError("bad_scoresheet", 'A scoresheet is {"hands": [...]} (docs/formats.md).')
    hands_raw = scoresheet["hands"]
    if len(hands_raw) > MAX_SCORESHEET_HANDS:
        raise LeagueError("bad_scoresheet", f"At most {MAX_SCORESHEET_HANDS} hands.")
    assert state.settings is not None
    pinned = rules_from_mapping(dict(state.settings.rules.snapshot))
    if "rules" in scoresheet:
        try:
            theirs = resolve(scoresheet["rules"]).rules
        except RulesError as error:
            raise LeagueError("bad_scoresheet", f"rules: {error}") from None
        # The sheet may name the match format's hands or leave them out.
        if replace(theirs, hands=None, extra_hands=0) != pinned:
            raise LeagueError(
                "rules_mismatch", "The scoresheet's rules are not the competition's rules."
            )
    table_rules = {
        **pinned.to_dict(),
        **match_rules(state.settings.match_format, knockout=knockout),
    }
    sheet = {"rules": table_rules, "hands": list(hands_raw)}
    try:
        scored = score_scoresheet(sheet)
    except ScoresheetError as error:
        raise LeagueError("bad_scoresheet", error.message) from None
    ledger = scored.ledger
    outcome = match_outcome(
        (ledger.totals[0], ledger.totals[1]), ledger.winner, ledger.finished_after_hand
    )
    if outcome is None:
        fixed = state.settings.match_format.fixed_hands
        raise LeagueError(
            "bad_scoresheet",
            "The game has not reached its target: no side has won yet."
            if fixed is None
            else f"A fixed-hands match has {fixed} hands (more while level, in a knockout); "
            f"this sheet has {len(ledger.hands)} and the game is not over.",
        )
    return outcome.points, outcome.winner, outcome.hands, sheet


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
