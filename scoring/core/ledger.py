"""A running score ledger: hands in, team scores with breakdowns and the winner out."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from games.engine.rules import Rules
from games.engine.seats import TEAM_NAMES, TEAM_WORDS, team_of

from .hand_score import TeamHandScore, score_team
from .outcome import game_end


@dataclass(frozen=True, slots=True)
class HandResult:
    """Both partnerships' scores for one hand."""

    number: int
    teams: tuple[TeamHandScore, TeamHandScore]

    def as_dict(self) -> dict[str, Any]:
        """``{"north_south": {...}, "east_west": {...}}``."""
        return {TEAM_NAMES[team.team]: team.as_dict() for team in self.teams}


@dataclass(slots=True)
class Ledger:
    """Running totals and bags for a game under one set of rules."""

    rules: Rules
    totals: list[int] = field(default_factory=lambda: [0, 0])
    bags: list[int] = field(default_factory=lambda: [0, 0])
    hands: list[HandResult] = field(default_factory=list)
    winner: int | None = None
    finished_after_hand: int | None = None

    @property
    def finished(self) -> bool:
        """Whether the game is over: a team has won, or (a fixed number of hands) it is
        a draw (``winner`` None)."""
        return self.finished_after_hand is not None

    @property
    def ending(self) -> str:
        """How the finished game ended, for a sentence: "North-South won" or "a draw"."""
        return "a draw" if self.winner is None else f"{TEAM_WORDS[self.winner]} won"

    def record_hand(self, bids: list[int], blind: list[bool], tricks: list[int]) -> HandResult:
        """Score a hand, update the totals and decide whether the game is over."""
        teams = (
            score_team(self.rules, 0, bids, blind, tricks, self.totals[0], self.bags[0]),
            score_team(self.rules, 1, bids, blind, tricks, self.totals[1], self.bags[1]),
        )
        result = HandResult(len(self.hands) + 1, teams)
        self.hands.append(result)
        for team in teams:
            self.totals[team.team] = team.total
            self.bags[team.team] = team.bags_total
        taken = [0, 0]
        for seat, count in enumerate(tricks):
            taken[team_of(seat)] += count
        end = game_end(
            self.rules, (self.totals[0], self.totals[1]), result.number, (taken[0], taken[1])
        )
        if end is not None:
            self.winner = end.winner
            self.finished_after_hand = result.number
        return result

    def summary(self) -> dict[str, Any]:
        """``{"hands": [...], "totals": {...}, "winner": ..., "finished_after_hand": ...}``."""
        return {
            "hands": [hand.as_dict() for hand in self.hands],
            "totals": {TEAM_NAMES[t]: self.totals[t] for t in (0, 1)},
            "winner": None if self.winner is None else TEAM_NAMES[self.winner],
            "finished_after_hand": self.finished_after_hand,
        }
