from __future__ import annotations

import pytest

from games.engine.bidding import (
    bid_label,
    bid_refusal,
    legal_bids,
    look_at_cards,
    may_bid_blind_nil,
    parse_bid,
    place_bid,
)
from games.engine.errors import IllegalMove
from games.engine.hand import NO_BID, PASSING, PLAYING, new_hand
from games.engine.moves import BID, BLIND_NIL, Move, apply_move, legal_moves
from games.engine.rules import Rules, rules_from_spec

from .deals import STANDARD, suit_per_seat

BLIND = rules_from_spec({"blind_nil": True})


def refused(action: object, code: str) -> IllegalMove:
    assert callable(action)
    with pytest.raises(IllegalMove) as caught:
        action()
    assert caught.value.code == code
    return caught.value


@pytest.mark.parametrize(
    ("dealer", "order"), [(3, [0, 1, 2, 3]), (0, [1, 2, 3, 0]), (2, [3, 0, 1, 2])]
)
def test_bidding_goes_clockwise_from_the_dealers_left(dealer: int, order: list[int]) -> None:
    state = new_hand(STANDARD, suit_per_seat(), dealer)
    seen = []
    for _ in range(4):
        seen.append(state.turn)
        place_bid(state, state.turn, 3)
    assert seen == order
    assert state.phase == PLAYING


def test_a_bid_out_of_turn_is_refused_naming_whose_turn_it_is() -> None:
    state = new_hand(STANDARD, suit_per_seat(), 3)
    error = refused(lambda: place_bid(state, 1, 4), "not_your_turn")
    assert error.message == "It is north's turn to bid, not east's."
    assert state.bids == [NO_BID] * 4


def test_each_player_bids_once_and_bidding_then_closes() -> None:
    state = new_hand(STANDARD, suit_per_seat(), 3)
    for seat in range(4):
        place_bid(state, seat, seat + 1)
    assert state.bids == [1, 2, 3, 4]
    error = refused(lambda: place_bid(state, 0, 5), "not_bidding")
    assert error.message == "Bidding is over for this hand."


@pytest.mark.parametrize("bid", [-1, 14])
def test_bids_run_from_0_to_13(bid: int) -> None:
    state = new_hand(STANDARD, suit_per_seat(), 3)
    error = refused(lambda: place_bid(state, 0, bid), "bid_out_of_range")
    assert error.message == f"Bids run from 0 to 13; {bid} is not a bid."
    place_bid(state, 0, 13)


def test_nil_is_a_bid_of_zero_when_nil_is_on() -> None:
    state = new_hand(STANDARD, suit_per_seat(), 3)
    assert legal_bids(state, 0) == list(range(14))
    place_bid(state, 0, 0)
    assert state.bids[0] == 0 and not state.blind[0]


def test_with_nil_off_the_minimum_bid_is_one() -> None:
    state = new_hand(Rules(nil=False), suit_per_seat(), 3)
    assert legal_bids(state, 0) == list(range(1, 14))
    error = refused(lambda: place_bid(state, 0, 0), "nil_off")
    assert error.message == "Nil is not played at this table: bid at least 1."
    assert legal_bids(state, 1) == []  # not east's turn


def test_parse_bid_reads_numbers_nil_and_blind_nil() -> None:
    assert parse_bid(4) == (4, False)
    assert parse_bid("nil") == (0, False)
    assert parse_bid(0) == (0, False)
    assert parse_bid("blind_nil") == (0, True)
    assert [bid_label(4, False), bid_label(0, False), bid_label(0, True)] == [4, "nil", "blind_nil"]
    for bad in ("4", True, 2.0, None, "Nil"):
        with pytest.raises(IllegalMove, match="A bid is a number from 0 to 13"):
            parse_bid(bad)
    with pytest.raises(IllegalMove, match="14 is not a bid"):
        parse_bid(14)


def test_blind_nil_off_is_refused() -> None:
    state = new_hand(STANDARD, suit_per_seat(), 3, team_scores=(0, 300))
    assert not may_bid_blind_nil(state, 0)
    error = refused(lambda: place_bid(state, 0, 0, blind=True), "blind_nil_off")
    assert error.message == "Blind nil is not played at this table."


@pytest.mark.parametrize(
    ("scores", "eligible"),
    [
        ((0, 0), [False] * 4),
        ((0, 100), [True, False, True, False]),
        ((0, 99), [False] * 4),
        ((250, 100), [False, True, False, True]),
    ],
)
def test_blind_nil_needs_the_team_behind_by_the_minimum_deficit_when_the_hand_starts(
    scores: tuple[int, int], eligible: list[bool]
) -> None:
    state = new_hand(BLIND, suit_per_seat(), 3, team_scores=scores)
    assert state.blind_eligible == eligible
    # Only an eligible seat has not seen its cards yet.
    assert state.looked == [not flag for flag in eligible]


def test_blind_nil_refused_when_not_far_enough_behind() -> None:
    state = new_hand(BLIND, suit_per_seat(), 3, team_scores=(0, 60))
    error = refused(lambda: place_bid(state, 0, 0, blind=True), "blind_nil_not_behind")
    assert error.message == (
        "Blind nil is only allowed when your team is at least 100 points behind "
        "at the start of the hand."
    )


def test_blind_nil_min_deficit_is_an_option() -> None:
    rules = rules_from_spec({"blind_nil": True, "blind_nil_min_deficit": 50})
    state = new_hand(rules, suit_per_seat(), 3, team_scores=(0, 60))
    assert may_bid_blind_nil(state, 0)


def test_blind_nil_only_before_looking() -> None:
    state = new_hand(BLIND, suit_per_seat(), 3, team_scores=(0, 200))
    assert may_bid_blind_nil(state, 0)
    look_at_cards(state, 0)
    assert not may_bid_blind_nil(state, 0)
    error = refused(lambda: place_bid(state, 0, 0, blind=True), "blind_nil_after_looking")
    assert error.message == (
        "Blind nil must be bid before looking at your cards, and you have looked."
    )
    # South, who has not looked, still may when its turn comes.
    assert may_bid_blind_nil(state, 2)


def test_an_ordinary_bid_means_the_player_has_looked() -> None:
    state = new_hand(BLIND, suit_per_seat(), 3, team_scores=(0, 200))
    place_bid(state, 0, 4)
    assert state.looked[0]
    place_bid(state, 1, 4)
    assert may_bid_blind_nil(state, 2)  # south has not looked yet
    assert bid_refusal(state, 2, 0, True) is None


def test_after_a_blind_nil_the_bidder_and_partner_owe_a_pass() -> None:
    state = new_hand(BLIND, suit_per_seat(), 3, team_scores=(0, 200))
    place_bid(state, 0, 0, blind=True)
    assert state.bids[0] == 0 and state.blind[0]
    for seat in (1, 2, 3):
        place_bid(state, seat, 4)
    assert state.phase == PASSING
    assert state.pass_owed == [True, False, True, False]
    assert state.looked == [True] * 4


def test_legal_moves_while_bidding_include_blind_nil_only_when_allowed() -> None:
    state = new_hand(BLIND, suit_per_seat(), 3, team_scores=(0, 200))
    moves = legal_moves(state)
    assert Move(BLIND_NIL, 0) in moves
    assert [move.bid for move in moves if move.kind == BID] == list(range(14))
    apply_move(state, Move(BLIND_NIL, 0))
    assert state.blind[0]
    assert Move(BLIND_NIL, 1) not in legal_moves(state)  # east's team is ahead
    with pytest.raises(IllegalMove, match="'shout' is not a move"):
        apply_move(state, Move("shout", 1))


def test_a_blind_nil_is_always_zero_tricks() -> None:
    state = new_hand(BLIND, suit_per_seat(), 3, team_scores=(0, 200))
    error = refused(lambda: place_bid(state, 0, 3, blind=True), "bad_bid")
    assert error.message == "Blind nil is a bid of zero tricks."
