from __future__ import annotations

import hashlib

import pytest

from games.engine.cards import FULL_DECK, card_name
from games.engine.deal import DealError, check_deck, deal_deck, hands_from_lists, shuffled_deck


def reference_shuffle(seed: str, hand_number: int) -> list[int]:
    """docs/formats.md's shuffle, written again from the text only."""
    words: list[int] = []
    counter = 0

    def next_word() -> int:
        nonlocal counter
        if not words:
            digest = hashlib.sha256(f"{seed}|{hand_number}|{counter}".encode()).digest()
            counter += 1
            words.extend(int.from_bytes(digest[i : i + 4], "big") for i in range(0, 32, 4))
        return words.pop(0)

    deck = list(range(52))
    for top in range(51, 0, -1):
        bound = top + 1
        limit = 2**32 - 2**32 % bound
        while (value := next_word()) >= limit:
            pass
        other = value % bound
        deck[top], deck[other] = deck[other], deck[top]
    return deck


@pytest.mark.parametrize(("seed", "hand"), [("spades", 1), ("spades", 2), ("42", 7), ("é", 1)])
def test_the_shuffle_matches_the_documented_algorithm(seed: str, hand: int) -> None:
    assert shuffled_deck(seed, hand) == reference_shuffle(seed, hand)


def test_the_shuffle_is_pinned_so_old_seeds_keep_their_deals() -> None:
    first = [card_name(card) for card in shuffled_deck("spades", 1)[:8]]
    assert first == ["5D", "7C", "2S", "4S", "QD", "4H", "6D", "6H"]


def test_the_same_seed_and_hand_give_the_same_deck_and_others_differ() -> None:
    deck = shuffled_deck("table-17", 3)
    assert deck == shuffled_deck("table-17", 3)
    assert sorted(deck) == list(range(52))
    assert deck != shuffled_deck("table-17", 4)
    assert deck != shuffled_deck("table-18", 3)


def test_integer_seeds_are_their_decimal_text() -> None:
    assert shuffled_deck(42, 3) == shuffled_deck("42", 3) == shuffled_deck(b"42", 3)


def test_dealing_starts_left_of_the_dealer_one_card_at_a_time() -> None:
    deck = list(range(52))
    hands = deal_deck(deck, dealer=3)  # west deals: north gets the first card
    assert hands[0] >> 0 & 1 and hands[1] >> 1 & 1 and hands[2] >> 2 & 1 and hands[3] >> 3 & 1
    assert all(hand.bit_count() == 13 for hand in hands)
    assert hands[0] | hands[1] | hands[2] | hands[3] == FULL_DECK
    assert deal_deck(deck, dealer=0)[1] >> 0 & 1  # north deals: east first


@pytest.mark.parametrize("deck", [list(range(51)), list(range(51)) + [0], list(range(53))])
def test_a_deck_that_is_not_the_52_cards_is_refused(deck: list[int]) -> None:
    with pytest.raises(DealError, match="52 cards exactly once"):
        check_deck(deck)


def test_explicit_hands_must_be_four_times_13_distinct_cards() -> None:
    good = [list(range(seat * 13, seat * 13 + 13)) for seat in range(4)]
    assert hands_from_lists(good)[3] == 0x1FFF << 39
    with pytest.raises(DealError, match="four hands"):
        hands_from_lists(good[:3])
    with pytest.raises(DealError, match="13 different cards"):
        hands_from_lists([good[0][:12], *good[1:]])
    with pytest.raises(DealError, match="more than one hand"):
        hands_from_lists([good[0], good[0], good[2], good[3]])
