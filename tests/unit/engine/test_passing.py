from __future__ import annotations

import pytest

from games.engine.bidding import place_bid
from games.engine.errors import IllegalMove
from games.engine.hand import PASSING, PLAYING, HandState, new_hand
from games.engine.moves import PASS, legal_moves
from games.engine.passing import pass_cards
from games.engine.play import play_card
from games.engine.rules import rules_from_spec

from .deals import cards, deal_of, playing

BLIND = rules_from_spec({"blind_nil": True})
NORTH = "AS KS QS JS AH KH QH AD KD QD AC KC QC"
SOUTH = "2S 3S 4S 2H 3H 4H 2D 3D 4D 2C 3C 4C 5C"


def after_blind_nil() -> HandState:
    """North (dealer west) bids blind nil, 200 behind; everyone else bids 4."""
    state = new_hand(BLIND, deal_of(north=NORTH, south=SOUTH), 3, team_scores=(0, 200))
    place_bid(state, 0, 0, blind=True)
    for seat in (1, 2, 3):
        place_bid(state, seat, 4)
    assert state.phase == PASSING
    return state


def refused(state: HandState, seat: int, given: str, code: str) -> str:
    with pytest.raises(IllegalMove) as caught:
        pass_cards(state, seat, cards(given))
    assert caught.value.code == code
    return caught.value.message


def test_bidder_and_partner_each_give_two_cards_then_play_starts() -> None:
    state = after_blind_nil()
    before = state.hands[:]
    pass_cards(state, 0, cards("AS KS"))
    assert state.phase == PASSING  # waits for south
    assert state.hands == before
    pass_cards(state, 2, cards("2C 3C"))
    assert state.phase == PLAYING
    north, south = state.hands[0], state.hands[2]
    assert north >> cards("2C")[0] & 1 and north >> cards("3C")[0] & 1
    assert not north >> cards("AS")[0] & 1
    assert south >> cards("AS")[0] & 1 and south >> cards("KS")[0] & 1
    assert north.bit_count() == south.bit_count() == 13
    assert state.hands[1] == before[1] and state.hands[3] == before[3]
    assert state.dealt == before  # the deal stays as dealt
    assert state.turn == 0  # left of the dealer leads


def test_the_exchange_waits_whoever_passes_first() -> None:
    state = after_blind_nil()
    pass_cards(state, 2, cards("2C 3C"))
    assert state.phase == PASSING
    pass_cards(state, 0, cards("AS KS"))
    assert state.phase == PLAYING


def test_refused_passes_say_why() -> None:
    state = after_blind_nil()
    assert refused(state, 1, "AD KD", "no_pass_owed") == "You do not pass cards this hand."
    assert refused(state, 0, "AS", "pass_two_cards") == (
        "Pass exactly two different cards to your partner."
    )
    assert refused(state, 0, "AS KS QS", "pass_two_cards")
    assert refused(state, 0, "AS AS", "pass_two_cards")
    assert refused(state, 0, "AS 2S", "card_not_held") == "You do not hold the two of spades."
    pass_cards(state, 0, cards("AS KS"))
    assert refused(state, 0, "QS JS", "already_passed") == (
        "You have already passed your two cards."
    )


def test_no_passing_without_a_blind_nil() -> None:
    state = playing(deal_of(north=NORTH))
    assert refused(state, 0, "AS KS", "not_passing") == (
        "Cards are only passed after a blind nil bid."
    )


def test_no_card_is_played_while_passing() -> None:
    state = after_blind_nil()
    with pytest.raises(IllegalMove) as caught:
        play_card(state, 0, cards("AH")[0])
    assert caught.value.message == (
        "Blind nil cards are being passed; play starts once both have passed."
    )


def test_legal_moves_while_passing_are_every_pair_of_each_owing_seat() -> None:
    state = after_blind_nil()
    moves = legal_moves(state)
    assert {move.kind for move in moves} == {PASS}
    assert {move.seat for move in moves} == {0, 2}
    assert len(moves) == 2 * (13 * 12 // 2)
