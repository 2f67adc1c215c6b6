"""Results: a match's result, its confirmation, a forfeit, a correction, and what a result
closes (the round, the stage, the competition).

A result played at one of the competition's tables by the entrants' own players (no bot
in a seat) counts for the site ratings pool as it is recorded. One an organiser types in
(``points`` and ``winner``, a scoresheet, or a correction) counts only once a player of
each side who sat in the match has confirmed it (:func:`decide_confirm_result`) and every
player who sat has agreed to play in the competition: nobody's public rating moves on an
organiser's word alone. A forfeit is never rated.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from eventstore.records import NewEvent
from leagues.core.errors import LeagueError
from leagues.core.pairings import Pairing
from leagues.core.results import (
    MAX_GAME_POINTS,
    SIDES,
    MatchFormat,
    MatchResult,
    Side,
    check_result,
    effective_results,
)
from leagues.core.withdrawals import check_result_after_withdrawal

from .. import events as ev
from .. import parsing as p
from .. import schedule
from ..state import CompetitionState
from .guards import require

Actor = Mapping[str, Any]

RESULT_FIELDS = ("board", "points", "winner", "scoresheet", "forfeited_by", "no_show", "reason")
CORRECTION_FIELDS = ("points", "winner", "forfeited_by", "reason")
FORFEIT_SIDES = (*SIDES, "both")


# ---------------------------------------------------------------- requests


def _points(value: object) -> dict[str, int]:
    if not isinstance(value, Mapping) or set(value) != set(SIDES):
        raise p.refuse("invalid", 'points is {"north_south": N, "east_west": N}.')
    return {
        side: p.whole(value[side], f"points.{side}", -MAX_GAME_POINTS, MAX_GAME_POINTS)
        for side in SIDES
    }


def _winner(value: object) -> Side | None:
    if value is None:
        return None
    if value not in SIDES:
        raise p.refuse("invalid", "winner is north_south, east_west or null (a draw).")
    return "north_south" if value == "north_south" else "east_west"


def _forfeited_by(value: object) -> str:
    if value not in FORFEIT_SIDES:
        raise p.refuse("invalid", "forfeited_by is north_south, east_west or both.")
    return str(value)


@dataclass(frozen=True, slots=True)
class ResultRequest:
    """An organiser's result for ``board``: game ``points`` and ``winner`` (null: a draw),
    or a ``scoresheet`` the service scores under the competition's rules."""

    board: int
    points: Mapping[str, int] | None = None
    winner: Side | None = None
    scoresheet: Mapping[str, Any] | None = None


@dataclass(frozen=True, slots=True)
class ForfeitRequest:
    """``forfeited_by`` (a side, or ``both``) did not play ``board`` (``no_show``: a seat
    stayed empty past the grace time)."""

    board: int
    forfeited_by: str
    no_show: bool = False
    reason: str = ""


def parse_result_request(body: object) -> ResultRequest | ForfeitRequest:
    """``POST .../rounds/N/results``: a forfeit when it names ``forfeited_by``, else a
    result (points and winner, or a scoresheet)."""
    fields = p.body_of(body)
    p.known_fields(fields, RESULT_FIELDS)
    board = p.whole(p.required(fields, "board"), "board", 1, 10_000)
    if fields.get("forfeited_by") is not None:
        for extra in ("points", "winner", "scoresheet"):
            if fields.get(extra) is not None:
                raise p.refuse("invalid", f"A forfeit has no {extra}.")
        return ForfeitRequest(
            board=board,
            forfeited_by=_forfeited_by(fields["forfeited_by"]),
            no_show=p.flag(fields.get("no_show", False), "no_show"),
            reason=p.text(fields.get("reason"), "reason", p.MAX_REASON),
        )
    for extra in ("no_show", "reason"):
        if fields.get(extra) not in (None, False, ""):
            raise p.refuse("invalid", f"{extra} goes with forfeited_by (a forfeit).")
    sheet = fields.get("scoresheet")
    if sheet is not None:
        if fields.get("points") is not None or fields.get("winner") is not None:
            raise p.refuse("invalid", "Give points and winner, or a scoresheet, not both.")
        if not isinstance(sheet, Mapping):
            raise p.refuse("bad_scoresheet", 'A scoresheet is {"hands": [...]} (docs/formats.md).')
        return ResultRequest(board=board, scoresheet=sheet)
    return ResultRequest(
        board=board,
        points=_points(p.required(fields, "points")),
        winner=_winner(fields.get("winner")),
    )


@dataclass(frozen=True, slots=True)
class CorrectionRequest:
    """A compensating result: new ``points`` and ``winner`` (or ``forfeited_by``) and the
    organiser's ``reason`` (required)."""

    reason: str
    points: Mapping[str, int] | None = None
    winner: Side | None = None
    forfeited_by: str | None = None

    @classmethod
    def parse(cls, body: object) -> CorrectionRequest:
        fields = p.body_of(body)
        p.known_fields(fields, CORRECTION_FIELDS)
        forfeited = fields.get("forfeited_by")
        points = fields.get("points")
        return cls(
            reason=p.text(p.required(fields, "reason"), "reason", p.MAX_REASON, empty=False),
            points=None if points is None else _points(points),
            winner=_winner(fields.get("winner")),
            forfeited_by=None if forfeited is None else _forfeited_by(forfeited),
        )


# ---------------------------------------------------------------- the result fields


def result_fields(
    state: CompetitionState,
    result_id: str,
    number: int,
    pairing: Pairing,
    points: Mapping[str, int] | None,
    winner: object,
    match_format: MatchFormat,
    *,
    forfeited_by: object = None,
    no_show: bool = False,
    bot_substitute: bool = False,
    rated: bool = True,
    corrects: str | None = None,
) -> dict[str, Any]:
    """The fields every result event carries, the result checked against the match
    format and the entrants' withdrawals; ``rated`` is kept only for a match played
    without a bot."""
    checked_points = _points({"north_south": 0, "east_west": 0} if points is None else points)
    checked_winner = _winner(winner)
    if forfeited_by is not None:
        _forfeited_by(forfeited_by)
    result = MatchResult(
        id=result_id,
        round=number,
        board=pairing.board,
        north_south=pairing.north_south,
        east_west=pairing.east_west,
        north_south_points=checked_points["north_south"],
        east_west_points=checked_points["east_west"],
        winner=checked_winner,
        forfeited_by=forfeited_by,  # type: ignore[arg-type]
        no_show=no_show,
        bot_substitute=bot_substitute,
        corrects=corrects,
        rated=rated,
    )
    check_result(result, match_format, knockout=bool(pairing.match))
    check_result_after_withdrawal(result, state.entrants)
    return {
        "result_id": result_id,
        "round": number,
        "board": pairing.board,
        "north_south": pairing.north_south,
        "east_west": pairing.east_west,
        "points": checked_points,
        "winner": checked_winner,
        "forfeited_by": forfeited_by,
        "no_show": no_show,
        "bot_substitute": bot_substitute,
        "rated": rated and forfeited_by is None and not bot_substitute,
    }


def forfeit_fields(
    state: CompetitionState,
    number: int,
    pairing: Pairing,
    forfeited_by: str,
    match_format: MatchFormat,
    *,
    no_show: bool = False,
) -> dict[str, Any]:
    """The result fields of a forfeit by ``forfeited_by`` (a side, or ``both``): the other
    side wins (nobody, when both forfeit), no game points."""
    by = _forfeited_by(forfeited_by)
    winner = None if by == "both" else SIDES[1 - SIDES.index(by)]
    return result_fields(
        state,
        f"r{number}-b{pairing.board}",
        number,
        pairing,
        None,
        winner,
        match_format,
        forfeited_by=by,
        no_show=no_show,
    )


def match_in_play(
    state: CompetitionState, round_number: object, board: object
) -> tuple[int, Pairing]:
    """The round and pairing of a match that still waits for its result."""
    require(state)
    if (
        isinstance(round_number, bool)
        or not isinstance(round_number, int)
        or state.paired_round(round_number) is None
        or isinstance(board, bool)
        or not isinstance(board, int)
    ):
        raise p.refuse(
            "match_not_in_play", f"Round {round_number!r} board {board!r} is not paired."
        )
    paired = state.paired_round(round_number)
    assert paired is not None
    pairing = next((m for m in paired.pairing.matches if m.board == board), None)
    if pairing is None:
        raise p.refuse("match_not_in_play", f"Round {round_number} has no board {board}.")
    if round_number in state.closed or board in state.reported_boards(round_number):
        raise p.refuse(
            "match_not_in_play",
            f"Round {round_number} board {board} has its result; change it with a correction.",
        )
    return round_number, pairing


def no_show_event(
    number: int, board: int, seats: Mapping[str, str], bot_level: str | None, actor: Actor
) -> NewEvent:
    """``NoShowRecorded`` for the absent ``seats`` (seat -> player); ``bot_level``: bots
    take them (otherwise the absent side forfeits, in the same append)."""
    ordered = sorted(seats, key=ev.SEATS.index)
    return ev.no_show_recorded(
        round_number=number,
        board=board,
        side=schedule.side_of(seats),
        seats=ordered,
        players=[seats[seat] for seat in ordered],
        bot_level=bot_level,
        actor=actor,
    )


def closing(
    state: CompetitionState, number: int, seed: str | None, actor: Actor, extra_boards: int = 1
) -> list[NewEvent]:
    """``RoundClosed`` when this result was the round's last (``CompetitionFinished``
    follows from the service, in the same transaction, when that was the last round)."""
    paired = state.paired_round(number)
    assert paired is not None
    if len(state.reported_boards(number)) + extra_boards < len(paired.pairing.matches):
        return []
    if seed is None:
        raise p.refuse("seed_missing", f"The pairing seed of round {number} is missing.")
    return [ev.round_closed(round_number=number, seed=seed, actor=actor)]


# ---------------------------------------------------------------- decisions


def decide_result(
    state: CompetitionState,
    *,
    round_number: object,
    board: object,
    points: Mapping[str, Any] | None,
    winner: object,
    source: str,
    seed: str | None,
    actor: Actor,
    table_id: str | None = None,
    scoresheet: Mapping[str, Any] | None = None,
    hands: int | None = None,
    bot_substitute: bool = False,
    organiser: int | None = None,
) -> list[NewEvent]:
    """A match's result (from its table, a scoresheet or the organiser), closing the round
    when it is the last one. Only a table's counts for the ratings as it stands."""
    settings = require(state)
    number, pairing = match_in_play(state, round_number, board)
    data = result_fields(
        state,
        f"r{number}-b{pairing.board}",
        number,
        pairing,
        points,
        winner,
        settings.match_format,
        bot_substitute=bot_substitute,
        rated=source == "table",
    )
    return [
        ev.match_result_recorded(
            data,
            source=source,
            table_id=table_id,
            hands=hands,
            scoresheet=scoresheet,
            organiser=organiser,
            actor=actor,
        ),
        *closing(state, number, seed, actor),
    ]


def _side_of(state: CompetitionState, result: MatchResult, player: str) -> Side | None:
    for side in SIDES:
        if player in state.players_in(result.entrant(side), result.round):
            return side
    return None


def decide_confirm_result(
    state: CompetitionState, *, result_id: str, player: str, actor: Actor
) -> list[NewEvent]:
    """``ResultConfirmed``: a player who sat in a typed-in match vouches for its result.
    With a player of each side confirmed, and every player who sat having agreed to play
    here, the result counts for the site ratings pool (``rated``)."""
    settings = require(state)
    current = {r.id: r for r in effective_results(state.results)}
    result = current.get(result_id)
    if result is None:
        raise p.refuse(
            "unknown_result",
            f"Result {result_id!r} was corrected: confirm the correction."
            if state.result_of(result_id) is not None
            else f"There is no result {result_id!r} in this competition.",
        )
    if not state.result_info[result.id].typed_in:
        raise p.refuse(
            "nothing_to_confirm",
            f"Result {result.id!r} was played at its table: it needs no confirmation.",
        )
    if not result.played or result.bot_substitute or settings.bots_play:
        raise p.refuse(
            "nothing_to_confirm",
            f"Result {result.id!r} is a forfeit or was played by bots: it is never rated.",
        )
    side = _side_of(state, result, player)
    if side is None:
        raise p.refuse("not_in_match", f"You did not play in result {result.id!r}.")
    confirmed = state.confirmations.get(result.id, {})
    if side in confirmed:
        raise p.refuse(
            "already_confirmed",
            f"Your side of result {result.id!r} has confirmed it already.",
        )
    seated = [person for s in SIDES for person in state.players_in(result.entrant(s), result.round)]
    rated = len(confirmed) + 1 == len(SIDES) and all(person in state.consented for person in seated)
    return [
        ev.result_confirmed(result_id=result.id, player=player, side=side, rated=rated, actor=actor)
    ]


def people_of(state: CompetitionState, pairing: Pairing) -> list[str]:
    """Everyone an organiser's reason about a match may name: both entrants' players and
    reserves, and whoever substituted for them."""
    people: list[str] = []
    for entrant_id in (pairing.north_south, pairing.east_west):
        entrant = state.entrants.get(entrant_id)
        if entrant is not None:
            people += [*entrant.players, *([entrant.reserve] if entrant.reserve else [])]
        people += [into for _, _, into in state.substitutions.get(entrant_id, [])]
    return people


def decide_forfeit(
    state: CompetitionState,
    *,
    round_number: object,
    board: object,
    forfeited_by: object,
    no_show: bool,
    reason: str,
    seed: str | None,
    organiser: int | None,
    actor: Actor,
    absent_seats: Mapping[str, str] | None = None,
) -> list[NewEvent]:
    """A forfeit (``no_show``: a seat stayed empty past the grace time) as the match's result
    (``organiser`` None: the schedule recorded it; ``absent_seats``: who did not come, by
    default every player of the forfeiting side)."""
    settings = require(state)
    number, pairing = match_in_play(state, round_number, board)
    by = _forfeited_by(forfeited_by)
    data = forfeit_fields(state, number, pairing, by, settings.match_format, no_show=no_show)
    out = []
    if no_show:
        if absent_seats is None:
            absent_seats = {
                seat: player
                for seat, player in state.seating(number, pairing.board).items()
                if by in ("both", schedule.SEAT_SIDES[seat])
            }
        out.append(no_show_event(number, pairing.board, absent_seats, None, actor))
    said = ev.typed(reason, ev.typist(actor), people_of(state, pairing))
    out.append(ev.match_forfeited(data, organiser=organiser, reason=said, actor=actor))
    return out + closing(state, number, seed, actor)


def decide_correct(
    state: CompetitionState,
    *,
    result_id: str,
    request: CorrectionRequest,
    organiser: int,
    actor: Actor,
) -> list[NewEvent]:
    """A compensating result: the organiser and the reason are recorded, nothing is edited,
    and rounds paired since keep their pairings (the standings list them as stale). It is
    typed in: it counts for the ratings only once both sides confirm it."""
    settings = require(state)
    current = {r.id: r for r in effective_results(state.results)}
    target = current.get(result_id)
    if target is None:
        raise p.refuse(
            "unknown_result",
            f"Result {result_id!r} was corrected already: correct the latest correction."
            if state.result_of(result_id) is not None
            else f"There is no result {result_id!r} in this competition.",
        )
    paired = state.paired_round(target.round)
    assert paired is not None
    pairing = next(m for m in paired.pairing.matches if m.board == target.board)
    count = sum(1 for r in state.results if r.corrects is not None) + 1
    data = result_fields(
        state,
        f"c{count}-r{target.round}-b{target.board}",
        target.round,
        pairing,
        request.points,
        request.winner,
        settings.match_format,
        forfeited_by=request.forfeited_by,
        bot_substitute=target.bot_substitute,
        rated=False,
        corrects=target.id,
    )
    said = ev.typed(request.reason, ev.typist(actor), people_of(state, pairing))
    return [
        ev.result_corrected(data, corrects=target.id, organiser=organiser, reason=said, actor=actor)
    ]


def _stage_to_advance_to(state: CompetitionState) -> int:
    """The next stage (0-based) when the current one is complete; refused otherwise."""
    require(state)
    if state.rounds and state.last_round not in state.closed:
        raise p.refuse("round_not_closed", f"Round {state.last_round} is not closed yet.")
    competition = state.competition()
    stage = competition.next_stage() if state.rounds else 0
    if stage <= state.stage or stage >= len(competition.settings.stages):
        raise p.refuse(
            "stage_not_complete",
            "There is no next stage to advance to"
            if stage >= len(competition.settings.stages)
            else f"Stage {state.stage + 1} is not complete yet.",
        )
    return stage


def can_advance(state: CompetitionState) -> bool:
    """Whether :func:`decide_advance` would accept now (the organise page's button)."""
    try:
        _stage_to_advance_to(state)
    except LeagueError:
        return False
    return True


def decide_advance(state: CompetitionState, *, actor: Actor) -> list[NewEvent]:
    stage = _stage_to_advance_to(state)
    entrants = state.competition().stage_entrants(stage)
    return [ev.stage_advanced(stage=stage, entrants=entrants, actor=actor)]


def decide_finish(state: CompetitionState, *, actor: Actor) -> list[NewEvent]:
    """``CompetitionFinished`` with the final order, once every stage is complete."""
    require(state)
    if state.finished:
        raise p.refuse("competition_finished", "The competition is finished already.")
    if not state.rounds or state.last_round not in state.closed:
        raise p.refuse("round_not_closed", "The last round is not closed yet.")
    competition = state.competition()
    if competition.next_stage() < len(competition.settings.stages):
        raise p.refuse("stage_not_complete", "Rounds remain to be played.")
    return [ev.competition_finished(order=competition.standings().order(), actor=actor)]
