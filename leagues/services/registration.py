"""Registration use cases: who plays in a competition, and only with their consent.

An organiser registers (or late-joins) a partnership; each player it names but the
organiser is invited and answers for themself (accept, decline), and only a partnership
whose two players have accepted is entered. A player may propose a partnership (entered
when the partner confirms), leave, and check their entrant in. Withdrawal and
substitution are the organisers'.
"""

from __future__ import annotations

import uuid
from typing import Any

from django.utils import timezone

from leagues.core.errors import LeagueError
from leagues.domain import decisions
from leagues.domain.decisions import (
    EntrantRequest,
    ProposalRequest,
    ReasonRequest,
    SubstitutionRequest,
)
from leagues.domain.state import CompetitionState
from leagues.selectors.players import check_entrant_players, ids_of, users_of

from .quotas import check_new_entrant, check_new_proposal
from .seeding import projected_rating, with_seeding
from .streams import actor_of, as_organiser, execute, user_id_of


def _player(user: Any) -> str:
    user_id = user_id_of(user)
    if user_id is None:
        raise LeagueError("not_signed_in", "Sign in first.")
    return str(user_id)


def _resolved(request: EntrantRequest) -> EntrantRequest:
    """``usernames`` (what an organiser types) become the players' ids; resolved before
    anything is appended, so an unknown username writes nothing."""
    if request.usernames is not None:
        first, second = ids_of(list(request.usernames))
        request = request.with_players((first, second))
    return request


def register_entrant(
    user: Any, competition_id: object, request: EntrantRequest
) -> CompetitionState:
    """An organiser registers a partnership (its players by id, or by ``usernames``);
    without a ``rating`` it is seeded from the ratings (the competition's pool). Each
    player it names but the organiser is invited: it is entered when both have accepted."""
    request = _resolved(request)
    registrar = str(user_id_of(user))

    def decide(state: CompetitionState, _organiser: int) -> list[Any]:
        events = decisions.decide_register(
            state,
            with_seeding(state, request),
            registrar=registrar,
            now=timezone.now(),
            actor=actor_of(user),
        )
        # Last: the competition's own refusals come first.
        check_entrant_players(request.players or (), request.reserve)
        check_new_entrant(state)
        return events

    return as_organiser(user, competition_id, decide)


def late_join(user: Any, competition_id: object, request: EntrantRequest) -> CompetitionState:
    """A late entrant (an organiser's): invited like a registration, playing from the
    round after its players have all accepted."""
    request = _resolved(request)
    registrar = str(user_id_of(user))

    def decide(state: CompetitionState, _organiser: int) -> list[Any]:
        events = decisions.decide_late_join(
            state, with_seeding(state, request), registrar=registrar, actor=actor_of(user)
        )
        check_entrant_players(request.players or (), request.reserve)
        check_new_entrant(state)
        return events

    return as_organiser(user, competition_id, decide)


def accept_invitation(user: Any, competition_id: object, entrant_id: str) -> CompetitionState:
    """The signed-in player agrees to play for ``entrant_id`` (as a player, its reserve or
    a substitute)."""
    player = _player(user)
    return execute(
        competition_id,
        lambda state: decisions.decide_accept(
            state, entrant_id=entrant_id, player=player, actor=actor_of(user)
        ),
    )[0]


def decline_invitation(
    user: Any, competition_id: object, entrant_id: str, request: ReasonRequest
) -> CompetitionState:
    """The signed-in player refuses to play for ``entrant_id`` (never entered)."""
    player = _player(user)
    return execute(
        competition_id,
        lambda state: decisions.decide_decline(
            state, entrant_id=entrant_id, player=player, reason=request.reason, actor=actor_of(user)
        ),
    )[0]


def leave_competition(
    user: Any, competition_id: object, request: ReasonRequest
) -> CompetitionState:
    """The signed-in player leaves: their invitation declined, or their entrant withdrawn."""
    player = _player(user)
    return execute(
        competition_id,
        lambda state: decisions.decide_leave(
            state, player=player, reason=request.reason, actor=actor_of(user)
        ),
    )[0]


def propose_partnership(
    user: Any, competition_id: object, request: ProposalRequest
) -> tuple[CompetitionState, str]:
    player = _player(user)
    proposal_id = uuid.uuid4().hex[:16]

    def decide(state: CompetitionState) -> list[Any]:
        events = decisions.decide_propose(
            state,
            request,
            proposal_id=proposal_id,
            player=player,
            now=timezone.now(),
            actor=actor_of(user),
        )
        users_of([request.partner])
        check_new_proposal(state, player)
        return events

    return execute(competition_id, decide)[0], proposal_id


def confirm_partnership(user: Any, competition_id: object, proposal_id: str) -> CompetitionState:
    partner = _player(user)

    def decide(state: CompetitionState) -> list[Any]:
        proposal = state.proposals.get(proposal_id)
        rating = projected_rating(state, [proposal.player, proposal.partner]) if proposal else None
        events = decisions.decide_confirm(
            state,
            proposal_id=proposal_id,
            partner=partner,
            rating=rating or 0,
            now=timezone.now(),
            actor=actor_of(user),
        )
        check_new_entrant(state)
        return events

    return execute(competition_id, decide)[0]


def withdraw_entrant(
    user: Any, competition_id: object, entrant_id: str, request: ReasonRequest
) -> CompetitionState:
    return as_organiser(
        user,
        competition_id,
        lambda state, _organiser: decisions.decide_withdraw(
            state, entrant_id=entrant_id, reason=request.reason, actor=actor_of(user)
        ),
    )


def substitute(
    user: Any, competition_id: object, entrant_id: str, request: SubstitutionRequest
) -> CompetitionState:
    if request.username_in is not None:
        [player_in] = ids_of([request.username_in], field="username_in", count=1)
        request = request.with_player_in(player_in)

    def decide(state: CompetitionState, _organiser: int) -> list[Any]:
        events = decisions.decide_substitute(
            state, entrant_id=entrant_id, request=request, actor=actor_of(user)
        )
        users_of([request.player_in])
        return events

    return as_organiser(user, competition_id, decide)


def check_in(user: Any, competition_id: object, entrant_id: str) -> CompetitionState:
    """An organiser, or one of the entrant's players, checks the entrant in for the next round."""

    def decide(state: CompetitionState) -> list[Any]:
        entrant = state.entrants.get(entrant_id)
        me = str(user_id_of(user))
        if entrant is None or me not in state.players_in(entrant.id, state.last_round + 1):
            decisions.require_organiser(state, user_id_of(user))
        return decisions.decide_check_in(state, entrant_id=entrant_id, actor=actor_of(user))

    return execute(competition_id, decide)[0]
