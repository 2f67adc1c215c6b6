"""The checks every decision starts with: the competition exists, the caller organises
it, the entrant or round named is one of its own."""

from __future__ import annotations

from leagues.core.entrants import Entrant

from ..parsing import refuse
from ..settings import CompetitionSettings
from ..state import CompetitionState


def require(state: CompetitionState) -> CompetitionSettings:
    """The competition's settings; ``unknown_competition`` when there is none."""
    if state.settings is None:
        raise refuse("unknown_competition", "There is no such competition.")
    return state.settings


def require_organiser(state: CompetitionState, user_id: int | None) -> CompetitionSettings:
    """Only the competition's organisers write (staff are not organisers by default)."""
    settings = require(state)
    if user_id is None or user_id not in settings.organisers:
        raise refuse("not_organiser", "Only this competition's organisers can do that.")
    return settings


def known_entrant(state: CompetitionState, entrant_id: str) -> Entrant:
    """An entered entrant of this competition (an invitation is not one yet)."""
    entrant = state.entrants.get(entrant_id)
    if entrant is None:
        if entrant_id in state.invitations:
            raise refuse(
                "not_entered",
                f"{entrant_id!r} is invited and not entered yet: its players have not all "
                "accepted.",
            )
        raise refuse("unknown_entrant", f"{entrant_id!r} is not an entrant of this competition.")
    return entrant


def paired_round(state: CompetitionState, number: object) -> int:
    """The number of a round that has been paired (``unknown_round`` otherwise)."""
    if (
        isinstance(number, bool)
        or not isinstance(number, int)
        or state.paired_round(number) is None
    ):
        raise refuse("unknown_round", f"Round {number!r} has not been paired.")
    return number
