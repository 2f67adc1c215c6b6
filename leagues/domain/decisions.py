"""Requests in, events out: every rule a competition's organiser or player can break.

Each ``decide_*`` function takes the folded :class:`CompetitionState` and the request,
and returns the events to append, or raises :class:`LeagueError` (nothing is written).
Times come in as arguments, so the rules are testable without a clock.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from eventstore.records import NewEvent
from leagues.core import knockout, round_robin, swiss
from leagues.core.competition import pair_next_round
from leagues.core.entrants import MAX_ID_LENGTH, Entrant, check_entrants
from leagues.core.errors import LeagueError
from leagues.core.results import (
    SIDES,
    MatchFormat,
    MatchPoints,
    MatchResult,
    check_result,
    effective_results,
)
from leagues.core.stages import STAGE_KINDS, Stage, check_stages
from leagues.core.tiebreaks import DEFAULT_TIEBREAKS, check_tiebreaks

from . import events as ev
from . import schedule
from .state import CompetitionState

BOT_LEVELS = ("easy", "normal", "hard")
# The level of a bot that takes a no-show's seat (the turn timer's stand-in is Normal too).
NO_SHOW_BOT_LEVEL = "normal"
MAX_NAME = 200
MAX_REASON = 500
MAX_ROUND_STARTS = 64
MAX_GRACE_MINUTES = 240
MAX_ORGANISERS = 20
ENGINE_VERSIONS = {
    swiss.ENGINE: swiss.ENGINE_VERSION,
    round_robin.ENGINE: round_robin.ENGINE_VERSION,
    knockout.ENGINE: knockout.ENGINE_VERSION,
}
SPEC_KEYS = {
    "name",
    "kind",
    "stages",
    "match_points",
    "fixed_hands",
    "tiebreaks",
    "round_robin_order",
    "knockout_seeding",
    "registration_closes_at",
    "late_join_until_round",
    "check_in",
    "round_starts",
    "grace_minutes",
    "bots_for_no_shows",
    "bot_level",
    "spectator_delay_tricks",
    "league_id",
    "season",
    "division",
}

Actor = dict[str, Any]


def _refuse(code: str, message: str) -> LeagueError:
    return LeagueError(code, message)


def _text(value: object, what: str, limit: int = MAX_NAME, empty: bool = True) -> str:
    if value is None and empty:
        return ""
    if not isinstance(value, str) or len(value) > limit or (not value and not empty):
        raise _refuse("invalid", f"{what} is a text of {0 if empty else 1} to {limit} characters.")
    return value


def checked_name(value: object, what: str, limit: int = MAX_NAME) -> str:
    """A name that pages show in place of an id: 1 to ``limit`` characters once the
    surrounding whitespace is stripped (the stripped text is what is kept)."""
    name = value.strip() if isinstance(value, str) else ""
    if not 1 <= len(name) <= limit:
        raise _refuse("invalid", f"{what} is a name of 1 to {limit} characters.")
    return name


def _whole(value: object, what: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise _refuse("invalid", f"{what} is a whole number from {low} to {high}.")
    return value


def _flag(value: object, what: str) -> bool:
    if not isinstance(value, bool):
        raise _refuse("invalid", f"{what} is true or false.")
    return value


def _time(value: object, what: str) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str):
        raise _refuse("invalid", f"{what} is an ISO 8601 time with its offset, or null.")
    try:
        parsed = datetime.fromisoformat(value)
    except ValueError:
        raise _refuse("invalid", f"{what}: {value!r} is not an ISO 8601 time.") from None
    if parsed.tzinfo is None:
        raise _refuse("invalid", f"{what}: give the time zone offset (e.g. +00:00).")
    return parsed.isoformat()


def _require(state: CompetitionState) -> None:
    if not state.exists:
        raise _refuse("unknown_competition", "There is no such competition.")


def require_organiser(state: CompetitionState, user_id: int | None) -> None:
    """Only the competition's organisers write (staff are not organisers by default)."""
    _require(state)
    if user_id is None or user_id not in state.organisers:
        raise _refuse("not_organiser", "Only this competition's organisers can do that.")


def _entrant_id(value: object) -> str:
    return _text(value, "entrant_id", MAX_ID_LENGTH, empty=False)


def _known_entrant(state: CompetitionState, entrant_id: object) -> Entrant:
    entrant = state.entrants.get(str(entrant_id))
    if entrant is None:
        raise _refuse("unknown_entrant", f"{entrant_id!r} is not an entrant of this competition.")
    return entrant


# ---------------------------------------------------------------- creation


def decide_create(
    competition_id: str,
    spec: Mapping[str, Any],
    *,
    organisers: Sequence[int],
    rules: Mapping[str, Any],
    lots_seed: str,
    actor: Actor,
) -> list[NewEvent]:
    """``CompetitionCreated`` from an organiser's settings (every field checked)."""
    unknown = sorted(set(spec) - SPEC_KEYS)
    if unknown:
        raise _refuse(
            "invalid", f"Unknown field {unknown[0]!r}; known: {', '.join(sorted(SPEC_KEYS))}."
        )
    if not 1 <= len(organisers) <= MAX_ORGANISERS:
        raise _refuse("invalid", f"A competition has 1 to {MAX_ORGANISERS} organisers.")
    stages_raw = spec.get("stages", [{"kind": "swiss", "rounds": 5}])
    if not isinstance(stages_raw, list) or not stages_raw:
        raise _refuse("bad_stages", "stages is a list of {kind, rounds, advance, ...}.")
    stages = []
    for index, raw in enumerate(stages_raw, start=1):
        if not isinstance(raw, Mapping) or raw.get("kind") not in STAGE_KINDS:
            raise _refuse("bad_stages", f"stage {index}: kind is one of {', '.join(STAGE_KINDS)}.")
        stages.append(
            Stage(
                kind=raw["kind"],
                rounds=_whole(raw.get("rounds", 0), f"stage {index} rounds", 0, 64),
                advance=None
                if raw.get("advance") is None
                else _whole(raw["advance"], f"stage {index} advance", 2, 4096),
                double=_flag(raw.get("double", False), f"stage {index} double"),
                reset=_flag(raw.get("reset", False), f"stage {index} reset"),
            )
        )
    checked_stages = check_stages(stages)
    points_raw = spec.get("match_points", {})
    if not isinstance(points_raw, Mapping):
        raise _refuse("bad_match_points", 'match_points is an object like {"win": 2}.')
    try:
        points = MatchPoints(**dict(points_raw))
    except TypeError:
        raise _refuse(
            "bad_match_points", "match_points has win, draw, loss, bye, late_join, forfeit_loss."
        ) from None
    fixed = spec.get("fixed_hands")
    if fixed is not None:
        _whole(fixed, "fixed_hands", 1, 100)
    MatchFormat(fixed)
    tiebreaks_raw = spec.get("tiebreaks", list(DEFAULT_TIEBREAKS))
    if not isinstance(tiebreaks_raw, list) or not all(isinstance(t, str) for t in tiebreaks_raw):
        raise _refuse("unknown_tiebreak", "tiebreaks is a list of tie-break names.")
    tiebreaks = check_tiebreaks(tiebreaks_raw)
    round_starts = spec.get("round_starts", [])
    if not isinstance(round_starts, list) or len(round_starts) > MAX_ROUND_STARTS:
        raise _refuse("invalid", f"round_starts is a list of at most {MAX_ROUND_STARTS} times.")
    bot_level = spec.get("bot_level")
    if bot_level is not None and bot_level not in BOT_LEVELS:
        raise _refuse("invalid", f"bot_level is one of {', '.join(BOT_LEVELS)}, or null.")
    kind = spec.get("kind", "tournament")
    if kind not in ("tournament", "season"):
        raise _refuse("invalid", "kind is tournament or season.")
    order = spec.get("round_robin_order", "lots")
    if order not in ("lots", "as_listed"):
        raise _refuse("invalid", "round_robin_order is lots or as_listed.")
    seeding = spec.get("knockout_seeding", "rating")
    if seeding not in ("rating", "manual"):
        raise _refuse("invalid", "knockout_seeding is rating or manual.")
    data = {
        "competition_id": competition_id,
        "name": checked_name(spec.get("name"), "name"),
        "kind": kind,
        "league_id": _text(spec.get("league_id"), "league_id", 64) or None,
        "season": _text(spec.get("season"), "season", 64) or None,
        "division": _text(spec.get("division"), "division", 64) or None,
        "organisers": [int(user) for user in organisers],
        "rules": dict(rules),
        "match_format": {"fixed_hands": fixed},
        "match_points": {
            key: getattr(points, key)
            for key in ("win", "draw", "loss", "bye", "late_join", "forfeit_loss")
        },
        "tiebreaks": list(tiebreaks),
        "lots_seed": lots_seed,
        "engines": dict(ENGINE_VERSIONS),
        "stages": [stage.as_dict() for stage in checked_stages],
        "round_robin_order": order,
        "knockout_seeding": seeding,
        "registration_closes_at": _time(
            spec.get("registration_closes_at"), "registration_closes_at"
        ),
        "late_join_until_round": _whole(
            spec.get("late_join_until_round", 0), "late_join_until_round", 0, 64
        ),
        "check_in": _flag(spec.get("check_in", False), "check_in"),
        "round_starts": [_time(t, f"round_starts[{i}]") for i, t in enumerate(round_starts)],
        "grace_minutes": _whole(spec.get("grace_minutes", 10), "grace_minutes", 0, 240),
        "bots_for_no_shows": _flag(spec.get("bots_for_no_shows", False), "bots_for_no_shows"),
        "bot_level": bot_level,
        "spectator_delay_tricks": _whole(
            spec.get("spectator_delay_tricks", 0), "spectator_delay_tricks", 0, 13
        ),
    }
    return [ev.event(ev.COMPETITION_CREATED, data, actor)]


# ---------------------------------------------------------------- entrants


def _registration_open(state: CompetitionState, now: datetime) -> None:
    if state.rounds:
        raise _refuse(
            "registration_closed",
            "Round 1 has been paired: registration is closed (a late join may still be open).",
        )
    closes = state.config.get("registration_closes_at")
    if closes is not None and now > datetime.fromisoformat(closes):
        raise _refuse("registration_closed", f"Registration closed at {closes}.")


def _new_entrant(
    state: CompetitionState,
    entrant_id: object,
    players: object,
    reserve: object,
    name: object,
    rating: object,
    joined_round: int = 1,
) -> Entrant:
    if not isinstance(players, list | tuple) or len(players) != 2:
        raise _refuse("invalid", "players is a list of exactly two players.")
    entrant = Entrant(
        id=_entrant_id(entrant_id),
        players=(
            _text(players[0], "players[0]", MAX_ID_LENGTH, empty=False),
            _text(players[1], "players[1]", MAX_ID_LENGTH, empty=False),
        ),
        reserve=None if reserve is None else _text(reserve, "reserve", MAX_ID_LENGTH, False),
        rating=_whole(rating, "rating", -1_000_000_000, 1_000_000_000),
        name=_text(name, "name"),
        joined_round=joined_round,
    )
    if entrant.id in state.entrants:
        raise _refuse("duplicate_entrant", f"Entrant {entrant.id!r} is registered already.")
    check_entrants([*state.entrants.values(), entrant])
    # check_entrants sees registered players and reserves; substitutes count too.
    for person in (*entrant.players, entrant.reserve):
        other = None if person is None else state.entrant_of_player(person)
        if other is not None:
            raise _refuse(
                "player_in_two_entrants",
                f"Player {person!r} is already in entrant {other!r}; "
                "a player may be in only one entrant of a competition.",
            )
    return entrant


def _entrant_data(entrant: Entrant) -> dict[str, Any]:
    return {
        "entrant_id": entrant.id,
        "players": list(entrant.players),
        "reserve": entrant.reserve,
        "name": entrant.name,
        "rating": entrant.rating,
    }


def decide_register(
    state: CompetitionState,
    *,
    entrant_id: object,
    players: object,
    reserve: object = None,
    name: object = "",
    rating: object = 0,
    now: datetime,
    actor: Actor,
) -> list[NewEvent]:
    _require(state)
    _registration_open(state, now)
    entrant = _new_entrant(state, entrant_id, players, reserve, name, rating)
    return [ev.event(ev.ENTRANT_REGISTERED, _entrant_data(entrant), actor)]


def decide_propose(
    state: CompetitionState,
    *,
    proposal_id: str,
    player: str,
    partner: object,
    name: object,
    now: datetime,
    actor: Actor,
) -> list[NewEvent]:
    """A player proposes a partnership with ``partner``; it counts once the partner confirms."""
    _require(state)
    _registration_open(state, now)
    partner_id = _text(partner, "partner", MAX_ID_LENGTH, empty=False)
    if partner_id == player:
        raise _refuse("same_player_twice", "A partnership is two different players.")
    for person in (player, partner_id):
        if state.entrant_of_player(person) is not None:
            raise _refuse(
                "player_in_two_entrants",
                f"Player {person!r} is already in entrant {state.entrant_of_player(person)!r}.",
            )
    data = {
        "proposal_id": proposal_id,
        "player": player,
        "partner": partner_id,
        "name": _text(name, "name"),
    }
    return [ev.event(ev.PARTNERSHIP_PROPOSED, data, actor)]


def decide_confirm(
    state: CompetitionState,
    *,
    proposal_id: object,
    partner: str,
    now: datetime,
    actor: Actor,
    rating: int = 0,
) -> list[NewEvent]:
    _require(state)
    proposal = state.proposals.get(str(proposal_id))
    if proposal is None:
        raise _refuse("unknown_proposal", "There is no open partnership proposal with that id.")
    if proposal.partner != partner:
        raise _refuse("not_your_proposal", "Only the proposed partner can confirm.")
    _registration_open(state, now)
    entrant = _new_entrant(
        state,
        f"p-{proposal.id[:40]}",
        [proposal.player, proposal.partner],
        None,
        proposal.name,
        rating,
    )
    return [
        ev.event(ev.PARTNERSHIP_CONFIRMED, {"proposal_id": proposal.id}, actor),
        ev.event(
            ev.ENTRANT_REGISTERED, {**_entrant_data(entrant), "proposal_id": proposal.id}, actor
        ),
    ]


def decide_withdraw(
    state: CompetitionState, *, entrant_id: object, reason: object = "", actor: Actor
) -> list[NewEvent]:
    _require(state)
    entrant = _known_entrant(state, entrant_id)
    if entrant.withdrawn_after_round is not None:
        raise _refuse("already_withdrawn", f"Entrant {entrant.id!r} has withdrawn already.")
    data = {
        "entrant_id": entrant.id,
        "after_round": state.last_round,
        "reason": _text(reason, "reason", MAX_REASON),
    }
    return [ev.event(ev.ENTRANT_WITHDRAWN, data, actor)]


def decide_late_join(
    state: CompetitionState,
    *,
    entrant_id: object,
    players: object,
    reserve: object = None,
    name: object = "",
    rating: object = 0,
    actor: Actor,
) -> list[NewEvent]:
    """A late entrant plays from the next round; each round missed gives ``late_join`` points."""
    _require(state)
    if not state.rounds:
        raise _refuse("not_late", "No round has been paired yet: register the entrant instead.")
    joined = state.last_round + 1
    until = int(state.config.get("late_join_until_round", 0))
    if joined > until:
        raise _refuse(
            "late_join_closed",
            f"Late entrants can join until round {until}; the next round is {joined}."
            if until
            else "This competition takes no late entrants.",
        )
    if state.rounds[-1].stage != 0 or state.stage != 0:
        raise _refuse("late_join_closed", "Late entrants join during the first stage only.")
    assert state.settings is not None
    first = state.settings.stages[0].kind
    if first != "swiss":
        raise _refuse(
            "late_join_closed",
            f"A {first.replace('_', ' ')} draws its schedule once, before round 1: "
            "late entrants can join a Swiss stage only.",
        )
    entrant = _new_entrant(state, entrant_id, players, reserve, name, rating, joined)
    return [
        ev.event(ev.ENTRANT_LATE_JOINED, {**_entrant_data(entrant), "joined_round": joined}, actor)
    ]


def decide_substitute(
    state: CompetitionState,
    *,
    entrant_id: object,
    player_out: object,
    player_in: object,
    actor: Actor,
) -> list[NewEvent]:
    """A reserve (or a new player) plays for one of the entrant's players from the next round."""
    _require(state)
    entrant = _known_entrant(state, entrant_id)
    next_round = state.last_round + 1
    current = state.players_in(entrant.id, next_round)
    out = _text(player_out, "player_out", MAX_ID_LENGTH, empty=False)
    into = _text(player_in, "player_in", MAX_ID_LENGTH, empty=False)
    if out not in current:
        raise _refuse("not_in_entrant", f"{out!r} does not play for {entrant.id!r} now.")
    other = state.entrant_of_player(into)
    if into in current or (other is not None and other != entrant.id):
        raise _refuse(
            "player_in_two_entrants", f"Player {into!r} already plays in this competition."
        )
    data = {
        "entrant_id": entrant.id,
        "player_out": out,
        "player_in": into,
        "from_round": next_round,
    }
    return [ev.event(ev.ENTRANT_SUBSTITUTED, data, actor)]


def decide_check_in(state: CompetitionState, *, entrant_id: object, actor: Actor) -> list[NewEvent]:
    _require(state)
    entrant = _known_entrant(state, entrant_id)
    number = state.last_round + 1
    if not entrant.active_in(number):
        raise _refuse("not_playing", f"Entrant {entrant.id!r} does not play round {number}.")
    if entrant.id in state.checked_in.get(number, set()):
        raise _refuse("already_checked_in", f"{entrant.id!r} is checked in for round {number}.")
    return [ev.event(ev.ENTRANT_CHECKED_IN, {"entrant_id": entrant.id, "round": number}, actor)]


# ---------------------------------------------------------------- rounds


def _require_checked_in(state: CompetitionState, number: int, playing: Sequence[str]) -> None:
    """With check-in on, everyone who plays round ``number`` must have checked in for it."""
    if not state.config.get("check_in"):
        return
    missing = sorted(set(playing) - state.checked_in.get(number, set()))
    if missing:
        raise _refuse(
            "not_checked_in",
            f"Not checked in for round {number}: {', '.join(missing[:10])}"
            + ("..." if len(missing) > 10 else "")
            + " (check them in or withdraw them).",
        )


def decide_pair(state: CompetitionState, *, seed: str, actor: Actor) -> tuple[list[NewEvent], int]:
    """``RoundPaired`` for the next round (the seed stays secret: only its commitment is in
    the event), with ``RoundClosed`` at once for a round of byes only."""
    _require(state)
    if state.finished:
        raise _refuse("competition_finished", "The competition is finished.")
    if state.rounds and state.last_round not in state.closed:
        raise _refuse(
            "round_not_closed",
            f"Round {state.last_round} still has matches without a result; close it first.",
        )
    competition = state.competition()
    stage = competition.next_stage()
    if stage < len(competition.settings.stages) and stage > state.stage:
        raise _refuse(
            "stage_not_advanced",
            f"Stage {state.stage + 1} is complete: advance to stage {stage + 1} first.",
        )
    number = state.last_round + 1
    if stage == 0:
        active = [e.id for e in state.entrants.values() if e.active_in(number)]
        if len(active) < 2:
            raise _refuse("too_few_entrants", "At least two entrants are needed to pair a round.")
        _require_checked_in(state, number, active)
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
        _require_checked_in(state, number, playing)
    data = {
        "round": paired.number,
        "stage": paired.stage,
        "engine": paired.input.get("engine"),
        "engine_version": paired.input.get("engine_version"),
        "input": paired.input,
        "commitment": paired.commitment,
        "results_version": paired.results_version,
        "pairing": paired.pairing.as_dict(),
    }
    out = [ev.event(ev.ROUND_PAIRED, data, actor)]
    forfeits = _withdrawal_forfeits(state, paired.number, paired.pairing.matches, actor)
    out.extend(forfeits)
    if len(forfeits) == len(paired.pairing.matches):
        out.append(ev.event(ev.ROUND_CLOSED, {"round": paired.number, "seed": seed}, actor))
    return out, paired.number


def _withdrawal_forfeits(
    state: CompetitionState, number: int, matches: Sequence[Any], actor: Actor
) -> list[NewEvent]:
    """``MatchForfeited`` for every match of a withdrawn entrant in the round just paired.

    Only a schedule drawn once (a round robin, a knockout bracket) still pairs a
    withdrawn entrant: its remaining matches are forfeits, recorded with the pairing so
    that they score (``forfeit_loss`` for it, a win for the opponent) and need no table.
    """
    assert state.settings is not None
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
        winner = None if forfeited_by == "both" else SIDES[1 - SIDES.index(gone[0])]
        data = _result_data(
            f"r{number}-b{pairing.board}",
            number,
            pairing,
            None,
            winner,
            state.settings.match_format,
            forfeited_by=forfeited_by,
        )
        data.update(
            {
                "organiser": None if organiser is None else int(organiser),
                "reason": "withdrawn",
            }
        )
        out.append(ev.event(ev.MATCH_FORFEITED, data, actor))
    return out


def _paired_round(state: CompetitionState, number: object) -> int:
    if (
        isinstance(number, bool)
        or not isinstance(number, int)
        or state.paired_round(number) is None
    ):
        raise _refuse("unknown_round", f"Round {number!r} has not been paired.")
    return number


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
    _require(state)
    number = _paired_round(state, round_number)
    if number in state.started:
        raise _refuse("round_started", f"Round {number} has started already.")
    if number in state.closed:
        raise _refuse("round_closed", f"Round {number} is closed.")
    data = {
        "round": number,
        "tables": [{"board": board, "table_id": table_id} for board, table_id in tables],
        "opened_at": now.isoformat(),
        "by": by,
    }
    return [ev.event(ev.ROUND_STARTED, data, actor)]


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
    _require(state)
    if state.config.get("bot_level"):
        raise _refuse("bots_play", "Bots play every seat of this competition: no check-in.")
    number = _paired_round(state, round_number)
    if number not in state.started:
        raise _refuse(
            "round_not_started", f"Round {number}'s tables are not open yet: come back then."
        )
    found = board_of_player(state, number, player)
    if found is None:
        raise _refuse("not_playing", f"You do not play in round {number}.")
    board, seat = found
    if number in state.closed or board in state.reported_boards(number):
        raise _refuse("match_not_in_play", f"Round {number} board {board} has its result.")
    if state.no_show_of(number, board) is not None:
        raise _refuse(
            "no_show_recorded",
            f"The grace time of round {number} board {board} is over: a no-show was recorded.",
        )
    if player in state.arrived.get(number, {}).get(board, set()):
        raise _refuse("already_arrived", f"You are at round {number} board {board} already.")
    data = {"round": number, "board": board, "player": player, "seat": seat}
    return [ev.event(ev.PLAYER_ARRIVED, data, actor)]


def _no_show_data(number: int, board: int, seats: Mapping[str, str], bot: bool) -> dict[str, Any]:
    ordered = sorted(seats, key=("north", "east", "south", "west").index)
    return {
        "round": number,
        "board": board,
        "side": schedule.side_of(seats),
        "seats": ordered,
        "players": [seats[seat] for seat in ordered],
        "bot": bot,
        "level": NO_SHOW_BOT_LEVEL if bot else None,
    }


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
    _require(state)
    deadline = schedule.grace_deadline(state, round_number)
    if deadline is None or now < deadline:
        raise _refuse("grace_not_over", f"Round {round_number}'s grace time is not over.")
    if board not in schedule.waiting_boards(state, round_number):
        raise _refuse("nobody_absent", f"Round {round_number} board {board} waits for nobody.")
    seats = schedule.absent(state, round_number, board)
    if state.config.get("bots_for_no_shows"):
        data = _no_show_data(round_number, board, seats, bot=True)
        return [ev.event(ev.NO_SHOW_RECORDED, data, actor)]
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


def match_in_play(state: CompetitionState, round_number: object, board: object) -> tuple[int, Any]:
    """The round and pairing of a match that still waits for its result."""
    _require(state)
    if (
        isinstance(round_number, bool)
        or not isinstance(round_number, int)
        or state.paired_round(round_number) is None
        or isinstance(board, bool)
        or not isinstance(board, int)
    ):
        raise _refuse("match_not_in_play", f"Round {round_number!r} board {board!r} is not paired.")
    paired = state.paired_round(round_number)
    assert paired is not None
    pairing = next((p for p in paired.pairing.matches if p.board == board), None)
    if pairing is None:
        raise _refuse("match_not_in_play", f"Round {round_number} has no board {board}.")
    if round_number in state.closed or board in state.reported_boards(round_number):
        raise _refuse(
            "match_not_in_play",
            f"Round {round_number} board {board} has its result; change it with a correction.",
        )
    return round_number, pairing


def _closing(
    state: CompetitionState, number: int, seed: str | None, actor: Actor, extra_boards: int = 1
) -> list[NewEvent]:
    """``RoundClosed`` (and ``CompetitionFinished``) when this result was the round's last."""
    paired = state.paired_round(number)
    assert paired is not None
    if len(state.reported_boards(number)) + extra_boards < len(paired.pairing.matches):
        return []
    if seed is None:
        raise _refuse("seed_missing", f"The pairing seed of round {number} is missing.")
    return [ev.event(ev.ROUND_CLOSED, {"round": number, "seed": seed}, actor)]


def _result_data(
    result_id: str,
    number: int,
    pairing: Any,
    points: Mapping[str, Any] | None,
    winner: object,
    match_format: MatchFormat,
    *,
    forfeited_by: object = None,
    no_show: bool = False,
    bot_substitute: bool = False,
    rated: bool = True,
    corrects: str | None = None,
) -> dict[str, Any]:
    if points is None:
        points = {"north_south": 0, "east_west": 0}
    if not isinstance(points, Mapping) or set(points) != set(SIDES):
        raise _refuse("invalid", 'points is {"north_south": N, "east_west": N}.')
    if winner is not None and winner not in SIDES:
        raise _refuse("invalid", "winner is north_south, east_west or null (a draw).")
    if forfeited_by is not None and forfeited_by not in (*SIDES, "both"):
        raise _refuse("invalid", "forfeited_by is north_south, east_west or both.")
    ns = _whole(points["north_south"], "points.north_south", -1_000_000, 1_000_000)
    ew = _whole(points["east_west"], "points.east_west", -1_000_000, 1_000_000)
    check_result(
        MatchResult(
            id=result_id,
            round=number,
            board=pairing.board,
            north_south=pairing.north_south,
            east_west=pairing.east_west,
            north_south_points=ns,
            east_west_points=ew,
            winner=winner,  # type: ignore[arg-type]
            forfeited_by=forfeited_by,  # type: ignore[arg-type]
            no_show=no_show,
            bot_substitute=bot_substitute,
            corrects=corrects,
            rated=rated,
        ),
        match_format,
    )
    return {
        "result_id": result_id,
        "round": number,
        "board": pairing.board,
        "north_south": pairing.north_south,
        "east_west": pairing.east_west,
        "points": {"north_south": ns, "east_west": ew},
        "winner": winner,
        "forfeited_by": forfeited_by,
        "no_show": no_show,
        "bot_substitute": bot_substitute,
        "rated": rated and forfeited_by is None and not bot_substitute,
    }


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
    scoresheet: dict[str, Any] | None = None,
    hands: int | None = None,
    bot_substitute: bool = False,
    organiser: int | None = None,
) -> list[NewEvent]:
    """A match's result (from its table, a scoresheet or the organiser), closing the round
    when it is the last one."""
    number, pairing = match_in_play(state, round_number, board)
    assert state.settings is not None
    data = _result_data(
        f"r{number}-b{pairing.board}",
        number,
        pairing,
        points,
        winner,
        state.settings.match_format,
        bot_substitute=bot_substitute,
    )
    data.update(
        {
            "source": source,
            "table_id": table_id,
            "hands": hands,
            "scoresheet": scoresheet,
            "organiser": organiser,
        }
    )
    return [ev.event(ev.MATCH_RESULT_RECORDED, data, actor), *_closing(state, number, seed, actor)]


def decide_forfeit(
    state: CompetitionState,
    *,
    round_number: object,
    board: object,
    forfeited_by: object,
    no_show: bool,
    reason: object,
    seed: str | None,
    organiser: int | None,
    actor: Actor,
    absent_seats: Mapping[str, str] | None = None,
) -> list[NewEvent]:
    """A forfeit (``no_show``: a seat stayed empty past the grace time) as the match's result
    (``organiser`` None: the schedule recorded it; ``absent_seats``: who did not come, by
    default every player of the forfeiting side)."""
    number, pairing = match_in_play(state, round_number, board)
    assert state.settings is not None
    winner = None
    if forfeited_by == "north_south":
        winner = "east_west"
    elif forfeited_by == "east_west":
        winner = "north_south"
    elif forfeited_by != "both":
        raise _refuse("invalid", "forfeited_by is north_south, east_west or both.")
    data = _result_data(
        f"r{number}-b{pairing.board}",
        number,
        pairing,
        None,
        winner,
        state.settings.match_format,
        forfeited_by=forfeited_by,
        no_show=no_show,
    )
    data.update({"organiser": organiser, "reason": _text(reason, "reason", MAX_REASON)})
    out = []
    if no_show:
        if absent_seats is None:
            absent_seats = {
                seat: player
                for seat, player in state.seating(number, pairing.board).items()
                if forfeited_by in ("both", schedule.SEAT_SIDES[seat])
            }
        out.append(
            ev.event(
                ev.NO_SHOW_RECORDED,
                _no_show_data(number, pairing.board, absent_seats, bot=False),
                actor,
            )
        )
    out.append(ev.event(ev.MATCH_FORFEITED, data, actor))
    return out + _closing(state, number, seed, actor)


def decide_correct(
    state: CompetitionState,
    *,
    result_id: object,
    points: Mapping[str, Any] | None,
    winner: object,
    forfeited_by: object = None,
    reason: object,
    organiser: int,
    actor: Actor,
) -> list[NewEvent]:
    """A compensating result: the organiser and the reason are recorded, nothing is edited,
    and rounds paired since keep their pairings (the standings list them as stale)."""
    _require(state)
    assert state.settings is not None
    current = {r.id: r for r in effective_results(state.results)}
    target = current.get(str(result_id))
    if target is None:
        replaced = state.result_of(str(result_id))
        raise _refuse(
            "unknown_result",
            f"Result {result_id!r} was corrected already: correct the latest correction."
            if replaced is not None
            else f"There is no result {result_id!r} in this competition.",
        )
    why = _text(reason, "reason", MAX_REASON, empty=False)
    paired = state.paired_round(target.round)
    assert paired is not None
    pairing = next(p for p in paired.pairing.matches if p.board == target.board)
    count = sum(1 for r in state.results if r.corrects is not None) + 1
    data = _result_data(
        f"c{count}-r{target.round}-b{target.board}",
        target.round,
        pairing,
        points,
        winner,
        state.settings.match_format,
        forfeited_by=forfeited_by,
        bot_substitute=target.bot_substitute,
        rated=target.rated,
        corrects=target.id,
    )
    data.update({"corrects": target.id, "organiser": organiser, "reason": why})
    return [ev.event(ev.RESULT_CORRECTED, data, actor)]


def decide_advance(state: CompetitionState, *, actor: Actor) -> list[NewEvent]:
    _require(state)
    if state.rounds and state.last_round not in state.closed:
        raise _refuse("round_not_closed", f"Round {state.last_round} is not closed yet.")
    competition = state.competition()
    stage = competition.next_stage() if state.rounds else 0
    if stage <= state.stage or stage >= len(competition.settings.stages):
        raise _refuse(
            "stage_not_complete",
            "There is no next stage to advance to"
            if stage >= len(competition.settings.stages)
            else f"Stage {state.stage + 1} is not complete yet.",
        )
    data = {"stage": stage, "entrants": competition.stage_entrants(stage)}
    return [ev.event(ev.STAGE_ADVANCED, data, actor)]


def decide_finish(state: CompetitionState, *, actor: Actor) -> list[NewEvent]:
    """``CompetitionFinished`` with the final order, once every stage is complete."""
    _require(state)
    if state.finished:
        raise _refuse("competition_finished", "The competition is finished already.")
    if not state.rounds or state.last_round not in state.closed:
        raise _refuse("round_not_closed", "The last round is not closed yet.")
    competition = state.competition()
    if competition.next_stage() < len(competition.settings.stages):
        raise _refuse("stage_not_complete", "Rounds remain to be played.")
    order = competition.standings().order()
    return [ev.event(ev.COMPETITION_FINISHED, {"order": order}, actor)]
