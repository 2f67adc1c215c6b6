"""Competition use cases: create, register, pair, start, results, corrections, stages.

Every function folds the stream, lets :mod:`leagues.domain.decisions` decide and appends
the events in one transaction; a refusal raises :class:`LeagueError` and writes nothing.
Writes are for the competition's organisers, except a player's own partnership
proposal, confirmation and check-in.
"""

from __future__ import annotations

import secrets
import uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.utils import timezone

from eventstore.reading import read_stream
from eventstore.recorder import append
from eventstore.records import StoredEvent
from games.engine.rules import RulesError
from leagues.core.commitment import new_seed
from leagues.core.errors import LeagueError
from leagues.domain import decisions
from leagues.domain import events as ev
from leagues.domain.state import CompetitionState
from leagues.models import PairingSecret
from leagues.selectors.players import check_entrant_players, ids_of, users_of
from scoring.core.scoresheet import ScoresheetError, score_scoresheet
from scoring.services.presets import resolve

from .seeding import projected_rating, with_seeding
from .streams import actor_of, execute, execute_each, load, parse_id, user_id_of

MAX_SCORESHEET_HANDS = 200


def _organiser(state: CompetitionState, user: Any) -> None:
    decisions.require_organiser(state, user_id_of(user))


def _as_organiser(
    user: Any,
    competition_id: object,
    decide: Callable[[CompetitionState, int], list[Any]],
    *,
    finish: bool = False,
) -> CompetitionState:
    """The organisers' use case: ``decide(state, organiser id)`` for one of the
    competition's organisers (anyone else is refused); with ``finish``, the competition
    finishes in the same transaction once its last stage is done."""

    def checked(state: CompetitionState) -> list[Any]:
        organiser = user_id_of(user)
        decisions.require_organiser(state, organiser)
        assert organiser is not None  # require_organiser refuses no one signed in
        return decide(state, organiser)

    def finished(state: CompetitionState, _stored: list[Any]) -> None:
        finish_if_complete(state, actor_of(user))

    return execute(competition_id, checked, after=finished if finish else None)[0]


def _entrant_request(entrant: dict[str, Any]) -> dict[str, Any]:
    """An entrant request as the decisions take it: ``usernames`` (what an organiser
    types) become the players' ids, and the seeding rating is filled in.  Resolved before
    anything is appended, so an unknown username writes nothing."""
    if "usernames" in entrant:
        if "players" in entrant:
            raise LeagueError("invalid", "Give players (user ids) or usernames, not both.")
        entrant = {**entrant, "players": ids_of(entrant["usernames"])}
        del entrant["usernames"]
    return with_seeding(entrant)


def _player(user: Any) -> str:
    user_id = user_id_of(user)
    if user_id is None:
        raise LeagueError("not_signed_in", "Sign in first.")
    return str(user_id)


def pin_rules(spec: object) -> dict[str, Any]:
    """The rule preset *version* a competition pins: name, version, overrides, snapshot."""
    if spec is None:
        spec = "standard"
    try:
        resolved = resolve(spec)
    except RulesError as error:
        raise LeagueError("bad_rules", str(error)) from None
    overrides = dict(spec) if isinstance(spec, Mapping) else {}
    overrides.pop("preset", None)
    return {
        "preset": resolved.preset_name,
        "version": resolved.preset_version,
        "overrides": overrides,
        "snapshot": resolved.rules.to_dict(),
    }


def create_competition(
    user: Any, spec: Mapping[str, Any], *, competition_id: str | None = None
) -> CompetitionState:
    """A new tournament or season; the creator is its first organiser."""
    organiser = user_id_of(user)
    if organiser is None:
        raise LeagueError("not_signed_in", "Sign in to create a competition.")
    if not isinstance(spec, Mapping):
        raise LeagueError("invalid", "A competition is an object of settings.")
    settings = dict(spec)
    rules = pin_rules(settings.pop("rules", None))
    extra = settings.pop("organisers", [])
    if not isinstance(extra, list) or not all(
        isinstance(u, int) and not isinstance(u, bool) for u in extra
    ):
        raise LeagueError("invalid", "organisers is a list of user ids.")
    cid = parse_id(competition_id) if competition_id else str(uuid.uuid4())
    organisers = [organiser, *[u for u in extra if u != organiser]]
    state, _, _ = execute(
        cid,
        lambda s: _create(s, cid, settings, organisers, rules, user),
        command_id="create",
    )
    return state


def _create(
    state: CompetitionState,
    cid: str,
    settings: Mapping[str, Any],
    organisers: list[int],
    rules: dict[str, Any],
    user: Any,
) -> list[Any]:
    if state.exists:
        raise LeagueError("competition_exists", "That competition exists already.")
    return decisions.decide_create(
        cid,
        settings,
        organisers=organisers,
        rules=rules,
        lots_seed=secrets.token_hex(16),
        actor=actor_of(user),
    )


def register_entrant(user: Any, competition_id: object, **entrant: Any) -> CompetitionState:
    """An organiser registers a partnership (its players by id, or by ``usernames``);
    without a ``rating`` it is seeded from the ratings projection (the partnership's team
    ordinal)."""
    entrant = _entrant_request(entrant)

    def decide(state: CompetitionState, _organiser_id: int) -> list[Any]:
        events = decisions.decide_register(
            state, now=timezone.now(), actor=actor_of(user), **entrant
        )
        check_entrant_players(entrant)  # last: the competition's own refusals come first
        return events

    return _as_organiser(user, competition_id, decide)


def propose_partnership(
    user: Any, competition_id: object, *, partner: object, name: object = ""
) -> tuple[CompetitionState, str]:
    player = _player(user)
    proposal_id = uuid.uuid4().hex[:16]

    def decide(state: CompetitionState) -> list[Any]:
        events = decisions.decide_propose(
            state,
            proposal_id=proposal_id,
            player=player,
            partner=str(partner) if isinstance(partner, int) else partner,
            name=name,
            now=timezone.now(),
            actor=actor_of(user),
        )
        users_of([str(partner) if isinstance(partner, int) else partner])
        return events

    return execute(competition_id, decide)[0], proposal_id


def confirm_partnership(user: Any, competition_id: object, proposal_id: object) -> CompetitionState:
    partner = _player(user)

    def decide(state: CompetitionState) -> list[Any]:
        proposal = state.proposals.get(str(proposal_id))
        rating = projected_rating([proposal.player, proposal.partner]) if proposal else None
        return decisions.decide_confirm(
            state,
            proposal_id=proposal_id,
            partner=partner,
            rating=rating or 0,
            now=timezone.now(),
            actor=actor_of(user),
        )

    return execute(competition_id, decide)[0]


def withdraw_entrant(
    user: Any, competition_id: object, entrant_id: object, reason: object = ""
) -> CompetitionState:
    return _as_organiser(
        user,
        competition_id,
        lambda state, _organiser_id: decisions.decide_withdraw(
            state, entrant_id=entrant_id, reason=reason, actor=actor_of(user)
        ),
    )


def late_join(user: Any, competition_id: object, **entrant: Any) -> CompetitionState:
    entrant = _entrant_request(entrant)

    def decide(state: CompetitionState, _organiser_id: int) -> list[Any]:
        events = decisions.decide_late_join(state, actor=actor_of(user), **entrant)
        check_entrant_players(entrant)
        return events

    return _as_organiser(user, competition_id, decide)


def substitute(
    user: Any, competition_id: object, entrant_id: object, *, player_out: object, player_in: object
) -> CompetitionState:
    def decide(state: CompetitionState, _organiser_id: int) -> list[Any]:
        events = decisions.decide_substitute(
            state,
            entrant_id=entrant_id,
            player_out=player_out,
            player_in=player_in,
            actor=actor_of(user),
        )
        users_of([player_in])
        return events

    return _as_organiser(user, competition_id, decide)


def check_in(user: Any, competition_id: object, entrant_id: object) -> CompetitionState:
    """An organiser, or one of the entrant's players, checks the entrant in for the next round."""

    def decide(state: CompetitionState) -> list[Any]:
        entrant = state.entrants.get(str(entrant_id))
        me = str(user_id_of(user))
        if entrant is None or me not in state.players_in(entrant.id, state.last_round + 1):
            _organiser(state, user)
        return decisions.decide_check_in(state, entrant_id=entrant_id, actor=actor_of(user))

    return execute(competition_id, decide)[0]


# ---------------------------------------------------------------- rounds


def pair_next_round(
    user: Any, competition_id: object, *, round_number: int | None = None
) -> tuple[CompetitionState, int, bool]:
    """Pair the next round (a fresh secret seed, committed in ``RoundPaired``).

    Idempotent: asking for a ``round_number`` that is already paired returns it
    (``duplicate`` True) instead of pairing again.
    """
    current = load(competition_id)
    _organiser(current, user)
    if round_number is not None:
        if isinstance(round_number, bool) or not isinstance(round_number, int):
            raise LeagueError("invalid", "round is a whole number.")
        if current.paired_round(round_number) is not None:
            return current, round_number, True
        if round_number != current.last_round + 1:
            raise LeagueError(
                "unknown_round", f"The next round is {current.last_round + 1}, not {round_number}."
            )
    seed = new_seed()
    paired: dict[str, int] = {}

    def decide(state: CompetitionState) -> list[Any]:
        _organiser(state, user)
        events, number = decisions.decide_pair(state, seed=seed, actor=actor_of(user))
        paired["round"] = number
        return events

    def keep_seed(state: CompetitionState, stored: list[Any]) -> None:
        data = stored[0].data
        PairingSecret.objects.create(
            competition_id=state.competition_id,
            round=data["round"],
            seed=seed,
            commitment=data["commitment"],
        )

    number = current.last_round + 1

    def after(state: CompetitionState, stored: list[Any]) -> None:
        keep_seed(state, stored)
        # A round of byes and withdrawal forfeits closes as it is paired; it may be the last.
        finish_if_complete(state, actor_of(user))

    state, _, duplicate = execute(competition_id, decide, command_id=f"pair:{number}", after=after)
    return state, paired.get("round", number), duplicate


def seed_of(competition_id: str, round_number: int) -> str | None:
    return (
        PairingSecret.objects.filter(competition_id=competition_id, round=round_number)
        .values_list("seed", flat=True)
        .first()
    )


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


def record_result(
    user: Any,
    competition_id: object,
    *,
    round_number: object,
    board: object,
    points: Mapping[str, Any] | None = None,
    winner: object = None,
    scoresheet: object = None,
) -> CompetitionState:
    """An organiser's result: game points and winner, or a scoresheet in the calculator's
    format scored under the competition's pinned rules (it then counts the same)."""
    cid = parse_id(competition_id)
    hands = None
    sheet = None
    if scoresheet is not None:
        state0 = load(cid)
        _organiser(state0, user)
        points, winner, hands, sheet = score_match_sheet(state0, scoresheet)
    source = "scoresheet" if sheet is not None else "organiser"

    def decide(state: CompetitionState, organiser: int) -> list[Any]:
        seed = seed_of(cid, round_number) if isinstance(round_number, int) else None
        return decisions.decide_result(
            state,
            round_number=round_number,
            board=board,
            points=points,
            winner=winner,
            source=source,
            seed=seed,
            actor=actor_of(user),
            scoresheet=sheet,
            hands=hands,
            organiser=organiser,
        )

    return _as_organiser(user, cid, decide, finish=True)


def score_match_sheet(
    state: CompetitionState, scoresheet: object
) -> tuple[dict[str, int], str | None, int, dict[str, Any]]:
    """Score a scoresheet under the competition's rules: (points, winner, hands, sheet)."""
    if not isinstance(scoresheet, Mapping) or not isinstance(scoresheet.get("hands"), list):
        raise LeagueError("bad_scoresheet", 'A scoresheet is {"hands": [...]} (docs/formats.md).')
    hands_raw = scoresheet["hands"]
    if len(hands_raw) > MAX_SCORESHEET_HANDS:
        raise LeagueError("bad_scoresheet", f"At most {MAX_SCORESHEET_HANDS} hands.")
    snapshot = state.config["rules"]["snapshot"]
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
    fixed = state.config["match_format"]["fixed_hands"]
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
    user: Any,
    competition_id: object,
    *,
    round_number: object,
    board: object,
    forfeited_by: object,
    no_show: bool = False,
    reason: object = "",
) -> CompetitionState:
    cid = parse_id(competition_id)

    def decide(state: CompetitionState, organiser: int) -> list[Any]:
        return decisions.decide_forfeit(
            state,
            round_number=round_number,
            board=board,
            forfeited_by=forfeited_by,
            no_show=bool(no_show),
            reason=reason,
            seed=seed_of(cid, round_number) if isinstance(round_number, int) else None,
            organiser=organiser,
            actor=actor_of(user),
        )

    return _as_organiser(user, cid, decide, finish=True)


def correct_result(
    user: Any,
    competition_id: object,
    result_id: object,
    *,
    points: Mapping[str, Any] | None,
    winner: object,
    reason: object,
    forfeited_by: object = None,
) -> CompetitionState:
    return _as_organiser(
        user,
        competition_id,
        lambda state, organiser: decisions.decide_correct(
            state,
            result_id=result_id,
            points=points,
            winner=winner,
            forfeited_by=forfeited_by,
            reason=reason,
            organiser=organiser,
            actor=actor_of(user),
        ),
    )


def advance_stage(user: Any, competition_id: object) -> CompetitionState:
    return _as_organiser(
        user,
        competition_id,
        lambda state, _organiser_id: decisions.decide_advance(state, actor=actor_of(user)),
    )


def events_of(competition_id: object) -> list[Any]:
    return read_stream(ev.competition_stream_id(parse_id(competition_id)))


__all__ = [
    "advance_stage",
    "check_in",
    "confirm_partnership",
    "correct_result",
    "create_competition",
    "late_join",
    "pair_next_round",
    "propose_partnership",
    "record_forfeit",
    "record_result",
    "record_table_result",
    "record_table_results",
    "TableResult",
    "register_entrant",
    "substitute",
    "withdraw_entrant",
]
