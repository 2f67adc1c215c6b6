"""Par: what a pinned computer level scores on a board, averaged over seeded plays.

A board's par is found by letting four players of one pinned bot version
(:data:`PAR_METHOD`: Hard ``hard-3``, whose search scores a hand as a board is scored,
without its wall-clock guard so that a move depends only on what its seat sees and its
seed) play the board ``plays`` times, each play from 0 to 0
with its own seed, and averaging the board scores (``board_scoring.score_board``) of
each direction: par North-South, par East-West and the par net. All four seats are the
same level, so one set of plays gives par from both directions.

Play ``i`` (from 1) has the base seed

    int(SHA-256("spades-par" | board_seed | i)[:8], big-endian)

(the first 8 bytes of the digest), from which the bots derive each decision's seed as
they do at a table (``bots.strategies.selfplay.decision_seed``). Anyone holding the
revealed board seed, the level's code at its version and this page recomputes every play
and so the par. Hard's bidding is Normal's heuristics (no seed), so the plays differ in
the card play only: the contract is par's, the tricks are averaged.

The computation takes a :data:`PlayDeal` callable (``bots.strategies.selfplay.play_version``
is the one the platform uses) rather than importing the bots: leagues' pure core stays
beside the bots, not on them, and a test can hand in any player. It is asked for the
method's *version*, not its level, so a par recorded under an earlier version (``hard-2``)
is recomputed by that version as long as the bots keep it, whatever version par pins now.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Protocol

from games.engine.rules import Rules

from ..errors import LeagueError
from .board_scoring import BoardScore, score_board
from .boards import Board

DOMAIN = "spades-par"
MAX_PLAYS = 64


class PlayedHand(Protocol):
    """What par reads of a played hand (``games.engine.hand.HandState`` has it)."""

    @property
    def bids(self) -> list[int]: ...

    @property
    def blind(self) -> list[bool]: ...

    @property
    def tricks_won(self) -> list[int]: ...


#: ``play(rules, hands, dealer, version, base_seed)``: the deal played to its last trick by
#: four players of the bot ``version`` (``"hard-3"``), every decision seeded from
#: ``base_seed``; raises ``ValueError`` for a version it cannot play.
PlayDeal = Callable[[Rules, Sequence[int], int, str, int], PlayedHand]


@dataclass(frozen=True, slots=True)
class ParMethod:
    """Which level, at which version, how many plays. Pinned in a competition's settings."""

    level: str
    version: str
    plays: int

    def __post_init__(self) -> None:
        if not isinstance(self.version, str) or not self.version.startswith(f"{self.level}-"):
            raise LeagueError(
                "bad_par_method", f"{self.version!r} is not a version of {self.level!r}."
            )
        if isinstance(self.plays, bool) or not 1 <= self.plays <= MAX_PLAYS:
            raise LeagueError("bad_par_method", f"par takes 1 to {MAX_PLAYS} plays a board.")

    def as_dict(self) -> dict[str, Any]:
        return {"level": self.level, "version": self.version, "plays": self.plays}


#: Hard is the strongest level; 4 plays halve the spread of one play's result (the
#: standard deviation of a mean of 4) at about a second of one core a play
#: (docs/benchmarks.md, Duplicate). ``hard-3`` rather than ``hard-2``: its search scores
#: a hand as the board is scored (a bag -9, not +1), and on the same boards it gains
#: about 1 IMP a board on Normal where hard-2 gained 0.1 (docs/benchmarks.md, "hard-3").
PAR_METHOD = ParMethod(level="hard", version="hard-3", plays=4)


def play_seed(board_seed: str, index: int) -> int:
    """The base seed of par play ``index`` (from 1) of the board with ``board_seed``."""
    digest = hashlib.sha256(f"{DOMAIN}|{board_seed}|{index}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


@dataclass(frozen=True, slots=True)
class Par:
    """A board's par: each play's seed and score, and their averages."""

    board: int
    method: ParMethod
    seeds: tuple[int, ...]
    scores: tuple[BoardScore, ...]

    @property
    def north_south(self) -> Fraction:
        return Fraction(sum(s.north_south.points for s in self.scores), len(self.scores))

    @property
    def east_west(self) -> Fraction:
        return Fraction(sum(s.east_west.points for s in self.scores), len(self.scores))

    @property
    def net(self) -> Fraction:
        """North-South's par minus East-West's (the par a table's net is compared with)."""
        return self.north_south - self.east_west

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready with no floats (events keep none): sums over the plays, and the count.

        Seeds are text, as bots' decision seeds are stored (beyond 53 bits).
        """
        return {
            "board": self.board,
            "method": self.method.as_dict(),
            "plays": [
                {
                    "seed": str(seed),
                    "north_south": score.north_south.points,
                    "east_west": score.east_west.points,
                }
                for seed, score in zip(self.seeds, self.scores, strict=True)
            ],
            "north_south_total": sum(s.north_south.points for s in self.scores),
            "east_west_total": sum(s.east_west.points for s in self.scores),
        }


def compute_par(board: Board, rules: Rules, play: PlayDeal, method: ParMethod = PAR_METHOD) -> Par:
    """The par of ``board`` under ``rules``: ``method.plays`` plays of ``method.version``
    through ``play``. Refused (``par_version_gone``) when ``play`` cannot play that
    version: any other version's par would not be the one others recompute."""
    hands = board.hands
    seeds = tuple(play_seed(board.seed, index) for index in range(1, method.plays + 1))
    scores = []
    for seed in seeds:
        try:
            played = play(rules, hands, board.dealer, method.version, seed)
        except ValueError as error:
            raise LeagueError("par_version_gone", str(error)) from None
        scores.append(score_board(rules, played.bids, played.blind, played.tricks_won))
    return Par(board.number, method, seeds, tuple(scores))


@dataclass(frozen=True, slots=True)
class ParCheck:
    board: int
    ok: bool
    problem: str | None = None


def verify_par(board: Board, rules: Rules, play: PlayDeal, published: dict[str, Any]) -> ParCheck:
    """Recompute a board's par with the version it names and compare it with the
    published ``Par.as_dict``."""
    try:
        method = ParMethod(**published["method"])
        again = compute_par(board, rules, play, method).as_dict()
    except (LeagueError, KeyError, TypeError) as error:
        return ParCheck(board.number, False, f"cannot recompute: {error}")
    if again != published:
        return ParCheck(board.number, False, "the published par differs from the recomputed one")
    return ParCheck(board.number, True)


def fraction_text(value: Fraction) -> str:
    """A par average as text, exact (``"-17/4"``, ``"30"``): no floats where a figure must
    be recomputed to the bit."""
    if value.denominator == 1:
        return str(value.numerator)
    return f"{value.numerator}/{value.denominator}"


@dataclass(frozen=True, slots=True)
class BoardPar:
    """A board's published par as a competition file holds it: the method, the bot code's
    version that played it, and each play's seed and board scores (the averages follow).

    Offline, anyone re-derives each play's seed from the revealed board seed
    (:func:`play_seed`) and, with the bots' code at ``bot_version``, the plays themselves
    (:func:`verify_par` with :meth:`published`)."""

    method: ParMethod
    bot_version: str
    plays: tuple[tuple[str, int, int], ...]  # (seed as text, North-South, East-West)

    @property
    def north_south_total(self) -> int:
        return sum(ns for _, ns, _ in self.plays)

    @property
    def east_west_total(self) -> int:
        return sum(ew for _, _, ew in self.plays)

    @property
    def north_south(self) -> Fraction:
        return Fraction(self.north_south_total, len(self.plays))

    @property
    def east_west(self) -> Fraction:
        return Fraction(self.east_west_total, len(self.plays))

    @property
    def net(self) -> Fraction:
        return self.north_south - self.east_west

    @classmethod
    def from_published(cls, published: dict[str, Any], bot_version: str) -> BoardPar:
        """From ``Par.as_dict`` (``BoardParComputed``'s ``par``) and its bot version."""
        return cls(
            ParMethod(**published["method"]),
            bot_version,
            tuple(
                (str(p["seed"]), int(p["north_south"]), int(p["east_west"]))
                for p in published["plays"]
            ),
        )

    def published(self, board: int) -> dict[str, Any]:
        """As ``Par.as_dict`` gives it for board ``board`` (what :func:`verify_par` checks)."""
        return {
            "board": board,
            "method": self.method.as_dict(),
            "plays": [
                {"seed": seed, "north_south": ns, "east_west": ew} for seed, ns, ew in self.plays
            ],
            "north_south_total": self.north_south_total,
            "east_west_total": self.east_west_total,
        }

    def as_dict(self) -> dict[str, Any]:
        """The file's ``par`` of a board: the published par, the bot version and the
        averages as exact fractions in text."""
        published = self.published(0)
        del published["board"]
        return {
            **published,
            "bot_version": self.bot_version,
            "north_south": fraction_text(self.north_south),
            "east_west": fraction_text(self.east_west),
            "net": fraction_text(self.net),
        }
