"""The Swiss pairing criteria, in order of priority, as the digits of one integer weight.

A pairing is better than another when it is better on the first criterion where they
differ (docs/leagues.md, Swiss, lists them with their sources).  Each edge of the
matching graph carries a mixed-radix integer whose digits are, most significant first:

0. **no forbidden pair** (engine version 3, only when the organiser forbade some pairs):
   1 unless the two must not meet, so the fewest forbidden meetings come before
   everything else;
1. **no rematch**: how many fewer times the two have met than the most anyone has
   (``most_met`` = that most, plus one);
2. **the bye** (an edge to the bye node): the receiver's place in the ranking, so the
   lowest-ranked entrant among those with the fewest byes gets it;
3. **same score group**: 1 when the two have the same match points;
4. **small score difference**: ``D² - (difference)²`` (``D`` the field's spread);
5. **orientation**: how little the two fight over the same side (North-South balance,
   then alternation);
6. **ranking distance**: ``n - |place a - place b|`` (top of a group meets the next one
   down: the Monrad order of bridge Swiss events).

Every digit's radix exceeds the largest total the digits below it can add over a whole
pairing, so the sum over a pairing orders pairings lexicographically by these
criteria, and a maximum-weight matching is the best pairing.  Engine versions 1 and 2
weigh edges the same way (they differ in which edges the graph holds), and so does
version 3 when nothing is forbidden (digit 0 is then left out: the very weights of
version 2); a change here is a new engine version with the old digits kept for the
rounds paired under them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .pairings import EAST_WEST, NORTH_SOUTH, ForbiddenPair, forbidden_pair

if TYPE_CHECKING:  # the entrant type only; swiss.py imports this module at run time
    from .swiss import SwissEntrant


def balance(orientations: str) -> int:
    """North-South matches minus East-West matches."""
    return orientations.count(NORTH_SOUTH) - orientations.count(EAST_WEST)


def preference(entrant: SwissEntrant) -> tuple[int, int]:
    """(side wanted: +1 North-South, -1 East-West, 0 none; strength)."""
    lean = balance(entrant.orientations)
    if lean:
        return (-1 if lean > 0 else 1), 2 * abs(lean)
    if entrant.orientations:
        return (1 if entrant.orientations[-1] == EAST_WEST else -1), 1
    return 0, 0


def orientation_cost(a: SwissEntrant, b: SwissEntrant) -> int:
    """How much the two want the same side (the smaller strength), 0 when they do not."""
    side_a, strength_a = preference(a)
    side_b, strength_b = preference(b)
    if side_a == 0 or side_a != side_b:
        return 0
    return min(strength_a, strength_b)


def radices(pair_count: int, maxima: Sequence[int]) -> list[int]:
    """Digit multipliers, most significant first, for a lexicographic sum over pairs."""
    multipliers = [0] * len(maxima)
    below = 0
    for index in range(len(maxima) - 1, -1, -1):
        multipliers[index] = pair_count * below + 1
        below += maxima[index] * multipliers[index]
    return multipliers


def fewest_byes(ranked: Sequence[SwissEntrant]) -> int:
    return min(e.byes for e in ranked)


def bye_candidates(ranked: Sequence[SwissEntrant], fewest: int | None = None) -> list[int]:
    """Places of the entrants that may take the bye: those with the fewest byes."""
    least = fewest_byes(ranked) if fewest is None else fewest
    return [index for index, e in enumerate(ranked) if e.byes == least]


def times_met(ranked: Sequence[SwissEntrant]) -> list[dict[str, int]]:
    """Per place, how many times the entrant met each opponent."""
    met: list[dict[str, int]] = [dict.fromkeys(e.opponents, 0) for e in ranked]
    for index, e in enumerate(ranked):
        for opponent in e.opponents:
            met[index][opponent] += 1
    return met


@dataclass(frozen=True, slots=True)
class Criteria:
    """The edge weights of one ranked field (places are indexes into ``ranked``)."""

    ranked: Sequence[SwissEntrant]
    met: list[dict[str, int]]
    most_met: int
    spread: int
    max_cost: int
    rematch_m: int
    bye_m: int
    group_m: int
    diff_m: int
    side_m: int
    rank_m: int
    forbidden: frozenset[ForbiddenPair] = frozenset()
    forbid_m: int = 0

    @classmethod
    def of(
        cls,
        ranked: Sequence[SwissEntrant],
        below: int | None = None,
        forbidden: frozenset[ForbiddenPair] = frozenset(),
    ) -> Criteria:
        """The weights of ``ranked``; ``below`` is the score of the first entrant under
        it (a block's carried entrant meets someone about there); ``forbidden`` the
        pairs that must not meet (none: version 2's weights exactly)."""
        count = len(ranked)
        met = times_met(ranked)
        most_met = max((max(m.values(), default=0) for m in met), default=0) + 1
        scores = [e.score for e in ranked] + ([] if below is None else [below])
        spread = max(scores) - min(scores)
        max_cost = max((preference(e)[1] for e in ranked), default=0)
        maxima = [most_met, count, 1, spread * spread, max_cost, count]
        if not forbidden:
            rematch_m, bye_m, group_m, diff_m, side_m, rank_m = radices((count + 1) // 2, maxima)
            forbid_m = 0
        else:
            forbid_m, rematch_m, bye_m, group_m, diff_m, side_m, rank_m = radices(
                (count + 1) // 2, [1, *maxima]
            )
        return cls(
            ranked,
            met,
            most_met,
            spread,
            max_cost,
            rematch_m,
            bye_m,
            group_m,
            diff_m,
            side_m,
            rank_m,
            forbidden,
            forbid_m,
        )

    def allowed(self, i: int, j: int) -> bool:
        """Whether places ``i`` and ``j`` may meet (not a forbidden pair)."""
        return forbidden_pair(self.ranked[i].id, self.ranked[j].id) not in self.forbidden

    def weight(self, i: int, j: int) -> int:
        """The edge between places ``i`` and ``j``."""
        a, b = self.ranked[i], self.ranked[j]
        difference = a.score - b.score
        return (
            (0 if self.forbidden and not self.allowed(i, j) else self.forbid_m)
            + (self.most_met - self.met[i].get(b.id, 0)) * self.rematch_m
            + (self.group_m if difference == 0 else 0)
            + (self.spread * self.spread - difference * difference) * self.diff_m
            + (self.max_cost - orientation_cost(a, b)) * self.side_m
            + (len(self.ranked) - abs(i - j)) * self.rank_m
        )

    def bye_weight(self, place: int) -> int:
        """The edge from the bye node to ``place`` (a bye is never a rematch, nor a
        forbidden meeting)."""
        return self.forbid_m + self.most_met * self.rematch_m + (place + 1) * self.bye_m

    def carry_weight(self, place: int, below: int) -> int:
        """The edge from a block's carry node to ``place``: left to the block below, whose
        first entrant has ``below`` match points, to float into it.  It earns no
        same-group credit: a block is cut where no group needs to send anyone down, so
        only a floater is carried, and it scores as if it met that first entrant."""
        difference = self.ranked[place].score - below
        return (
            self.forbid_m
            + self.most_met * self.rematch_m
            + (self.spread * self.spread - difference * difference) * self.diff_m
            + self.max_cost * self.side_m
            + (place + 1) * self.rank_m
        )
