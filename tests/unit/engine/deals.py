"""Building deals and hands in a chosen position, for readable rule tests."""

from __future__ import annotations

from games.engine.bidding import place_bid
from games.engine.cards import FULL_DECK, cards_in, mask_of, parse_card
from games.engine.hand import BIDDING, COMPLETE, HandState, new_hand
from games.engine.play import legal_cards, play_card
from games.engine.rules import Rules
from games.engine.seats import SEAT_NAMES
from scoring.core.game import Game

STANDARD = Rules()


def cards(text: str) -> list[int]:
    """``"AS KS 2C"`` as card numbers."""
    return [parse_card(name) for name in text.split()]


def deal_of(**seats: str) -> list[int]:
    """Four hand masks: the named seats hold the cards written, the rest are filled lowest first.

    A seat written in full (13 cards) holds exactly those; use that whenever a test
    depends on what a seat does not hold.
    """
    masks = [0, 0, 0, 0]
    for name, text in seats.items():
        masks[SEAT_NAMES.index(name)] = mask_of(cards(text))
    left = FULL_DECK
    for mask in masks:
        assert left & mask == mask, "a card is given to two seats"
        left &= ~mask
    free = cards_in(left)
    for seat in range(4):
        while masks[seat].bit_count() < 13:
            masks[seat] |= 1 << free.pop(0)
    assert not free
    return masks


def suit_per_seat() -> list[int]:
    """North holds every club, east every diamond, south every heart, west every spade."""
    return [0x1FFF << (13 * suit) for suit in range(4)]


def playing(
    dealt: list[int],
    rules: Rules = STANDARD,
    dealer: int = 3,
    bids: tuple[int, int, int, int] = (3, 3, 3, 3),
) -> HandState:
    """A hand whose bidding is over (bids north first), ready for the first lead."""
    state = new_hand(rules, dealt, dealer)
    for offset in range(1, 5):
        seat = (dealer + offset) & 3
        place_bid(state, seat, bids[seat])
    return state


# North leads first when west deals.  East holds only hearts; south one club, the ace of
# diamonds and the spades below the king; west the other clubs and the ace and king of spades.
TRUMP_DEAL = deal_of(
    north="2C 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD",
    east="AH KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H",
    south="3C AD 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS",
)


def scripted_game(
    rules: Rules,
    dealer: int,
    dealt: list[int],
    bids: tuple[int, ...],
    opening: tuple[str, ...] = (),
) -> Game:
    """One hand: bids north first, the opening cards as written, then the lowest legal card."""
    game = Game(rules, dealer)
    state = game.start_hand(dealt)
    while state.phase == BIDDING:
        place_bid(state, state.turn, bids[state.turn])
    for name in opening:
        play_card(state, state.turn, parse_card(name))
    while state.phase != COMPLETE:
        play_card(state, state.turn, legal_cards(state)[0])
    game.score_if_complete()
    return game
