"""What a withdrawn entrant can still have: the checks the API and competition files share.

An entrant that withdrew after round ``w`` (``Entrant.withdrawn_after_round``) plays
nothing after it.  A result of a later round that names it can only be its forfeit (it
forfeits, or both sides do; its opponent wins): a played result, or a forfeit won by the
withdrawn side, is refused.  An entrant withdrawn before round 1 (``w = 0``) is in no
round at all: no engine pairs it, and a round that does is refused.  A round robin or a
knockout bracket drawn while it was still in keeps its slot, whose matches are its
forfeits (docs/leagues.md, Withdrawal).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from .entrants import Entrant
from .errors import LeagueError
from .results import SIDES, MatchResult


def check_result_after_withdrawal(result: MatchResult, entrants: Mapping[str, Entrant]) -> None:
    """Refuse (``played_after_withdrawal``) a result of a round after one of its sides
    withdrew, unless that side forfeits it."""
    for side in SIDES:
        entrant = entrants.get(result.entrant(side))
        if entrant is None or entrant.withdrawn_after_round is None:
            continue
        left = entrant.withdrawn_after_round
        if result.round <= left or result.forfeited_by in (side, "both"):
            continue
        what = "played" if result.forfeited_by is None else "won by forfeit"
        when = "before round 1" if left == 0 else f"after round {left}"
        raise LeagueError(
            "played_after_withdrawal",
            f"Entrant {entrant.id!r} withdrew {when}: its match in round "
            f"{result.round} cannot be {what}; only its forfeit can be recorded.",
        )


def check_pairing_after_withdrawal(
    round_number: int, paired: Iterable[str], entrants: Mapping[str, Entrant]
) -> None:
    """Refuse (``paired_after_withdrawal``) a round that pairs an entrant withdrawn before
    round 1."""
    for entrant_id in paired:
        entrant = entrants.get(entrant_id)
        if entrant is not None and entrant.withdrawn_after_round == 0:
            raise LeagueError(
                "paired_after_withdrawal",
                f"Entrant {entrant_id!r} withdrew before round 1, so round {round_number} "
                "cannot pair it.",
            )
