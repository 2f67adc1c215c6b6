"""Deals: a deck order is the input; a seeded shuffle produces a verifiable one.

The shuffle is a Fisher-Yates over the ordered deck (clubs two .. spades ace)
driven by SHA-256 in counter mode over ``seed`` and the hand number, with
rejection sampling so every order is equally likely.  Anyone holding the seed
can recompute every deal of a game with a few lines in any language; the
algorithm is written out in ``docs/formats.md``.
"""

from __future__ import annotations

import hashlib
import struct

from .cards import DECK_SIZE, mask_of
from .seats import left_of

HAND_SIZE = 13
_EIGHT_WORDS = struct.Struct(">8I")


class DealError(ValueError):
    """A deck or deal that is not 52 distinct cards in four hands of 13."""


class _SeedStream:
    """Unbiased integers from SHA-256(seed | hand | counter)."""

    def __init__(self, seed: bytes, hand_number: int) -> None:
        self._prefix = seed + b"|" + str(hand_number).encode() + b"|"
        self._counter = 0
        self._words: list[int] = []

    def _next_u32(self) -> int:
        if not self._words:
            block = hashlib.sha256(self._prefix + str(self._counter).encode()).digest()
            self._counter += 1
            # The block's eight big-endian words, reversed so pop() takes them in order.
            self._words = list(_EIGHT_WORDS.unpack(block))[::-1]
        return self._words.pop()

    def below(self, bound: int) -> int:
        """A uniform integer in ``[0, bound)``."""
        limit = (1 << 32) - ((1 << 32) % bound)
        while True:
            value = self._next_u32()
            if value < limit:
                return value % bound


def seed_bytes(seed: str | bytes | int) -> bytes:
    """The canonical bytes of a seed: UTF-8 for text, decimal text for integers."""
    if isinstance(seed, bytes):
        return seed
    return str(seed).encode()


def seed_commitment(seed: str) -> str:
    """The published commitment to a deal seed: SHA-256 of its UTF-8 text, in hex.

    Published before the first deal, the seed revealed once the deals may be seen; it
    lives here, beside the shuffle, so that pure code (duplicate boards) commits to its
    seeds exactly as a table does.
    """
    return hashlib.sha256(seed.encode()).hexdigest()


def shuffled_deck(seed: str | bytes | int, hand_number: int = 1) -> list[int]:
    """The deck order for hand ``hand_number`` of the game with this seed."""
    stream = _SeedStream(seed_bytes(seed), hand_number)
    deck = list(range(DECK_SIZE))
    for top in range(DECK_SIZE - 1, 0, -1):
        other = stream.below(top + 1)
        deck[top], deck[other] = deck[other], deck[top]
    return deck


#: The domain of a duplicate board's seed (``leagues.core.duplicate.boards``).
BOARD_DOMAIN = "spades-board"


def board_seed(round_seed: str, number: int) -> str:
    """Board ``number``'s seed in a duplicate round with ``round_seed``:
    ``hex(SHA-256("spades-board" | round_seed | number))``. A table dealing a round's
    boards (``TableCreated`` v4 ``deals``) commits to the round seed and deals its hand
    ``n`` from board ``n``: :func:`board_deck`."""
    return hashlib.sha256(f"{BOARD_DOMAIN}|{round_seed}|{number}".encode()).hexdigest()


def board_deck(round_seed: str, number: int) -> list[int]:
    """Board ``number``'s deck: the first hand a table with the board's seed deals."""
    return shuffled_deck(board_seed(round_seed, number), 1)


def check_deck(deck: list[int]) -> None:
    """Refuse a deck that is not the 52 distinct cards."""
    if len(deck) != DECK_SIZE or mask_of(deck) != (1 << DECK_SIZE) - 1:
        raise DealError("A deck must hold each of the 52 cards exactly once.")


def deal_deck(deck: list[int], dealer: int) -> list[int]:
    """Deal one card at a time clockwise from the dealer's left; the four hand masks."""
    check_deck(deck)
    hands = [0, 0, 0, 0]
    seat = left_of(dealer)
    for card in deck:
        hands[seat] |= 1 << card
        seat = left_of(seat)
    return hands


def hands_from_lists(hands: list[list[int]]) -> list[int]:
    """Hand masks from four explicit card lists, refusing anything but 4 x 13 distinct cards."""
    if len(hands) != 4:
        raise DealError("A deal needs four hands.")
    masks = []
    seen = 0
    for cards in hands:
        mask = mask_of(cards)
        if len(cards) != HAND_SIZE or mask.bit_count() != HAND_SIZE:
            raise DealError("Each hand must hold 13 different cards.")
        if seen & mask:
            raise DealError("A card appears in more than one hand.")
        seen |= mask
        masks.append(mask)
    return masks
