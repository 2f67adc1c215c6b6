"""Rounds: pairing the next round, opening its tables, players arriving at them, and the
no-shows at the end of the grace time."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from eventstore.records import NewEvent
from leagues.core.competition import pair_next_round
from leagues.core.pairings import Pairing
from leagues.core.results import SIDES

from .. import events as ev
from .. import parsing as p
from .. import schedule
from ..settings import CompetitionSettings
from ..state import CompetitionState
from .guards import paired_round, require
from .results import decide_forfeit, forfeit_fields, no_show_event

Actor = Mapping[str, Any]

# The level of a bot that takes a no-show's seat (the turn timer's stand-in is Normal too).
NO_SHOW_BOT_LEVEL = "normal"


@dataclass(frozen=True, slots=True)
class PairRequest:
    """Pair the next round; with ``round``, idempotently (that round if it is paired)."""

    round: int | None = None

    @classmethod
    def parse(cls, body: object) -> PairRequest:
        fields = p.body_of(body)
        p.known_fields(fields, ("round",))
        number = fields.get("round")
        return cls(round=None if number is None else p.round_number(number))


def _require_checked_in(
    state: CompetitionState, settings: CompetitionSettings, number: int, playing: Sequence[str]
) -> None:
    """With check-in on, everyone who plays round ``number`` must have checked in for it."""
    if not settings.check_in:
        return
    missing = sorted(set(playing) - state.checked_in.get(number, set()))
    if missing:
        raise p.refuse(
            "not_checked_in",
            f"Not checked in for round {number}: {', '.join(missing[:10])}"
            + ("..." if len(missing) > 10 else "")
            + " (check them in or withdraw them).",
        )


def decide_pair(state: CompetitionState, *, seed: str, actor: Actor) -> tuple[list[NewEvent], int]:
    """``RoundPaired`` for the next round (the seed stays secret: only its commitment is in
    the event), with ``RoundClosed`` at once for a round of byes only. Only entered
    entrants are paired: an invitation some player has not accepted is not."""
    settings = require(state)
    if state.finished:
        raise p.refuse("competition_finished", "The competition is finished.")
    if state.rounds and state.last_round not in state.closed:
        raise p.refuse(
            "round_not_closed",
            f"Round {state.last_round} still has matches without a result; close it first.",
        )
    competition = state.competition()
    stage = competition.next_stage()
    if stage < len(competition.settings.stages) and stage > state.stage:
        raise p.refuse(
            "stage_not_advanced",
            f"Stage {state.stage + 1} is complete: advance to stage {stage + 1} first.",
        )
    number = state.last_round + 1
    if stage == 0:
        active = [e.id for e in state.entrants.values() if e.active_in(number)]
        if len(active) < 2:
            waiting = len(state.invitations)
            raise p.refuse(
                "too_few_entrants",
                "At least two entrants are needed to pair a round"
                + (
                    f" ({waiting} invited, waiting for their players to accept)."
                    if waiting
                    else "."
                ),
            )
        _require_checked_in(state, settings, number, active)
    paired = pair_next_round(competition, seed)
    if stage > 0:
        # A later stage (a knockout of the qualifiers) is played by those its engine
        # pairs in a match; a bye plays nothing and a withdrawn entrant's match is a
        # forfeit (it cannot check in).
        playing = [
            side
            for match in paired.pairing.matches
            for side in (match.north_south, match.east_west)
            if state.entrants[side].active_in(number)
        ]
        _require_checked_in(state, settings, number, playing)
    out = [
        ev.round_paired(
            round_number=paired.number,
            stage=paired.stage,
            engine=str(paired.input.get("engine")),
            engine_version=int(paired.input.get("engine_version", 0)),
            engine_input=paired.input,
            commitment=paired.commitment,
            results_version=paired.results_version,
            pairing=paired.pairing.as_dict(),
            actor=actor,
        )
    ]
    forfeits = _withdrawal_forfeits(state, settings, paired.number, paired.pairing.matches, actor)
    out.extend(forfeits)
    if len(forfeits) == len(paired.pairing.matches):
        out.append(ev.round_closed(round_number=paired.number, seed=seed, actor=actor))
    return out, paired.number


def _withdrawal_forfeits(
    state: CompetitionState,
    settings: CompetitionSettings,
    number: int,
    matches: Sequence[Pairing],
    actor: Actor,
) -> list[NewEvent]:
    """``MatchForfeited`` for every match of a withdrawn entrant in the round just paired.

    Only a schedule drawn once (a round robin, a knockout bracket) still pairs a
    withdrawn entrant: its remaining matches are forfeits, recorded with the pairing so
    that they score (``forfeit_loss`` for it, a win for the opponent) and need no table.
    """
    organiser = actor.get("user_id")
    out = []
    for pairing in matches:
        gone = [
            side
            for side, entrant in zip(SIDES, (pairing.north_south, pairing.east_west), strict=True)
            if not state.entrants[entrant].active_in(number)
        ]
        if not gone:
            continue
        forfeited_by = gone[0] if len(gone) == 1 else "both"
        data = forfeit_fields(state, number, pairing, forfeited_by, settings.match_format)
        out.append(
            ev.match_forfeited(
                data,
                organiser=None if organiser is None else int(organiser),
                reason="withdrawn",
                actor=actor,
            )
        )
    return out


def decide_start(
    state: CompetitionState,
    *,
    round_number: object,
    tables: Sequence[tuple[int, str]],
    now: datetime,
    by: str = "organiser",
    actor: Actor,
) -> list[NewEvent]:
    """``RoundStarted``: the tables are open (``by`` the organiser, or the schedule)."""
    require(state)
    number = paired_round(state, round_number)
    if number in state.started:
        raise p.refuse("round_started", f"Round {number} has started already.")
    if number in state.closed:
        raise p.refuse("round_closed", f"Round {number} is closed.")
    return [
        ev.round_started(
            round_number=number, tables=tables, opened_at=now.isoformat(), by=by, actor=actor
        )
    ]


def board_of_player(state: CompetitionState, number: int, player: str) -> tuple[int, str] | None:
    """The board and seat ``player`` plays at in round ``number``, if they play it."""
    paired = state.paired_round(number)
    for pairing in [] if paired is None else paired.pairing.matches:
        for seat, who in state.seating(number, pairing.board).items():
            if who == player:
                return pairing.board, seat
    return None


def decide_arrive(
    state: CompetitionState, *, round_number: object, player: str, actor: Actor
) -> list[NewEvent]:
    """``PlayerArrived``: a player of a started round is at their table (present)."""
    settings = require(state)
    if settings.bots_play:
        raise p.refuse("bots_play", "Bots play every seat of this competition: no check-in.")
    number = paired_round(state, round_number)
    if number not in state.started:
        raise p.refuse(
            "round_not_started", f"Round {number}'s tables are not open yet: come back then."
        )
    found = board_of_player(state, number, player)
    if found is None:
        raise p.refuse("not_playing", f"You do not play in round {number}.")
    board, seat = found
    if number in state.closed or board in state.reported_boards(number):
        raise p.refuse("match_not_in_play", f"Round {number} board {board} has its result.")
    if state.no_show_of(number, board) is not None:
        raise p.refuse(
            "no_show_recorded",
            f"The grace time of round {number} board {board} is over: a no-show was recorded.",
        )
    if player in state.arrived.get(number, {}).get(board, set()):
        raise p.refuse("already_arrived", f"You are at round {number} board {board} already.")
    return [
        ev.player_arrived(round_number=number, board=board, player=player, seat=seat, actor=actor)
    ]


def decide_no_show(
    state: CompetitionState,
    *,
    round_number: int,
    board: int,
    now: datetime,
    seed: str | None,
    actor: Actor,
) -> list[NewEvent]:
    """The grace time is over and a seat's player has not arrived: ``NoShowRecorded``;
    when the competition allows bots a bot takes the seat (the table then plays, its
    result flagged), otherwise the match is forfeited by the absent side (``both``: a
    double forfeit)."""
    settings = require(state)
    deadline = schedule.grace_deadline(state, round_number)
    if deadline is None or now < deadline:
        raise p.refuse("grace_not_over", f"Round {round_number}'s grace time is not over.")
    if board not in schedule.waiting_boards(state, round_number):
        raise p.refuse("nobody_absent", f"Round {round_number} board {board} waits for nobody.")
    seats = schedule.absent(state, round_number, board)
    if settings.bots_for_no_shows:
        return [no_show_event(round_number, board, seats, NO_SHOW_BOT_LEVEL, actor)]
    return decide_forfeit(
        state,
        round_number=round_number,
        board=board,
        forfeited_by=schedule.side_of(seats),
        no_show=True,
        reason=f"No-show: {', '.join(sorted(seats))} not at the table by {deadline.isoformat()}.",
        seed=seed,
        organiser=None,
        actor=actor,
        absent_seats=seats,
    )
