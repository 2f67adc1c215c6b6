"""Standings: a pure function from entrants and results to the ordered table.

Order: match points, then each declared tie-break in turn among the entrants still
tied, then the seeded draw of lots, so no two entrants ever share a place and the
same results always give the same table, whatever order they arrive in.  Corrections
are applied first (:func:`leagues.core.results.effective_results`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from .entrants import Entrant
from .errors import LeagueError
from .lots import lot
from .results import Award, MatchPoints, MatchResult, effective_results
from .tiebreaks import (
    DEFAULT_TIEBREAKS,
    HEAD_TO_HEAD,
    LOTS,
    Tally,
    check_tiebreaks,
    global_values,
    head_to_head,
)


@dataclass(frozen=True, slots=True)
class StandingsRow:
    """One line of the table; ``tiebreaks`` holds each declared tie-break's value
    (``head_to_head`` only where it was computed for a tied group, else ``None``)."""

    rank: int
    entrant: str
    match_points: int
    game_points: int
    game_points_against: int
    point_differential: int
    played: int
    wins: int
    draws: int
    losses: int
    byes: int
    withdrawn: bool
    tiebreaks: dict[str, int | None]

    def as_dict(self) -> dict[str, Any]:
        return {
            "rank": self.rank,
            "entrant": self.entrant,
            "match_points": self.match_points,
            "game_points": self.game_points,
            "game_points_against": self.game_points_against,
            "point_differential": self.point_differential,
            "played": self.played,
            "wins": self.wins,
            "draws": self.draws,
            "losses": self.losses,
            "byes": self.byes,
            "withdrawn": self.withdrawn,
            "tiebreaks": dict(self.tiebreaks),
        }


@dataclass(frozen=True, slots=True)
class Standings:
    """The ordered table, the tie-breaks it used and the results version it reflects."""

    rows: tuple[StandingsRow, ...]
    tiebreaks: tuple[str, ...]
    results_version: int

    def order(self) -> list[str]:
        """Entrant ids, first place first."""
        return [row.entrant for row in self.rows]

    def rank_of(self) -> dict[str, int]:
        return {row.entrant: row.rank for row in self.rows}

    def as_dict(self) -> dict[str, Any]:
        return {
            "tiebreaks": list(self.tiebreaks),
            "results_version": self.results_version,
            "rows": [row.as_dict() for row in self.rows],
        }


@dataclass(frozen=True, slots=True)
class StalePairing:
    """A round paired from a result that a later correction replaced."""

    round: int
    result: str
    corrected_by: str

    def as_dict(self) -> dict[str, Any]:
        return {"round": self.round, "result": self.result, "corrected_by": self.corrected_by}


def tally(
    entrants: Sequence[Entrant],
    results: Iterable[MatchResult],
    awards: Iterable[Award],
    points: MatchPoints,
    through_round: int | None = None,
) -> Tally:
    """The per-entrant figures of the effective results (up to ``through_round``)."""
    ids = [entrant.id for entrant in entrants]
    index_of = {entrant: index for index, entrant in enumerate(ids)}
    count = len(ids)
    table = Tally(
        ids=ids,
        match_points=[0] * count,
        game_points=[0] * count,
        game_points_against=[0] * count,
        wins=[0] * count,
        draws=[0] * count,
        losses=[0] * count,
        byes=[0] * count,
        played=[0] * count,
        rounds=[[] for _ in range(count)],
        meetings=[{} for _ in range(count)],
        as_opponent=[0] * count,
    )
    # A withdrawn entrant counts, as someone's opponent, with the match points it had
    # when it left: what its kept round-robin slots earn later (forfeit_loss) is left out.
    left_after = [entrant.withdrawn_after_round for entrant in entrants]
    as_opponent = table.as_opponent

    def still_in(index: int, round_number: int) -> bool:
        last = left_after[index]
        return last is None or round_number <= last

    mp, gf, ga = table.match_points, table.game_points, table.game_points_against
    wins, draws, losses, played = table.wins, table.draws, table.losses, table.played
    rounds, meetings = table.rounds, table.meetings
    counts = {"win": wins, "draw": draws, "loss": losses}
    for result in effective_results(results):
        if through_round is not None and result.round > through_round:
            continue
        north = index_of.get(result.north_south)
        east = index_of.get(result.east_west)
        if north is None or east is None:
            unknown = result.north_south if north is None else result.east_west
            raise LeagueError(
                "unknown_entrant", f"Result {result.id!r} names unknown entrant {unknown!r}."
            )
        # A forfeit loses with the forfeit value; a played loss with the loss value.
        lost = points.loss if result.forfeited_by is None else points.forfeit_loss
        worth = {"win": points.win, "draw": points.draw, "loss": lost}
        north_outcome, east_outcome = _outcomes(result)
        north_mp, east_mp = worth[north_outcome], worth[east_outcome]
        counts[north_outcome][north] += 1
        counts[east_outcome][east] += 1
        if result.forfeited_by is None:
            played[north] += 1
            played[east] += 1
            gf[north] += result.north_south_points
            ga[north] += result.east_west_points
            gf[east] += result.east_west_points
            ga[east] += result.north_south_points
            rounds[north].append((east, north_mp))
            rounds[east].append((north, east_mp))
        else:
            rounds[north].append((-1, north_mp))
            rounds[east].append((-1, east_mp))
        mp[north] += north_mp
        mp[east] += east_mp
        for side, earned in ((north, north_mp), (east, east_mp)):
            if still_in(side, result.round):
                as_opponent[side] += earned
        meetings[north][east] = meetings[north].get(east, 0) + north_mp
        meetings[east][north] = meetings[east].get(north, 0) + east_mp
    for award in awards:
        if through_round is not None and award.round > through_round:
            continue
        who = index_of.get(award.entrant)
        if who is None:
            raise LeagueError(
                "unknown_entrant", f"Award {award.id!r} names unknown entrant {award.entrant!r}."
            )
        value = points.award(award.kind)
        mp[who] += value
        if still_in(who, award.round):
            as_opponent[who] += value
        if award.kind == "bye":
            table.byes[who] += 1
        rounds[who].append((-1, value))
    return table


def _outcomes(result: MatchResult) -> tuple[str, str]:
    """Each side's outcome, North-South first: "win", "draw" or "loss".  A forfeiting side
    loses (both lose when both forfeit) and its opponent wins; a draw is a played match
    without a winner."""
    forfeit = result.forfeited_by
    if forfeit is None:
        if result.winner is None:
            return "draw", "draw"
        return ("win", "loss") if result.winner == "north_south" else ("loss", "win")
    if forfeit == "both":
        return "loss", "loss"
    return ("loss", "win") if forfeit == "north_south" else ("win", "loss")


def compute_standings(
    entrants: Sequence[Entrant],
    results: Iterable[MatchResult],
    awards: Iterable[Award] = (),
    points: MatchPoints | None = None,
    tiebreaks: Sequence[str] = DEFAULT_TIEBREAKS,
    lots_seed: str = "",
    through_round: int | None = None,
) -> Standings:
    """The ordered table (see the module docstring and docs/leagues.md)."""
    declared = check_tiebreaks(tiebreaks)
    results = list(results)
    awards = list(awards)
    table = tally(entrants, results, awards, points or MatchPoints(), through_round)
    count = len(table.ids)
    values: dict[str, list[int | None]] = {
        name: [None] * count for name in declared if name != LOTS
    }
    for name in values:
        if name != HEAD_TO_HEAD:
            values[name] = list(global_values(table, name))

    by_points = sorted(range(count), key=lambda i: -table.match_points[i])
    groups: list[list[int]] = _split(by_points, table.match_points)
    for name in declared:
        refined: list[list[int]] = []
        for group in groups:
            if len(group) == 1:
                refined.append(group)
                continue
            if name == LOTS:
                ids = table.ids
                group.sort(key=lambda i: (lot(lots_seed, LOTS, ids[i]), ids[i]))
                refined.extend([i] for i in group)
                continue
            if name == HEAD_TO_HEAD:
                scores = head_to_head(table, group)
                column = values[HEAD_TO_HEAD]
                for index, score in scores.items():
                    column[index] = score
                group.sort(key=lambda i: -scores[i])
                refined.extend(_split(group, scores))
                continue
            global_column = global_values(table, name)
            group.sort(key=lambda i: -global_column[i])
            refined.extend(_split(group, global_column))
        groups = refined

    withdrawn = {entrant.id for entrant in entrants if entrant.withdrawn_after_round is not None}
    rows = []
    for rank, (index,) in enumerate(groups, start=1):
        rows.append(
            StandingsRow(
                rank=rank,
                entrant=table.ids[index],
                match_points=table.match_points[index],
                game_points=table.game_points[index],
                game_points_against=table.game_points_against[index],
                point_differential=table.game_points[index] - table.game_points_against[index],
                played=table.played[index],
                wins=table.wins[index],
                draws=table.draws[index],
                losses=table.losses[index],
                byes=table.byes[index],
                withdrawn=table.ids[index] in withdrawn,
                tiebreaks={name: column[index] for name, column in values.items()},
            )
        )
    version = max(
        [result.sequence for result in results] + [award.sequence for award in awards],
        default=0,
    )
    return Standings(rows=tuple(rows), tiebreaks=declared, results_version=version)


def _split(ordered: list[int], key: Sequence[int] | dict[int, int]) -> list[list[int]]:
    """Consecutive runs of equal ``key`` in an already sorted list."""
    runs: list[list[int]] = []
    previous: int | None = None
    for index in ordered:
        value = key[index]
        if runs and value == previous:
            runs[-1].append(index)
        else:
            runs.append([index])
            previous = value
    return runs


def stale_pairings(
    results: Iterable[MatchResult], paired_from: Iterable[tuple[int, int]]
) -> list[StalePairing]:
    """Rounds paired from a result a later correction replaced.

    ``paired_from`` lists ``(round, results version)``: the round was paired after seeing
    every result with ``sequence <= version``.  A result with sequence ``s`` corrected
    by one with sequence ``c`` was used, uncorrected, by every round with
    ``s <= version < c``.  Nothing is re-paired: the report says which rounds those are.
    """
    by_id = {}
    corrections = []
    for result in results:
        by_id[result.id] = result
        if result.corrects is not None:
            corrections.append(result)
    rounds = sorted(paired_from)
    stale: list[StalePairing] = []
    for correction in sorted(corrections, key=lambda r: r.sequence):
        old = by_id.get(correction.corrects or "")
        if old is None:
            continue
        for round_number, version in rounds:
            if old.sequence <= version < correction.sequence:
                stale.append(StalePairing(round_number, old.id, correction.id))
    return sorted(stale, key=lambda s: (s.round, s.result))
