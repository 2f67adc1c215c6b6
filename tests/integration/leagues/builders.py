"""Leagues test builders shared by the integration and e2e tests and the benchmark: the
use cases called with plain fields (parsed into the typed requests exactly as the API
parses a body), entrants whose players accept their invitation, and organisers'
results that the players confirm."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.contrib.auth import get_user_model

from leagues.domain.decisions import (
    CompetitionSpec,
    CorrectionRequest,
    EntrantRequest,
    ForfeitRequest,
    ProposalRequest,
    ReasonRequest,
    SubstitutionRequest,
    parse_result_request,
)
from leagues.domain.league import LeagueSpec, SeasonRequest
from leagues.domain.state import CompetitionState
from leagues.services import competitions, leagues, match_results, registration, results, rounds
from leagues.services.streams import load

# The use cases that take no request body, as they are.
check_in = registration.check_in
confirm_partnership = registration.confirm_partnership
pair_next_round = rounds.pair_next_round
advance_stage = results.advance_stage
confirm_result = results.confirm_result
record_table_result = match_results.record_table_result
TableResult = match_results.TableResult
events_of = competitions.events_of


def user(player: str) -> Any:
    """The user of a player id."""
    return get_user_model().objects.get(pk=int(player))


def create_competition(
    organiser: Any, spec: Mapping[str, Any], *, competition_id: str | None = None
) -> CompetitionState:
    """A competition from its settings, as ``POST /api/competitions`` takes them."""
    return competitions.create_competition(
        organiser, CompetitionSpec.parse(spec), competition_id=competition_id
    )


def register(organiser: Any, cid: str, **fields: Any) -> CompetitionState:
    """The organiser registers an entrant: its players are invited, not entered yet."""
    return registration.register_entrant(organiser, cid, EntrantRequest.parse(fields))


def late_register(organiser: Any, cid: str, **fields: Any) -> CompetitionState:
    return registration.late_join(organiser, cid, EntrantRequest.parse(fields))


def accept_all(cid: str, entrant_id: str) -> CompetitionState:
    """Every player the entrant names whose answer is awaited accepts it."""
    state = load(cid)
    for player in state.awaiting(entrant_id):
        state = registration.accept_invitation(user(player), cid, entrant_id)
    return state


def enter(organiser: Any, cid: str, **fields: Any) -> CompetitionState:
    """Register an entrant and have its players accept: it is entered."""
    register(organiser, cid, **fields)
    return accept_all(cid, str(fields["entrant_id"]))


def late_join(organiser: Any, cid: str, **fields: Any) -> CompetitionState:
    """A late entrant whose players accept: it plays from the next round."""
    late_register(organiser, cid, **fields)
    return accept_all(cid, str(fields["entrant_id"]))


def withdraw_entrant(
    organiser: Any, cid: str, entrant_id: str, reason: str = ""
) -> CompetitionState:
    return registration.withdraw_entrant(organiser, cid, entrant_id, ReasonRequest(reason))


def substitute(organiser: Any, cid: str, entrant_id: str, **fields: Any) -> CompetitionState:
    return registration.substitute(organiser, cid, entrant_id, SubstitutionRequest.parse(fields))


def propose_partnership(user: Any, cid: str, **fields: Any) -> tuple[CompetitionState, str]:
    return registration.propose_partnership(user, cid, ProposalRequest.parse(fields))


def record_result(organiser: Any, cid: str, *, round_number: int, **body: Any) -> CompetitionState:
    """A result or a forfeit, as ``POST .../rounds/N/results`` takes it (``body``)."""
    request = parse_result_request(body)
    if isinstance(request, ForfeitRequest):
        return results.record_forfeit(organiser, cid, round_number, request)
    return results.record_result(organiser, cid, round_number, request)


record_forfeit = record_result


def correct_result(organiser: Any, cid: str, result_id: str, **body: Any) -> CompetitionState:
    return results.correct_result(organiser, cid, result_id, CorrectionRequest.parse(body))


def confirm_by_both_sides(cid: str, result_id: str) -> CompetitionState:
    """The first player of each side of a typed-in result confirms it."""
    state = load(cid)
    result = state.result_of(result_id)
    assert result is not None
    for side in ("north_south", "east_west"):
        first = state.players_in(result.entrant(side), result.round)[0]
        state = results.confirm_result(user(first), cid, result_id)
    return state


def create_league(organiser: Any, body: Mapping[str, Any]) -> dict[str, Any]:
    return leagues.create_league(organiser, LeagueSpec.parse(body))


def add_season(organiser: Any, league_id: str, body: Mapping[str, Any]) -> dict[str, Any]:
    return leagues.add_season(organiser, league_id, SeasonRequest.parse(body))
