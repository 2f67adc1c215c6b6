"""A competition's whole state as plain values, and the input of its next round.

The Django projection and the competition file reader both build a
:class:`Competition`; the standings, the next round's engine input and its pairing
come from here, so a file and the platform always agree.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from . import knockout, round_robin, swiss
from .commitment import commitment, derive
from .duplicate.session import DuplicateState
from .entrants import Entrant
from .errors import LeagueError
from .pairings import ForbiddenPair, RoundPairing, histories
from .results import Award, MatchFormat, MatchPoints, MatchResult, effective_results
from .stages import Stage, advancing
from .standings import StalePairing, Standings, compute_standings, stale_pairings
from .tiebreaks import DEFAULT_TIEBREAKS


@dataclass(frozen=True, slots=True)
class Settings:
    """What a competition pins at creation."""

    id: str
    name: str = ""
    stages: tuple[Stage, ...] = (Stage("swiss", rounds=5),)
    match_points: MatchPoints = field(default_factory=MatchPoints)
    match_format: MatchFormat = field(default_factory=MatchFormat)
    tiebreaks: tuple[str, ...] = DEFAULT_TIEBREAKS
    lots_seed: str = ""
    round_robin_order: str = "lots"
    knockout_seeding: str = "rating"


@dataclass(frozen=True, slots=True)
class PairedRound:
    """A published round: its pairing, the engine input and commitment, and the
    results version it was paired from; ``seed`` is ``None`` until revealed."""

    pairing: RoundPairing
    stage: int
    input: dict[str, Any]
    commitment: str
    results_version: int
    seed: str | None = None

    @property
    def number(self) -> int:
        return self.pairing.number


@dataclass(frozen=True, slots=True)
class Competition:
    """``forbidden``: the pairs the organiser forbade to meet (sorted ids), as of the
    next round to pair (a Swiss round's input carries those of its field; a knockout
    stage's every round, those its first round was drawn with)."""

    settings: Settings
    entrants: tuple[Entrant, ...]
    rounds: tuple[PairedRound, ...] = ()
    results: tuple[MatchResult, ...] = ()
    awards: tuple[Award, ...] = ()
    #: A duplicate competition's boards, seatings and board results (None: matches).
    duplicate: DuplicateState | None = None
    forbidden: tuple[ForbiddenPair, ...] = ()

    def standings(
        self, tiebreaks: Sequence[str] | None = None, through_round: int | None = None
    ) -> Standings:
        return compute_standings(
            self.entrants,
            self.results,
            self.awards,
            self.settings.match_points,
            self.settings.tiebreaks if tiebreaks is None else tiebreaks,
            self.settings.lots_seed,
            through_round,
        )

    def stale_pairings(self) -> list[StalePairing]:
        """The rounds paired from a result that a later correction replaced."""
        return stale_pairings(self.results, [(r.number, r.results_version) for r in self.rounds])

    def stage_entrants(self, stage: int) -> list[str]:
        """Who plays in ``stage`` (0-based): every entrant but those withdrawn before
        round 1 (they are in no round at all), or those the stage before advanced."""
        if stage == 0:
            return [e.id for e in self.entrants if e.withdrawn_after_round != 0]
        last_round = max(r.number for r in self.rounds if r.stage == stage - 1)
        count = self.settings.stages[stage - 1].advance or 0
        return advancing(self.standings(through_round=last_round), count)

    def knockout_winners(self, stage: int) -> dict[str, str]:
        """Bracket match id -> winner, from the results of the stage's rounds."""
        by_board = {(r.round, r.board): r for r in effective_results(self.results)}
        winners: dict[str, str] = {}
        for paired in self.rounds:
            if paired.stage != stage:
                continue
            for pairing in paired.pairing.matches:
                result = by_board.get((paired.number, pairing.board))
                if result is not None and result.winner is not None:
                    winners[pairing.match] = result.entrant(result.winner)
        return winners

    def next_stage(self) -> int:
        """The stage the next round belongs to (``len(stages)`` when all are done)."""
        if not self.rounds:
            return 0
        stage = self.rounds[-1].stage
        spec = self.settings.stages[stage]
        played = sum(1 for r in self.rounds if r.stage == stage)
        entrants = self._drawn_entrants(stage)
        if spec.kind == "swiss":
            finished = played >= spec.rounds
        elif spec.kind == "round_robin":
            finished = played >= round_robin.rounds_needed(len(entrants), spec.double)
        else:
            finished = self._bracket_state(stage).champion is not None
        return stage + 1 if finished else stage

    def _bracket_state(self, stage: int) -> knockout.BracketState:
        return self.bracket(stage)[1]

    def bracket(self, stage: int) -> tuple[knockout.Bracket, knockout.BracketState]:
        """A knockout stage's bracket and where it stands, as its rounds were derived:
        in seed order (not the entrants' order), from the stage's drawn entrants."""
        return knockout.drawn_bracket(self.next_round_input(stage, 0), self.settings.lots_seed)

    def _drawn_entrants(self, stage: int) -> list[str]:
        """The entrants of a schedule drawn once (a round robin, a knockout bracket): those
        of the stage's first round's input once it is paired, so that a later change to
        who enters a stage never redraws a schedule in play."""
        first = next((r for r in self.rounds if r.stage == stage), None)
        drawn = None if first is None else first.input.get("entrants")
        if self.settings.stages[stage].kind == "swiss" or not isinstance(drawn, list) or not drawn:
            return self.stage_entrants(stage)
        return [str(entry["id"]) if isinstance(entry, dict) else str(entry) for entry in drawn]

    def next_round_input(
        self, stage: int, round_number: int, version: int | None = None
    ) -> dict[str, Any]:
        """The engine input document of round ``round_number`` in ``stage`` (a Swiss or
        knockout round's for engine version ``version``, the current one by default: an
        old round's own when its input is rebuilt to verify it)."""
        spec = self.settings.stages[stage]
        entrant_ids = self._drawn_entrants(stage)
        ratings = {e.id: e.rating for e in self.entrants}
        if spec.kind == "knockout":
            seeding = "manual" if stage > 0 else self.settings.knockout_seeding
            opening = next((r for r in self.rounds if r.stage == stage), None)
            drawn_with = self.forbidden if opening is None else opening.input.get("forbidden", [])
            return knockout.canonical_input(
                round_number,
                entrant_ids,
                ratings,
                self.knockout_winners(stage),
                spec.double,
                spec.reset,
                seeding,
                lots_seed=self.settings.lots_seed,
                version=version,
                forbidden=drawn_with,
            )
        if spec.kind == "round_robin":
            first = min((r.number for r in self.rounds if r.stage == stage), default=round_number)
            return round_robin.canonical_input(
                round_number,
                entrant_ids,
                spec.double,
                self.settings.round_robin_order,
                first_round=first,
                lots_seed=self.settings.lots_seed,
            )
        by_id = {e.id: e for e in self.entrants}
        active = [e for e in entrant_ids if by_id[e].active_in(round_number)]
        table = self.standings(through_round=round_number - 1)
        scores = {row.entrant: row.match_points for row in table.rows}
        field_ = swiss.swiss_entrants(
            {e: scores[e] for e in active}, ratings, histories(r.pairing for r in self.rounds)
        )
        return swiss.canonical_input(round_number, field_, version, self.forbidden)


def pair_next_round(competition: Competition, seed: str) -> PairedRound:
    """Pair the competition's next round under ``seed``: input, commitment and pairing."""
    if competition.rounds:
        previous = competition.rounds[-1].number
        paired = {p.north_south for p in competition.rounds[-1].pairing.matches}
        reported = {
            r.north_south for r in effective_results(competition.results) if r.round == previous
        }
        if not paired <= reported:
            raise LeagueError(
                "round_not_closed",
                f"Round {previous} still has matches without a result; close it first.",
            )
    stage = competition.next_stage()
    if stage >= len(competition.settings.stages):
        raise LeagueError("competition_finished", "Every stage of the competition is complete.")
    number = 1 + (competition.rounds[-1].number if competition.rounds else 0)
    document = competition.next_round_input(stage, number)
    pairing = derive(seed, document)
    version = max(
        [r.sequence for r in competition.results] + [a.sequence for a in competition.awards],
        default=0,
    )
    return PairedRound(pairing, stage, document, commitment(seed, document), version, seed)
