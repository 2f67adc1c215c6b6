"""Stages: a competition as a sequence of formats, e.g. 5 Swiss rounds then a top-8 knockout.

Each stage but the last says how many entrants ``advance``: the first ``advance``
entrants of the standings at the end of the stage (withdrawn entrants skipped), in
standings order, which seeds the next stage (a knockout then uses that order as its
manual seeding: the stage winner is seed 1).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from . import round_robin
from .errors import LeagueError
from .knockout import MAX_KNOCKOUT_ENTRANTS, bracket_size
from .standings import Standings

StageKind = Literal["swiss", "round_robin", "knockout"]
STAGE_KINDS: tuple[StageKind, ...] = ("swiss", "round_robin", "knockout")
MAX_STAGES = 8
MAX_SWISS_ROUNDS = 64


@dataclass(frozen=True, slots=True)
class Stage:
    """One stage: its format, its round count (Swiss), who advances, and knockout options.

    ``rounds`` is the Swiss round count; a round robin has as many rounds as its
    schedule (twice with ``double``), and a knockout as many as its bracket needs.
    """

    kind: StageKind
    rounds: int = 0
    advance: int | None = None
    double: bool = False
    reset: bool = False

    def as_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "rounds": self.rounds,
            "advance": self.advance,
            "double": self.double,
            "reset": self.reset,
        }


def check_stages(stages: Sequence[Stage]) -> tuple[Stage, ...]:
    """The stages, checked: a knockout only last, an ``advance`` on every other stage."""
    checked = tuple(stages)
    if not 1 <= len(checked) <= MAX_STAGES:
        raise LeagueError("bad_stages", f"A competition has 1 to {MAX_STAGES} stages.")
    previous_advance: int | None = None
    for number, stage in enumerate(checked, start=1):
        where = f"stage {number}"
        if stage.kind not in STAGE_KINDS:
            raise LeagueError(
                "bad_stages",
                f"{where}: kind {stage.kind!r} is not one of {', '.join(STAGE_KINDS)}.",
            )
        last = number == len(checked)
        if stage.kind == "swiss" and not 1 <= stage.rounds <= MAX_SWISS_ROUNDS:
            raise LeagueError(
                "bad_stages", f"{where}: a Swiss stage has 1 to {MAX_SWISS_ROUNDS} rounds."
            )
        if stage.kind == "knockout" and not last:
            raise LeagueError("bad_stages", f"{where}: a knockout can only be the last stage.")
        if stage.reset and not (stage.kind == "knockout" and stage.double):
            raise LeagueError(
                "bad_stages", f"{where}: a grand-final reset needs a double-elimination knockout."
            )
        if last and stage.advance is not None:
            raise LeagueError("bad_stages", f"{where}: the last stage advances nobody.")
        if not last:
            if stage.advance is None or not 2 <= stage.advance <= MAX_KNOCKOUT_ENTRANTS:
                raise LeagueError(
                    "bad_stages",
                    f"{where}: say how many entrants advance (2 to {MAX_KNOCKOUT_ENTRANTS}).",
                )
            if previous_advance is not None and stage.advance >= previous_advance:
                raise LeagueError(
                    "bad_stages",
                    f"{where}: each stage advances fewer entrants than the one before.",
                )
            previous_advance = stage.advance
    return checked


def stage_rounds(stage: Stage, entrant_count: int) -> int:
    """How many rounds ``stage`` has for ``entrant_count`` entrants."""
    if stage.kind == "swiss":
        return stage.rounds
    if stage.kind == "round_robin":
        return round_robin.rounds_needed(entrant_count, stage.double)
    levels = bracket_size(entrant_count).bit_length() - 1
    if not stage.double:
        return levels
    # Winners' rounds interleave with the losers' ones: at most 2·levels rounds,
    # plus the grand final (and its reset).
    return 2 * levels + (1 if stage.reset else 0)


def advancing(standings: Standings, count: int) -> list[str]:
    """The first ``count`` entrants of the table that have not withdrawn, in order."""
    chosen = [row.entrant for row in standings.rows if not row.withdrawn][:count]
    if len(chosen) < count:
        raise LeagueError(
            "too_few_to_advance",
            f"{count} entrants should advance but only {len(chosen)} are still in.",
        )
    return chosen
