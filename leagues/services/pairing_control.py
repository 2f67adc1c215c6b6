"""The organiser's control of the pairings: forbidden pairs and a round's override."""

from __future__ import annotations

from typing import Any

from leagues.domain import decisions
from leagues.domain.decisions import ForbiddenPairRequest, OverrideRequest
from leagues.domain.state import CompetitionState

from .streams import actor_of, as_organiser


def forbid_pair(
    user: Any, competition_id: object, request: ForbiddenPairRequest
) -> CompetitionState:
    """Keep two entrants apart in every round paired from now on."""
    return as_organiser(
        user,
        competition_id,
        lambda state, organiser: decisions.decide_forbid(
            state, request=request, organiser=organiser, actor=actor_of(user)
        ),
    )


def allow_pair(
    user: Any, competition_id: object, request: ForbiddenPairRequest
) -> CompetitionState:
    """Let two entrants kept apart meet again."""
    return as_organiser(
        user,
        competition_id,
        lambda state, organiser: decisions.decide_allow(
            state, request=request, organiser=organiser, actor=actor_of(user)
        ),
    )


def override_pairing(
    user: Any, competition_id: object, round_number: int, request: OverrideRequest
) -> CompetitionState:
    """Replace a paired Swiss round's pairing (before its tables open) with the
    organiser's."""
    return as_organiser(
        user,
        competition_id,
        lambda state, organiser: decisions.decide_override(
            state,
            round_number=round_number,
            request=request,
            organiser=organiser,
            actor=actor_of(user),
        ),
    )
