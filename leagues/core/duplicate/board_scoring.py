"""One board scored on its own, and compared with those who held the same cards.

**A board's score.** Each board is scored as the first hand of a game under the
competition's pinned preset (``scoring.core.hand_score.score_team`` from 0 to 0), with
one change: **each bag costs its share of the bag penalty at once**. Under a preset
with the bag penalty (every 10 bags cost 100) a bag scores ``+1 - 100/10 = -9``; without
it, ``+1``. Carrying bags from board to board would make a board's score depend on the
boards a table happened to play before it, which differ from table to table, so two
tables holding the same cards would not be scored alike; ignoring the penalty would make
bags free, which they are not in any game of the preset. Prorating charges each bag what
it costs on average over a long game, the same at every table. A nil is a nil of the
preset: ``+nil_points`` made, ``-nil_points`` failed, because a nil is settled within
the hand and carries nothing over; the nil bidder's tricks are bags as the preset says.
A board starts at 0 to 0, so **blind nil** is possible on a board only under rules with
``blind_nil_min_deficit`` 0 (nobody trails before the first hand); every table holding
the board is under the same condition. Target and losing scores do not apply.

A table's **net** on a board is North-South's board score minus East-West's: both sides
score in Spades, so what North-South did is what they made and what they stopped their
opponents making. East-West's net is its negative.

**Matchpoints** (the common duplicate scale): among the tables that held the board in
the same direction, each net scores 2 for every net it beats and 1 for every tie; the top
is ``2 (n - 1)``.

**The difference scale** (``imps``): the difference between a net and the *datum* (the
average net of the other tables in the field) converted by :data:`IMP_BANDS`. See the
table's own comment for the reasoning. A **team-of-four match** is scored board by board
on the difference between its two tables (a team's North-South net at one table plus its
East-West net at the other), converted the same way, and the team with more IMPs wins.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from games.engine.rules import Rules
from games.engine.seats import EAST_WEST, NORTH_SOUTH

# The arithmetic (a bag's cost on a board, 100 / 10) lives in scoring.core.board_score,
# which Hard's board search (hard-3) shares: bots may not import leagues.
from scoring.core.board_score import score_team_on_board, unpenalised
from scoring.core.hand_score import TeamHandScore

#: The difference scale. ``(lowest difference, IMPs)``: a difference of at least the first
#: number, and less than the next row's, is worth that many IMPs. Why these bands:
#: - 0-9 is 0: under one bid trick (10 points) a difference is bags alone, what the cards'
#:   distribution decides as often as the players do.
#: - 10 points, one bid trick, is the unit; the bands then widen by about a quarter each
#:   (10, 20, 30, 50, 70, 100, 130, 170, 220, 280, 350), i.e. IMPs grow roughly as the
#:   logarithm of the difference, as bridge's do: a swing of 200 points (a nil made at one
#:   table and failed at the other) is worth 8, not twenty times a single trick.
#: - capped at 12 from 450 points: past a double swing of a nil and a set (the largest
#:   swings a board gives in practice) one disaster board should not outweigh a session.
#: A typical game's boards give 0-6 IMPs, so a session's total reads like bridge's.
IMP_BANDS: tuple[tuple[int, int], ...] = (
    (0, 0),
    (10, 1),
    (20, 2),
    (30, 3),
    (50, 4),
    (70, 5),
    (100, 6),
    (130, 7),
    (170, 8),
    (220, 9),
    (280, 10),
    (350, 11),
    (450, 12),
)
MAX_IMPS = IMP_BANDS[-1][1]


@dataclass(frozen=True, slots=True)
class TeamBoardScore:
    """One side's score on a board: the preset's hand score without the bag penalty
    lump, less each bag's share of it."""

    hand: TeamHandScore
    bag_cost: int

    @property
    def points(self) -> int:
        return self.hand.hand_score - self.bag_cost

    def as_dict(self) -> dict[str, Any]:
        return {"points": self.points, "bag_cost": self.bag_cost, **self.hand.breakdown()}


@dataclass(frozen=True, slots=True)
class BoardScore:
    """Both sides' scores on one table's play of a board."""

    north_south: TeamBoardScore
    east_west: TeamBoardScore

    @property
    def net(self) -> int:
        """North-South's points minus East-West's."""
        return self.north_south.points - self.east_west.points

    def as_dict(self) -> dict[str, Any]:
        return {
            "north_south": self.north_south.as_dict(),
            "east_west": self.east_west.as_dict(),
            "net": self.net,
        }


def score_board(
    rules: Rules, bids: Sequence[int], blind: Sequence[bool], tricks: Sequence[int]
) -> BoardScore:
    """A board scored on its own (module docstring): bids, blind flags, tricks by seat."""
    lump_free = unpenalised(rules)
    sides = []
    for team in (NORTH_SOUTH, EAST_WEST):
        hand, cost = score_team_on_board(rules, team, bids, blind, tricks, lump_free)
        sides.append(TeamBoardScore(hand, cost))
    return BoardScore(sides[0], sides[1])


def matchpoints(nets: Sequence[int | Fraction]) -> list[int]:
    """2 for each net beaten, 1 for each tie, among nets of the same board and direction."""
    return [
        sum(2 if net > other else 1 if net == other else 0 for other in nets) - 1 for net in nets
    ]


def top(tables: int) -> int:
    """The most matchpoints a board gives in a field of ``tables``: ``2 (tables - 1)``."""
    return 2 * (tables - 1)


def imps(difference: int | Fraction) -> int:
    """The signed IMPs of a point difference (:data:`IMP_BANDS`)."""
    size = abs(Fraction(difference))
    value = 0
    for lowest, points in IMP_BANDS:
        if size >= lowest:
            value = points
    return value if difference >= 0 else -value


def datums(nets: Sequence[int | Fraction]) -> list[Fraction | None]:
    """Each table's datum: the average net of the *other* tables (None when alone).

    Its own net is left out so a result is compared with the field, not partly with
    itself (with two tables the datum is simply the other table's net).
    """
    total = sum(nets, Fraction(0))
    others = len(nets) - 1
    return [None if others == 0 else (total - Fraction(net)) / others for net in nets]


def imps_against_field(nets: Sequence[int | Fraction]) -> list[int]:
    """Each North-South net's IMPs against its datum (East-West's: the negative)."""
    return [
        0 if datum is None else imps(net - datum)
        for net, datum in zip(nets, datums(nets), strict=True)
    ]


@dataclass(frozen=True, slots=True)
class TravellerLine:
    """One table's result on a board, compared with the field that held the same cards."""

    table: int
    north_south: int
    east_west: int
    net: int
    matchpoints_ns: int
    matchpoints_ew: int
    imps_ns: int
    par_net: Fraction | None = None

    @property
    def imps_ew(self) -> int:
        return -self.imps_ns

    def as_dict(self) -> dict[str, Any]:
        return {
            "table": self.table,
            "north_south": self.north_south,
            "east_west": self.east_west,
            "net": self.net,
            "matchpoints": {"north_south": self.matchpoints_ns, "east_west": self.matchpoints_ew},
            "imps": {"north_south": self.imps_ns, "east_west": self.imps_ew},
            "imps_against_par": None if self.par_net is None else imps(self.net - self.par_net),
        }


def traveller(
    results: Sequence[tuple[int, int, int, int]], par_net: Fraction | None = None
) -> list[TravellerLine]:
    """A board's traveller from ``(table, north_south, east_west, net)`` per table.

    Every line is one field (same cards, same direction): in a Mitchell without the arrow
    switch, the North-South pairs of a board, and its East-West pairs on the same lines.
    """
    nets = [net for _, _, _, net in results]
    points = matchpoints(nets)
    ceiling = top(len(nets))
    differences = imps_against_field(nets)
    return [
        TravellerLine(table, ns, ew, net, mp, ceiling - mp, diff, par_net)
        for (table, ns, ew, net), mp, diff in zip(results, points, differences, strict=True)
    ]


@dataclass(frozen=True, slots=True)
class TeamMatchScore:
    """A team-of-four match: IMPs per board for team A (positive) or B (negative)."""

    board_imps: tuple[int, ...]

    @property
    def team_a(self) -> int:
        return sum(points for points in self.board_imps if points > 0)

    @property
    def team_b(self) -> int:
        return -sum(points for points in self.board_imps if points < 0)

    @property
    def winner(self) -> str | None:
        """``"a"``, ``"b"`` or None for a tie."""
        if self.team_a == self.team_b:
            return None
        return "a" if self.team_a > self.team_b else "b"


def team_match(boards: Sequence[tuple[int, int]]) -> TeamMatchScore:
    """Score a team-of-four match from each board's ``(net at A's North-South table,
    net at A's East-West table)``: team A's difference is the first minus the second."""
    return TeamMatchScore(tuple(imps(first - second) for first, second in boards))


#: The two directions a board is held in, as a traveller names them.
DIRECTIONS = ("north_south", "east_west")


@dataclass(frozen=True, slots=True)
class WouldRank:
    """Where one more play of a board would have ranked among the field that played it
    ("Play this board again", docs/leagues.md): the field is left as it was, and this
    result is compared with every one of its tables from the same direction."""

    direction: str
    net: int
    tables: int
    place: int
    matchpoints: int
    imps: int
    imps_against_par: int | None

    @property
    def top(self) -> int:
        """The most this result could score: 2 for each table of the field."""
        return 2 * self.tables

    def as_dict(self) -> dict[str, Any]:
        return {
            "direction": self.direction,
            "net": self.net,
            "tables": self.tables,
            "place": self.place,
            "matchpoints": self.matchpoints,
            "top": self.top,
            "imps": self.imps,
            "imps_against_par": self.imps_against_par,
        }


def would_rank(
    field_nets: Sequence[int], net: int, direction: str, par_net: Fraction | None = None
) -> WouldRank:
    """Rank ``net`` (North-South's points minus East-West's on this play, as every net)
    for the side that held ``direction`` against ``field_nets`` (the round's tables' nets
    on the same board): matchpoints 2 for each field result beaten and 1 for each tie (out
    of ``2 * tables``), IMPs against the field's average net (the datum, this play not in
    it), IMPs against par, and the place it would have taken (1 + the results better)."""
    if direction not in DIRECTIONS:
        raise ValueError(f"direction is one of {', '.join(DIRECTIONS)}, not {direction!r}.")
    sign = 1 if direction == "north_south" else -1
    own = sign * net
    field = [sign * other for other in field_nets]
    points = sum(2 if own > other else 1 if own == other else 0 for other in field)
    datum = Fraction(sum(field), len(field)) if field else None
    return WouldRank(
        direction=direction,
        net=own,
        tables=len(field),
        place=1 + sum(1 for other in field if other > own),
        matchpoints=points,
        imps=0 if datum is None else imps(own - datum),
        imps_against_par=None if par_net is None else imps(own - sign * par_net),
    )
