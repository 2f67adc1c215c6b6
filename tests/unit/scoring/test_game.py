from __future__ import annotations

import random

import pytest

from games.engine.bidding import place_bid
from games.engine.deal import shuffled_deck
from games.engine.errors import IllegalMove
from games.engine.hand import BIDDING, COMPLETE, PLAYING
from games.engine.play import legal_cards, play_card
from games.engine.rules import Rules, rules_from_spec
from scoring.core.game import Game
from tests.unit.engine.deals import suit_per_seat
from tests.unit.engine.random_play import play_random_hand


def finish_with_bids(game: Game, bids: tuple[int, int, int, int]) -> None:
    """Bid (north first) and play the current suit-per-seat hand: west takes all 13."""
    state = game.current
    assert state is not None
    while state.phase == BIDDING:
        place_bid(state, state.turn, bids[state.turn])
    while state.phase == PLAYING:
        play_card(state, state.turn, legal_cards(state)[0])
    game.score_if_complete()


def test_the_deal_passes_clockwise() -> None:
    game = Game(Rules(), first_dealer=2)
    dealers = []
    for number in range(1, 6):
        state = game.deal(shuffled_deck("rotation", number))
        dealers.append(state.dealer)
        assert state.hand_number == number
        play_random_hand(state, random.Random(number))
        game.score_if_complete()
    assert dealers == [2, 3, 0, 1, 2]
    assert game.next_dealer == 3


def test_a_hand_dealt_by_the_wrong_seat_is_refused() -> None:
    game = Game(Rules(), first_dealer=0)
    with pytest.raises(IllegalMove) as caught:
        game.start_hand(suit_per_seat(), dealer=1)
    assert caught.value.code == "wrong_dealer"
    assert caught.value.message == "The deal passes clockwise: north deals this hand, not east."
    assert game.hands == []


def test_no_new_hand_while_one_is_in_progress_or_after_the_game() -> None:
    game = Game(rules_from_spec({"target_score": 100}), first_dealer=3)
    game.start_hand(suit_per_seat())
    with pytest.raises(IllegalMove, match="The current hand is not finished yet."):
        game.start_hand(suit_per_seat())
    assert game.score_if_complete() is None  # nothing to score yet
    finish_with_bids(game, (1, 1, 1, 10))  # east-west bid 11, take 13: 112
    assert game.finished and game.ledger.winner == 1
    assert game.score_if_complete() is None  # a hand is scored once
    assert len(game.ledger.hands) == 1
    refusal = game.can_deal()
    assert refusal is not None and refusal.code == "game_over"
    with pytest.raises(IllegalMove, match="The game is over: no more hands are dealt."):
        game.start_hand(suit_per_seat(), dealer=0)


def test_blind_nil_eligibility_comes_from_the_totals_before_the_hand() -> None:
    game = Game(rules_from_spec({"blind_nil": True}), first_dealer=3)
    game.start_hand(suit_per_seat())
    finish_with_bids(game, (1, 1, 1, 10))  # north-south set: -20
    assert game.ledger.totals == [-20, 112]
    state = game.start_hand(suit_per_seat())
    assert state.blind_eligible == [True, False, True, False]
    assert state.phase == BIDDING


def test_a_completed_hand_is_complete_and_scored_into_the_ledger() -> None:
    game = Game(Rules(), first_dealer=3)
    game.start_hand(suit_per_seat())
    finish_with_bids(game, (2, 3, 4, 5))
    assert game.current is not None and game.current.phase == COMPLETE
    result = game.ledger.hands[0]
    assert [team.hand_score for team in result.teams] == [-60, 85]  # set 6; 80 + 5 bags
