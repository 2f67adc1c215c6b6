"""Boards: one deal and its dealer, committed before the round, re-derivable by anyone.

A round has one secret **round seed** (1 to 128 characters of ``A-Z a-z 0-9 _ -``, as a
pairing seed). Board ``n``'s own seed is

    board_seed = hex(SHA-256("spades-board" | round_seed | n))

and its deal is what a table with that seed deals as its first hand:
``shuffled_deck(board_seed, 1)``, dealt by ``dealer_of(n)`` (board 1 North, 2 East,
3 South, 4 West, 5 North..., the bridge convention, so a set of four boards gives every
seat the first bid once). Its **commitment** is the one tables publish for their deal
seed (``seed_commitment``, SHA-256 of the seed's text), so the same verifier checks
both. One seed per board, not one per round, because a board's seed is revealed as
soon as every table of the round has finished that board (its traveller and hands go
public then) while the other boards stay secret: SHA-256 does not run backwards, so a
revealed board seed says nothing of the round seed or of the other boards. The round
seed itself is committed too (``seed_commitment(round_seed)``) and revealed after the
round, and then binds every board to it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from games.engine.cards import card_name
from games.engine.deal import BOARD_DOMAIN, deal_deck, seed_commitment, shuffled_deck
from games.engine.deal import board_seed as _board_seed
from games.engine.seats import SEAT_NAMES

from ..commitment import check_seed
from ..errors import LeagueError

DOMAIN = BOARD_DOMAIN
MAX_BOARDS = 64  # a long bridge session is 36; every board is a published commitment


def board_seed(round_seed: str, number: int) -> str:
    """Board ``number``'s seed in the round with ``round_seed`` (64 hex digits)."""
    check_seed(round_seed)
    check_board_number(number)
    return _board_seed(round_seed, number)


def dealer_of(number: int) -> int:
    """The dealer of board ``number``: North, East, South, West in turn from board 1."""
    check_board_number(number)
    return (number - 1) % 4


def check_board_number(number: int) -> int:
    if isinstance(number, bool) or not isinstance(number, int) or not 1 <= number <= MAX_BOARDS:
        raise LeagueError("bad_board", f"A board number runs from 1 to {MAX_BOARDS}.")
    return number


@dataclass(frozen=True, slots=True)
class Board:
    """Board ``number``: its seed (secret until revealed), the deck it gives and the dealer."""

    number: int
    seed: str
    dealer: int
    deck: tuple[int, ...]

    @property
    def hands(self) -> list[int]:
        """The four hand masks, North first, dealt from the dealer's left."""
        return deal_deck(list(self.deck), self.dealer)

    @property
    def commitment(self) -> str:
        """What is published before the round: SHA-256 of the board's seed."""
        return seed_commitment(self.seed)

    def public_dict(self) -> dict[str, Any]:
        """What may be shown while the board is secret: number, dealer, commitment."""
        return {
            "board": self.number,
            "dealer": SEAT_NAMES[self.dealer],
            "commitment": self.commitment,
        }

    def revealed_dict(self) -> dict[str, Any]:
        """The whole board, once it may be seen: its seed and deck too."""
        return {
            **self.public_dict(),
            "seed": self.seed,
            "deck": [card_name(card) for card in self.deck],
        }


def derive_board(seed: str, number: int) -> Board:
    """The board a board seed gives: the first hand of a table with that seed."""
    return Board(number, seed, dealer_of(number), tuple(shuffled_deck(seed, 1)))


def derive_boards(round_seed: str, count: int) -> tuple[Board, ...]:
    """Boards 1 to ``count`` of the round with ``round_seed``."""
    if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= MAX_BOARDS:
        raise LeagueError("bad_board_count", f"A round has 1 to {MAX_BOARDS} boards.")
    return tuple(derive_board(board_seed(round_seed, n), n) for n in range(1, count + 1))


def round_commitment(round_seed: str) -> str:
    """The commitment to the round seed, published with the boards' own."""
    return seed_commitment(check_seed(round_seed))


@dataclass(frozen=True, slots=True)
class BoardCheck:
    """Whether a revealed board is the one its commitment and round promised."""

    board: int
    ok: bool
    problem: str | None = None


def verify_board(
    number: int,
    seed: str,
    committed: str,
    published_deck: Sequence[str] | None = None,
    round_seed: str | None = None,
) -> BoardCheck:
    """Check a revealed board seed against its commitment, deck and (later) round seed.

    ``published_deck`` is the deck as card names (as ``revealed_dict`` writes it);
    ``round_seed``, once the round is over, must give this board seed. A problem is
    reported in the answer, never raised.
    """
    try:
        if round_seed is not None and board_seed(round_seed, number) != seed:
            return BoardCheck(number, False, "the round seed does not give this board seed")
        if seed_commitment(seed) != committed:
            return BoardCheck(number, False, "the revealed seed does not match the commitment")
        board = derive_board(seed, number)
    except LeagueError as error:
        return BoardCheck(number, False, error.message)
    if published_deck is not None:
        expected = [card_name(card) for card in board.deck]
        if list(published_deck) != expected:
            return BoardCheck(number, False, "the published deck is not the one the seed deals")
    return BoardCheck(number, True)


def verify_round_boards(
    round_seed: str | None,
    committed_round: str,
    boards: Sequence[Mapping[str, Any]],
    commitments: Mapping[int, str] | None = None,
) -> list[BoardCheck]:
    """Every revealed board of a round (``revealed_dict`` form) checked.

    A board is revealed alone (``BoardRevealed``) as soon as every table has finished it,
    before the round seed is out: ``round_seed`` None checks each board against its own
    commitment only; once the round seed is revealed it must match ``committed_round``
    and give every board's seed. ``commitments`` (board -> the commitment published
    before the round, ``BoardsCommitted``) is what each board is checked against; without
    it, the commitment the revealed board carries (which must then be compared with the
    published one by the caller)."""
    checks = []
    round_ok = round_seed is None or seed_commitment(round_seed) == committed_round
    for board in boards:
        number = board.get("board", 0)
        if isinstance(number, bool) or not isinstance(number, int):
            checks.append(BoardCheck(0, False, f"board number {number!r} is not a whole number"))
            continue
        if not round_ok:
            checks.append(BoardCheck(number, False, "the round seed does not match its commitment"))
            continue
        committed = (
            commitments.get(number, "") if commitments is not None else board.get("commitment", "")
        )
        checks.append(
            verify_board(
                number,
                str(board.get("seed", "")),
                str(committed),
                board.get("deck"),
                round_seed,
            )
        )
    return checks
