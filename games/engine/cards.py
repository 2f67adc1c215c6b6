"""Cards as small integers and hands as 52-bit masks.

A card is ``suit * 13 + rank`` where rank 0 is the two and 12 the ace, and the
suits are ordered clubs, diamonds, hearts, spades.  A set of cards (a hand, the
cards played so far) is an ``int`` with one bit per card.  Bit operations on
these masks are what make the engine fast enough for bots to search.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

RANKS = "23456789TJQKA"
SUITS = "CDHS"
CLUBS, DIAMONDS, HEARTS, SPADES = 0, 1, 2, 3
SUIT_NAMES = ("club", "diamond", "heart", "spade")
SUIT_NAMES_PLURAL = ("clubs", "diamonds", "hearts", "spades")
RANK_NAMES = (
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "jack",
    "queen",
    "king",
    "ace",
)

DECK_SIZE = 52
FULL_DECK = (1 << DECK_SIZE) - 1
SUIT_MASKS: tuple[int, int, int, int] = (
    0x1FFF,
    0x1FFF << 13,
    0x1FFF << 26,
    0x1FFF << 39,
)
SPADES_MASK = SUIT_MASKS[SPADES]
NON_SPADES_MASK = FULL_DECK ^ SPADES_MASK
TWO_OF_CLUBS = 0  # CLUBS * 13 + rank of the two


class CardError(ValueError):
    """A card name that cannot be read."""


def suit_of(card: int) -> int:
    """The suit index (0 clubs .. 3 spades) of ``card``."""
    return card // 13


def rank_of(card: int) -> int:
    """The rank index (0 for the two .. 12 for the ace) of ``card``."""
    return card % 13


def make_card(rank: int, suit: int) -> int:
    """The card of the given rank and suit indices."""
    return suit * 13 + rank


def parse_card(text: str) -> int:
    """Read a card name such as ``"AS"``, ``"TD"`` or ``"10D"`` (case-insensitive)."""
    if not isinstance(text, str):
        raise CardError(f"A card must be written as text like 'AS' or '10D', not {text!r}.")
    name = text.strip().upper()
    if name.startswith("10"):
        name = "T" + name[2:]
    if len(name) != 2 or name[0] not in RANKS or name[1] not in SUITS:
        raise CardError(
            f"'{text}' is not a card: write a rank (2-9, T or 10, J, Q, K, A) "
            "then a suit (S, H, D, C), like 'AS' or '10D'."
        )
    return make_card(RANKS.index(name[0]), SUITS.index(name[1]))


def card_name(card: int) -> str:
    """The short name of ``card``: ``"AS"``, ``"TD"``."""
    return RANKS[card % 13] + SUITS[card // 13]


def card_words(card: int) -> str:
    """The card as words, for messages: ``"the ace of spades"``."""
    return f"the {RANK_NAMES[card % 13]} of {SUIT_NAMES_PLURAL[card // 13]}"


def card_bit(card: int) -> int:
    """The one-bit mask of ``card``."""
    return 1 << card


def mask_of(cards: Iterable[int]) -> int:
    """The mask holding ``cards``."""
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


def cards_in(mask: int) -> list[int]:
    """The cards in ``mask``, lowest first (clubs two .. spades ace)."""
    cards = []
    while mask:
        low = mask & -mask
        cards.append(low.bit_length() - 1)
        mask ^= low
    return cards


def iter_cards(mask: int) -> Iterator[int]:
    """Iterate the cards in ``mask``, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def names_in(mask: int) -> list[str]:
    """Card names in ``mask``, spades first then hearts, diamonds, clubs; high to low."""
    return [card_name(card) for card in sorted(cards_in(mask), key=_display_order)]


def _display_order(card: int) -> tuple[int, int]:
    return (-(card // 13), -(card % 13))


def parse_cards(texts: Iterable[str]) -> list[int]:
    """Read several card names; a duplicate is an error."""
    cards: list[int] = []
    seen = 0
    for text in texts:
        card = parse_card(text)
        if seen >> card & 1:
            raise CardError(f"{card_name(card)} appears twice.")
        seen |= 1 << card
        cards.append(card)
    return cards


def highest(mask: int) -> int:
    """The highest-numbered card in a non-empty mask."""
    return mask.bit_length() - 1


def lowest(mask: int) -> int:
    """The lowest-numbered card in a non-empty mask."""
    return (mask & -mask).bit_length() - 1
