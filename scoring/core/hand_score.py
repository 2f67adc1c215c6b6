"""The score of one hand for one partnership, with the arithmetic shown."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games.engine.rules import Rules
from games.engine.seats import SEAT_NAMES, TEAM_NAMES, seats_of

BAGS_PER_PENALTY = 10
BAG_PENALTY_POINTS = 100
POINTS_PER_BID_TRICK = 10


@dataclass(frozen=True, slots=True)
class NilResult:
    """How one nil or blind nil bid went."""

    seat: int
    blind: bool
    tricks: int
    made: bool
    points: int

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {
            "seat": SEAT_NAMES[self.seat],
            "kind": "blind_nil" if self.blind else "nil",
            "tricks": self.tricks,
            "made": self.made,
            "points": self.points,
        }


@dataclass(frozen=True, slots=True)
class TeamHandScore:
    """One partnership's result for one hand and its running totals after it."""

    team: int
    contract: int
    tricks: int
    counted_tricks: int
    made: bool
    contract_points: int
    bags: int
    nils: tuple[NilResult, ...]
    nil_points: int
    bag_penalty: int
    hand_score: int
    bags_total: int
    total: int

    def breakdown(self) -> dict[str, Any]:
        """The parts that add up to ``hand_score``, for a person to check."""
        return {
            "contract": self.contract,
            "tricks": self.tricks,
            "tricks_toward_contract": self.counted_tricks,
            "made": self.made,
            "contract_points": self.contract_points,
            "bags": self.bags,
            "bag_points": self.bags,
            "nil": [nil.as_dict() for nil in self.nils],
            "nil_points": self.nil_points,
            "bag_penalty": self.bag_penalty,
        }

    def as_dict(self) -> dict[str, Any]:
        """``{"hand_score", "total", "bags", "breakdown"}`` as in the scoresheet format."""
        return {
            "hand_score": self.hand_score,
            "total": self.total,
            "bags": self.bags_total,
            "breakdown": self.breakdown(),
        }

    @property
    def team_name(self) -> str:
        """``"north_south"`` or ``"east_west"``."""
        return TEAM_NAMES[self.team]


def score_team(
    rules: Rules,
    team: int,
    bids: list[int],
    blind: list[bool],
    tricks: list[int],
    total_before: int,
    bags_before: int,
) -> TeamHandScore:
    """Score one partnership for a hand.

    ``bids`` hold 0 for nil and blind nil (``blind`` tells them apart), ``tricks``
    the tricks each seat took.  The rules' options change the contract, set,
    nil and bag arithmetic exactly as the seed rules describe.
    """
    contract = 0
    counted = 0
    team_tricks = 0
    nil_tricks = 0
    nils: list[NilResult] = []
    nil_points = 0
    for seat in seats_of(team):
        team_tricks += tricks[seat]
        if bids[seat] == 0:
            points = rules.blind_nil_points if blind[seat] else rules.nil_points
            made_nil = tricks[seat] == 0
            signed = points if made_nil else -points
            nils.append(NilResult(seat, blind[seat], tricks[seat], made_nil, signed))
            nil_points += signed
            nil_tricks += tricks[seat]
            if rules.nil_tricks_count_for_partner:
                counted += tricks[seat]
        else:
            contract += bids[seat]
            counted += tricks[seat]
    made = counted >= contract
    if made:
        contract_points = POINTS_PER_BID_TRICK * contract
        bags = counted - contract
    else:
        contract_points = 0 if rules.set_penalty == "zero" else -POINTS_PER_BID_TRICK * contract
        bags = 0
    if not rules.nil_tricks_count_for_partner:
        bags += nil_tricks
    bags_total = bags_before + bags
    bag_penalty = 0
    if rules.bag_penalty:
        while bags_total >= BAGS_PER_PENALTY:
            bags_total -= BAGS_PER_PENALTY
            bag_penalty -= BAG_PENALTY_POINTS
    hand_score = contract_points + bags + nil_points + bag_penalty
    return TeamHandScore(
        team=team,
        contract=contract,
        tricks=team_tricks,
        counted_tricks=counted,
        made=made,
        contract_points=contract_points,
        bags=bags,
        nils=tuple(nils),
        nil_points=nil_points,
        bag_penalty=bag_penalty,
        hand_score=hand_score,
        bags_total=bags_total,
        total=total_before + hand_score,
    )
