"""Pairing a round: a fresh secret seed, committed in ``RoundPaired`` and kept beside the
stream until the round closes. Starting a round is :mod:`.tables`; arriving at a table
and no-shows, :mod:`.presence`."""

from __future__ import annotations

from typing import Any

from leagues.core.commitment import new_seed
from leagues.core.errors import LeagueError
from leagues.domain import decisions
from leagues.domain.state import CompetitionState

from .pairing_secrets import keep_seed
from .results import finish_if_complete
from .streams import actor_of, execute, load, user_id_of


def pair_next_round(
    user: Any, competition_id: object, *, round_number: int | None = None
) -> tuple[CompetitionState, int, bool]:
    """Pair the next round (a fresh secret seed, committed in ``RoundPaired``).

    Idempotent: asking for a ``round_number`` that is already paired returns it
    (``duplicate`` True) instead of pairing again.
    """
    current = load(competition_id)
    decisions.require_organiser(current, user_id_of(user))
    if round_number is not None:
        if current.paired_round(round_number) is not None:
            return current, round_number, True
        if round_number != current.last_round + 1:
            raise LeagueError(
                "unknown_round", f"The next round is {current.last_round + 1}, not {round_number}."
            )
    seed = new_seed()
    paired: dict[str, int] = {}

    def decide(state: CompetitionState) -> list[Any]:
        decisions.require_organiser(state, user_id_of(user))
        events, number = decisions.decide_pair(state, seed=seed, actor=actor_of(user))
        paired["round"] = number
        return events

    def after(state: CompetitionState, stored: list[Any]) -> None:
        data = stored[0].data
        keep_seed(state.competition_id, data["round"], seed, data["commitment"])
        # A round of byes and withdrawal forfeits closes as it is paired; it may be the last.
        finish_if_complete(state, actor_of(user))

    number = current.last_round + 1
    state, _, duplicate = execute(competition_id, decide, command_id=f"pair:{number}", after=after)
    return state, paired.get("round", number), duplicate
