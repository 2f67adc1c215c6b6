"""What a withdrawal forbids: no entrant plays, or wins, after it has withdrawn.

An entrant with ``withdrawn_after_round`` = N played its last match in round N. A
result of a later round that involves it can only be its forfeit: a played result, or
a forfeit its opponent is charged with (which the withdrawn entrant would win), would
give it match points it never earned. A double forfeit (``both``) stays possible.
The API (a result, a forfeit, a correction) and the competition file reader refuse
such a result with the same check.
"""

from __future__ import annotations

from collections.abc import Mapping

from .entrants import Entrant
from .errors import LeagueError
from .results import SIDES, MatchResult


def check_result_after_withdrawal(result: MatchResult, entrants: Mapping[str, Entrant]) -> None:
    """Refuse (``played_after_withdrawal``) a result that has an entrant play, or win a
    forfeit, in a round after it withdrew; entrants not in ``entrants`` are not judged."""
    for side in SIDES:
        entrant = entrants.get(result.entrant(side))
        if entrant is None or entrant.withdrawn_after_round is None:
            continue
        if result.round <= entrant.withdrawn_after_round:
            continue
        if result.forfeited_by in (side, "both"):
            continue
        what = "played" if result.played else "won by forfeit"
        raise LeagueError(
            "played_after_withdrawal",
            f"Result {result.id!r}: {entrant.id!r} withdrew after round "
            f"{entrant.withdrawn_after_round}, so round {result.round} cannot be {what} "
            "by it; only its forfeit can be recorded.",
        )
