"""Match results, byes and the match-point table, and how corrections replace results.

A match has a North-South entrant and an East-West entrant (the orientation the
pairing engines balance).  Its result carries each side's game points, the winner (or
``None`` for a draw, possible only in a fixed-hands match outside a knockout) and flags
for a forfeit, a no-show and a bot substitute.  A correction is a new result whose
``corrects`` names the result it replaces; nothing is edited.

A played match is its game: :func:`match_rules` is what a competition's table adds to
the pinned rules for its match format (a fixed number of hands is a rule of the game,
so the table, its replay and any rescoring end where the match does), and
:func:`match_outcome` is the one reading of a finished game as a match's result, for a
table, a scoresheet and the what-if alike.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Literal

from games.engine.rules import MAX_EXTRA_HANDS

from .errors import LeagueError

Side = Literal["north_south", "east_west"]
SIDES: tuple[Side, Side] = ("north_south", "east_west")
AwardKind = Literal["bye", "late_join"]
AWARD_KINDS: tuple[AwardKind, AwardKind] = ("bye", "late_join")

MAX_MATCH_POINTS = 100
MAX_GAME_POINTS = 1_000_000
MAX_FIXED_HANDS = 100
#: The extra hands a knockout's fixed-hands table may deal to break a tie, one at a time
#: (``Rules.extra_hands``); after them the side that took more of the last hand's tricks
#: wins (docs/leagues.md, "A tie in a fixed-hands knockout match").
KNOCKOUT_EXTRA_HANDS = MAX_EXTRA_HANDS


@dataclass(frozen=True, slots=True)
class MatchPoints:
    """What a match is worth: win 2 / draw 1 / loss 0 by default.

    ``bye`` is what the engine's bye gives (a win by default); ``late_join`` what a late
    entrant gets for each round it missed (nothing by default).  A forfeit scores
    ``win`` for the side that turned up and ``forfeit_loss`` for the side that did not.
    """

    win: int = 2
    draw: int = 1
    loss: int = 0
    bye: int = 2
    late_join: int = 0
    forfeit_loss: int = 0

    def __post_init__(self) -> None:
        for name in ("win", "draw", "loss", "bye", "late_join", "forfeit_loss"):
            value = getattr(self, name)
            if not isinstance(value, int) or not 0 <= value <= MAX_MATCH_POINTS:
                raise LeagueError(
                    "bad_match_points",
                    f"match points {name} is a whole number from 0 to {MAX_MATCH_POINTS}.",
                )
        if not self.win >= self.draw >= self.loss:
            raise LeagueError("bad_match_points", "match points need win >= draw >= loss.")

    def award(self, kind: AwardKind) -> int:
        """The match points of a bye or a late-join award."""
        return self.bye if kind == "bye" else self.late_join


@dataclass(frozen=True, slots=True)
class MatchFormat:
    """A game to the preset's target (``fixed_hands=None``), or a fixed number of hands."""

    fixed_hands: int | None = None

    def __post_init__(self) -> None:
        if self.fixed_hands is not None and not 1 <= self.fixed_hands <= MAX_FIXED_HANDS:
            raise LeagueError("bad_match_format", f"fixed_hands runs from 1 to {MAX_FIXED_HANDS}.")

    @property
    def draws_possible(self) -> bool:
        """Only a fixed number of hands can end level."""
        return self.fixed_hands is not None


def match_rules(match_format: MatchFormat, *, knockout: bool) -> dict[str, int]:
    """The rules a competition's table adds to the pinned rules for its match format: a
    fixed number of hands is the game's ``hands``, and in a knockout a level match goes
    on to extra hands (it cannot end drawn). A game to the target adds nothing."""
    if match_format.fixed_hands is None:
        return {}
    extra = KNOCKOUT_EXTRA_HANDS if knockout else 0
    return {"hands": match_format.fixed_hands, "extra_hands": extra}


@dataclass(frozen=True, slots=True)
class MatchOutcome:
    """What a finished game makes of its match: each side's game points, the winner
    (``None``: a draw) and how many hands were played."""

    north_south_points: int
    east_west_points: int
    winner: Side | None
    hands: int

    @property
    def points(self) -> dict[str, int]:
        return {"north_south": self.north_south_points, "east_west": self.east_west_points}


def match_outcome(
    totals: tuple[int, int], winner: int | None, finished_after_hand: int | None
) -> MatchOutcome | None:
    """The match's result from its game's final ledger (team 0 North-South), or ``None``
    while the game goes on. The game's own rules decided when it ended and who won (a
    fixed number of hands included, :func:`match_rules`): the match takes the game's
    totals and winner as they are, so a table's result never differs from its ledger."""
    if finished_after_hand is None:
        return None
    return MatchOutcome(
        north_south_points=totals[0],
        east_west_points=totals[1],
        winner=None if winner is None else SIDES[winner],
        hands=finished_after_hand,
    )


@dataclass(frozen=True, slots=True)
class MatchResult:
    """The result of one match (board) of one round.

    ``sequence`` is the result's position in the competition's history (the "results
    version" a later pairing records).  ``forfeited_by`` names the side that did not
    play (``"both"`` when neither did: both lose); ``no_show`` says the forfeit came
    from a seat left empty past the grace time; ``bot_substitute`` that a bot took a
    seat.  ``rated`` is False for anything the ratings must skip.
    """

    id: str
    round: int
    board: int
    north_south: str
    east_west: str
    north_south_points: int
    east_west_points: int
    winner: Side | None
    sequence: int = 0
    forfeited_by: Side | Literal["both"] | None = None
    no_show: bool = False
    bot_substitute: bool = False
    corrects: str | None = None
    rated: bool = True

    def entrant(self, side: Side) -> str:
        """The entrant sitting ``side``."""
        return self.north_south if side == "north_south" else self.east_west

    @property
    def played(self) -> bool:
        """Whether the match was played over the table (no forfeit)."""
        return self.forfeited_by is None

    def match_points(self, table: MatchPoints) -> tuple[int, int]:
        """(North-South, East-West) match points under ``table``."""
        if self.forfeited_by == "both":
            return table.forfeit_loss, table.forfeit_loss
        if self.forfeited_by is not None:
            return (
                (table.forfeit_loss, table.win)
                if self.forfeited_by == "north_south"
                else (table.win, table.forfeit_loss)
            )
        if self.winner is None:
            return table.draw, table.draw
        if self.winner == "north_south":
            return table.win, table.loss
        return table.loss, table.win


@dataclass(frozen=True, slots=True)
class Award:
    """Match points given without a match: the engine's bye, or a late entrant's missed round."""

    id: str
    round: int
    entrant: str
    kind: AwardKind = "bye"
    sequence: int = 0


def check_result(
    result: MatchResult, match_format: MatchFormat, *, knockout: bool = False
) -> MatchResult:
    """The result, checked against the match format (``knockout``: a match of a knockout
    bracket, which needs a winner); refuses an impossible one."""
    where = f"Result {result.id!r}"
    if result.north_south == result.east_west:
        raise LeagueError("self_match", f"{where}: an entrant cannot play itself.")
    if result.round < 1 or result.board < 1:
        raise LeagueError("bad_round", f"{where}: rounds and boards count from 1.")
    for points in (result.north_south_points, result.east_west_points):
        if not -MAX_GAME_POINTS <= points <= MAX_GAME_POINTS:
            raise LeagueError(
                "bad_game_points", f"{where}: game points are within ±{MAX_GAME_POINTS}."
            )
    if result.forfeited_by is not None:
        expected: Side | None = None
        if result.forfeited_by == "north_south":
            expected = "east_west"
        elif result.forfeited_by == "east_west":
            expected = "north_south"
        if result.winner != expected:
            raise LeagueError(
                "bad_forfeit",
                f"{where}: a forfeit is won by the side that played"
                + (" (nobody, when both forfeit)." if expected is None else f" ({expected})."),
            )
        return result
    if result.no_show:
        raise LeagueError("bad_forfeit", f"{where}: a no-show is a forfeit; name forfeited_by.")
    if result.winner is None:
        if knockout:
            raise LeagueError(
                "draw_not_possible",
                f"{where}: a knockout match needs a winner; a level fixed-hands match goes "
                "on to extra hands, then to the side that took more of the last hand's tricks.",
            )
        if not match_format.draws_possible:
            raise LeagueError(
                "draw_not_possible",
                f"{where}: a draw is possible only in a fixed-hands match; "
                "a game to the target always has a winner.",
            )
        if result.north_south_points != result.east_west_points:
            raise LeagueError("bad_winner", f"{where}: a draw needs equal game points.")
    elif match_format.fixed_hands is not None:
        ns_ahead = result.north_south_points > result.east_west_points
        ew_ahead = result.east_west_points > result.north_south_points
        level = not ns_ahead and not ew_ahead
        if (result.winner == "north_south" and ew_ahead) or (
            result.winner == "east_west" and ns_ahead
        ):
            raise LeagueError(
                "bad_winner",
                f"{where}: in a fixed-hands match the side with more game points wins.",
            )
        if level and not knockout:
            raise LeagueError(
                "bad_winner",
                f"{where}: a fixed-hands match with equal game points is a draw (winner null).",
            )
    return result


def effective_results(results: Iterable[MatchResult]) -> list[MatchResult]:
    """The results that count: each correction replaces the result it corrects.

    Results are taken in ``sequence`` order; a correction of a correction replaces the
    whole chain, and the surviving result keeps the place of the first one.  A
    correction of an unknown result is refused.
    """
    ordered = sorted(results, key=lambda result: result.sequence)
    position: dict[str, int] = {}
    current: list[MatchResult | None] = []
    for result in ordered:
        if result.corrects is None:
            if result.id in position:
                raise LeagueError("duplicate_result", f"Result id {result.id!r} is used twice.")
            position[result.id] = len(current)
            current.append(result)
            continue
        slot = position.get(result.corrects)
        if slot is None:
            raise LeagueError(
                "unknown_result",
                f"Result {result.id!r} corrects {result.corrects!r}, which is not an earlier "
                "result of this competition.",
            )
        if result.id in position:
            raise LeagueError("duplicate_result", f"Result id {result.id!r} is used twice.")
        replaced = current[slot]
        if replaced is not None and (
            {replaced.north_south, replaced.east_west} != {result.north_south, result.east_west}
            or replaced.round != result.round
        ):
            raise LeagueError(
                "bad_correction",
                f"Result {result.id!r} corrects {result.corrects!r} but names another round "
                "or other entrants; a correction changes the score, not the match.",
            )
        del position[result.corrects]
        position[result.id] = slot
        current[slot] = result
    return [result for result in current if result is not None]


def superseded(results: Iterable[MatchResult]) -> Mapping[str, MatchResult]:
    """Each corrected result id -> the correction that replaced it (directly)."""
    return {result.corrects: result for result in results if result.corrects is not None}
