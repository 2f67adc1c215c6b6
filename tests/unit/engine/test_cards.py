from __future__ import annotations

import pytest

from games.engine.cards import (
    DECK_SIZE,
    CardError,
    card_name,
    card_words,
    cards_in,
    mask_of,
    names_in,
    parse_card,
    parse_cards,
    rank_of,
    suit_of,
)


@pytest.mark.parametrize(
    ("text", "name"),
    [("AS", "AS"), ("as", "AS"), ("TD", "TD"), ("10D", "TD"), ("10d", "TD"), (" 2c ", "2C")],
)
def test_card_names_are_read_case_insensitively_and_10_means_t(text: str, name: str) -> None:
    assert card_name(parse_card(text)) == name


def test_card_numbers_are_suit_times_13_plus_rank() -> None:
    assert parse_card("2C") == 0
    assert parse_card("AC") == 12
    assert parse_card("2D") == 13
    assert parse_card("AS") == 51
    assert (suit_of(parse_card("QH")), rank_of(parse_card("QH"))) == (2, 10)


def test_every_card_name_round_trips() -> None:
    names = [card_name(card) for card in range(DECK_SIZE)]
    assert len(set(names)) == DECK_SIZE
    assert [parse_card(name) for name in names] == list(range(DECK_SIZE))


@pytest.mark.parametrize("text", ["", "A", "1S", "11S", "AX", "ASS", "ZS", "10", "S A"])
def test_bad_card_names_are_refused_with_an_example_of_a_good_one(text: str) -> None:
    with pytest.raises(CardError, match=r"is not a card: write a rank .* like 'AS' or '10D'"):
        parse_card(text)


@pytest.mark.parametrize("value", [51, None, ["AS"]])
def test_non_text_cards_are_refused(value: object) -> None:
    with pytest.raises(CardError, match="A card must be written as text"):
        parse_card(value)  # type: ignore[arg-type]


def test_card_words_for_messages() -> None:
    assert card_words(parse_card("AS")) == "the ace of spades"
    assert card_words(parse_card("10H")) == "the ten of hearts"


def test_masks_and_lists_round_trip_and_display_spades_first_high_to_low() -> None:
    hand = parse_cards(["2C", "AS", "TD", "KS", "3H"])
    mask = mask_of(hand)
    assert mask.bit_count() == 5
    assert cards_in(mask) == sorted(hand)
    assert names_in(mask) == ["AS", "KS", "3H", "TD", "2C"]


def test_a_card_written_twice_is_refused() -> None:
    with pytest.raises(CardError, match="TD appears twice"):
        parse_cards(["TD", "AS", "10D"])
