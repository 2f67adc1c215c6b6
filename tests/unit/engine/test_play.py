from __future__ import annotations

import pytest

from games.engine.bidding import place_bid
from games.engine.cards import card_name, cards_in, parse_card
from games.engine.errors import IllegalMove
from games.engine.hand import COMPLETE, HandState, new_hand
from games.engine.moves import PLAY, legal_moves
from games.engine.play import (
    card_refusals,
    current_winner,
    legal_card_mask,
    legal_cards,
    play_card,
    play_refusal,
)
from games.engine.rules import Rules
from games.engine.seats import EAST, NORTH, SOUTH, WEST

from .deals import STANDARD, TRUMP_DEAL, deal_of, playing, suit_per_seat

NO_BREAK = Rules(breaking_spades=False)


def play(state: HandState, *names: str) -> None:
    """Play cards in turn order."""
    for name in names:
        play_card(state, state.turn, parse_card(name))


def refusal(state: HandState, seat: int, name: str) -> IllegalMove:
    with pytest.raises(IllegalMove) as caught:
        play_card(state, seat, parse_card(name))
    assert play_refusal(state, seat, parse_card(name)) is not None
    return caught.value


def names(mask: int) -> set[str]:
    return {card_name(card) for card in cards_in(mask)}


def test_left_of_the_dealer_leads_the_first_trick() -> None:
    for dealer in range(4):
        assert playing(TRUMP_DEAL, dealer=dealer).turn == (dealer + 1) % 4


def test_first_lead_left_of_dealer_is_any_non_spade() -> None:
    state = playing(TRUMP_DEAL)
    assert names(legal_card_mask(state)) == {
        "2C",
        "2D",
        "3D",
        "4D",
        "5D",
        "6D",
        "7D",
        "8D",
        "9D",
        "TD",
        "JD",
        "QD",
        "KD",
    }


def test_follow_suit_when_able() -> None:
    state = playing(TRUMP_DEAL)
    play(state, "2C", "AH")  # east holds no club: anything goes
    error = refusal(state, SOUTH, "AD")
    assert (error.code, error.message) == (
        "must_follow_suit",
        "You must follow suit: you hold a club.",
    )
    assert legal_cards(state) == [parse_card("3C")]


@pytest.mark.parametrize(
    ("lead", "suit_word"),
    [("AH", "heart"), ("AD", "diamond"), ("AC", "club"), ("AS", "spade")],
)
def test_the_follow_suit_sentence_names_the_suit_led(lead: str, suit_word: str) -> None:
    state = playing(deal_of(north="AH AD AC AS", east="KH KD KC KS 2H 2D 2C 2S"), rules=NO_BREAK)
    play(state, lead)
    off_suit = next(c for c in ("2H", "2D", "2C", "2S") if c[1] != lead[1])
    assert (
        refusal(state, EAST, off_suit).message == f"You must follow suit: you hold a {suit_word}."
    )


def test_highest_card_of_the_suit_led_wins_when_no_spade_is_played() -> None:
    state = playing(TRUMP_DEAL)
    play(state, "2C", "AH", "3C", "4C")
    assert state.trick_winners == [WEST]  # the ace of hearts is off-suit
    assert state.tricks_won == [0, 0, 0, 1]
    assert state.turn == WEST and state.leader == WEST  # the winner leads next


def test_spades_are_trumps_and_the_highest_spade_wins() -> None:
    state = playing(TRUMP_DEAL)
    play(state, "2C", "AH", "3C", "4C")
    play(state, "5C", "2D", "2H")
    assert current_winner(state) == WEST
    play(state, "2S")  # south is out of clubs and trumps
    assert state.trick_winners[-1] == SOUTH
    # Several spades on one trick: the highest takes it.
    state = playing(deal_of(north="3S", east="KS", south="2S", west="4S AS"), rules=NO_BREAK)
    play(state, "3S", "KS", "2S", "4S")
    assert state.trick_winners == [EAST]
    # A spade beats the aces of the other suits.
    state = playing(suit_per_seat(), dealer=WEST)
    play(state, "2C", "AD", "AH", "2S")
    assert state.trick_winners == [WEST]


def test_spades_cannot_be_led_until_broken() -> None:
    state = playing(TRUMP_DEAL)
    play(state, "2C", "AH", "3C", "4C")
    assert not state.spades_broken
    error = refusal(state, WEST, "AS")
    assert (error.code, error.message) == (
        "spades_not_broken",
        "Spades have not been broken yet: lead another suit until a spade has been played.",
    )
    assert names(legal_card_mask(state)) == names(state.hands[WEST]) - {"AS", "KS"}
    play(state, "5C", "2D", "2H", "2S")
    assert state.spades_broken
    assert play_refusal(state, SOUTH, parse_card("3S")) is None  # south now leads a spade
    play(state, "3S")


def test_a_leader_holding_only_spades_may_lead_one_before_they_are_broken() -> None:
    state = playing(suit_per_seat(), dealer=SOUTH)  # west leads and holds only spades
    assert state.turn == WEST
    assert legal_card_mask(state) == state.hands[WEST]
    play(state, "2S")
    assert state.spades_broken


def test_with_breaking_spades_off_spades_may_be_led_anytime_even_first() -> None:
    state = playing(TRUMP_DEAL, rules=NO_BREAK)
    south_first = playing(TRUMP_DEAL, rules=NO_BREAK, dealer=EAST)
    assert south_first.turn == SOUTH
    assert play_refusal(south_first, SOUTH, parse_card("QS")) is None
    play(south_first, "QS")
    play(state, "2C", "AH", "3C", "4C")
    assert legal_card_mask(state) == state.hands[WEST]
    play(state, "AS")


def test_first_lead_two_of_clubs_goes_to_its_holder() -> None:
    rules = Rules(first_lead="two_of_clubs")
    for dealer in range(4):
        state = playing(TRUMP_DEAL, rules=rules, dealer=dealer)
        assert state.turn == NORTH == state.first_leader
        assert legal_cards(state) == [parse_card("2C")]
    error = refusal(state, NORTH, "KD")
    assert (error.code, error.message) == (
        "must_lead_two_of_clubs",
        "The first trick must be led with the two of clubs.",
    )
    play(state, "2C", "AH", "3C", "4C")
    assert state.turn == WEST and play_refusal(state, WEST, parse_card("5C")) is None


def test_two_of_clubs_holder_leads_even_when_left_of_dealer_is_someone_else() -> None:
    state = playing(deal_of(west="2C"), rules=Rules(first_lead="two_of_clubs"), dealer=WEST)
    assert state.turn == WEST


def test_out_of_turn_not_held_and_out_of_phase_plays_are_refused() -> None:
    state = new_hand(STANDARD, TRUMP_DEAL, WEST)
    assert refusal(state, NORTH, "2C").message == (
        "Bidding is not over yet: cards are played after all four bids."
    )
    for _ in range(4):
        place_bid(state, state.turn, 3)
    error = refusal(state, EAST, "AH")
    assert (error.code, error.message) == (
        "not_your_turn",
        "It is north's turn to play, not east's.",
    )
    error = refusal(state, NORTH, "AH")
    assert (error.code, error.message) == ("card_not_held", "You do not hold the ace of hearts.")
    assert legal_card_mask(new_hand(STANDARD, TRUMP_DEAL, WEST)) == 0


def test_thirteen_tricks_complete_the_hand() -> None:
    state = playing(suit_per_seat(), dealer=WEST)
    for _ in range(13):
        for _ in range(4):
            play_card(state, state.turn, legal_cards(state)[0])
    assert state.phase == COMPLETE
    assert state.trick_winners == [WEST] * 13
    assert state.tricks_won == [0, 0, 0, 13]
    assert len(state.plays) == 52 and len(set(state.plays)) == 52
    error = refusal(state, WEST, "AS")
    assert (error.code, error.message) == (
        "hand_over",
        "This hand is over: all 13 tricks have been played.",
    )


def test_card_refusals_explain_every_card_that_cannot_be_played() -> None:
    state = playing(TRUMP_DEAL)
    play(state, "2C", "AH")
    reasons = card_refusals(state, SOUTH)
    assert set(reasons) == set(cards_in(state.hands[SOUTH])) - {parse_card("3C")}
    assert set(reasons.values()) == {"You must follow suit: you hold a club."}
    assert {move.card for move in legal_moves(state) if move.kind == PLAY} == {parse_card("3C")}


def test_play_seats_follow_the_trick_winners() -> None:
    state = playing(TRUMP_DEAL)
    play(state, "2C", "AH", "3C", "4C", "5C", "2D", "2H", "2S")
    assert state.play_seats() == [NORTH, EAST, SOUTH, WEST, WEST, NORTH, EAST, SOUTH]
