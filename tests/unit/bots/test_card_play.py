"""Normal's (and where it must agree, Hard's and Easy's) card play on constructed positions."""

from __future__ import annotations

from dataclasses import replace

import pytest

from games.engine.hand import HandState
from games.engine.rules import Rules
from tests.unit.bots.positions import STANDARD, build, played

NORTH, EAST, SOUTH, WEST = 0, 1, 2, 3


class TestPartnerWinning:
    def test_last_seat_does_not_overtake_partners_ace(self) -> None:
        # East leads, south's ace is winning; north (last) keeps the king.
        state = build(
            {EAST: "5H", SOUTH: "AH", WEST: "7H", NORTH: "KH 3H"},
            bids={EAST: 3, SOUTH: 4, WEST: 3, NORTH: 3},
            plays="5H AH 7H",
            dealer=NORTH,
            avoid={NORTH: "H"},
        )
        assert played("normal", state) == "3H"
        assert played("hard", state) == "3H"

    def test_third_seat_plays_low_under_partners_boss(self) -> None:
        state = build(
            {NORTH: "AH", EAST: "4H", SOUTH: "KH 2H"},
            bids={NORTH: 4, EAST: 3, SOUTH: 3, WEST: 3},
            plays="AH 4H",
            avoid={SOUTH: "H"},
        )
        assert played("normal", state) == "2H"

    def test_easy_grabs_anyway(self) -> None:
        state = build(
            {EAST: "5H", SOUTH: "AH", WEST: "7H", NORTH: "KH 3H"},
            bids={EAST: 3, SOUTH: 4, WEST: 3, NORTH: 3},
            plays="5H AH 7H",
            dealer=NORTH,
            avoid={NORTH: "H"},
        )
        # Easy cannot beat the ace, so it plays low too; against a low card it grabs.
        assert played("easy", state) == "3H"
        grab = build(
            {EAST: "5H", SOUTH: "9H", WEST: "7H", NORTH: "KH 3H"},
            bids={EAST: 3, SOUTH: 4, WEST: 3, NORTH: 3},
            plays="5H 9H 7H",
            dealer=NORTH,
            avoid={NORTH: "H"},
        )
        assert played("easy", grab) == "KH"
        assert played("normal", grab) == "3H"


def _made_contract(
    third_card: str,
    south: str,
    rules: Rules = STANDARD,
    bids: tuple[int, int, int, int] = (1, 3, 1, 3),
) -> HandState:
    # North wins the first two tricks: with bids of 1 and 1 north-south have made it.
    return build(
        {
            NORTH: "AC AD 5H",
            EAST: f"2C 2D {third_card}",
            SOUTH: f"3C 3D {south}",
            WEST: "4C 4D",
        },
        bids=dict(enumerate(bids)),
        plays=f"AC 2C 3C 4C AD 2D 3D 4D 5H {third_card}",
        rules=rules,
        avoid={SOUTH: "H"},
    )


class TestContractMade:
    def test_plays_just_under_the_winning_card(self) -> None:
        state = _made_contract("QH", "KH JH 4H")
        assert played("normal", state) == "JH"

    def test_dumps_high_card_on_a_trick_it_will_not_win(self) -> None:
        state = _made_contract("KH", "QH JH 4H")
        assert played("normal", state) == "QH"

    def test_still_needing_tricks_it_plays_to_win(self) -> None:
        state = _made_contract("QH", "KH JH 4H", bids=(4, 3, 4, 2))
        assert played("normal", state) == "KH"

    def test_without_bag_penalty_extra_tricks_are_taken(self) -> None:
        state = _made_contract("QH", "KH JH 4H", rules=replace(STANDARD, bag_penalty=False))
        assert played("normal", state) == "KH"


class TestPartnersNil:
    def test_covers_high_before_the_nil_bidder_plays(self) -> None:
        state = build(
            {EAST: "9C", SOUTH: "KC 5C", WEST: "AC"},
            bids={EAST: 3, SOUTH: 4, WEST: 3, NORTH: "nil"},
            plays="9C",
            dealer=NORTH,
            avoid={SOUTH: "C"},
        )
        assert played("normal", state) == "KC"

    def test_without_a_nil_to_cover_second_hand_plays_low(self) -> None:
        state = build(
            {EAST: "9C", SOUTH: "KC 5C", WEST: "AC"},
            bids={EAST: 3, SOUTH: 4, WEST: 3, NORTH: 3},
            plays="9C",
            dealer=NORTH,
            avoid={SOUTH: "C"},
        )
        assert played("normal", state) == "5C"

    def test_overtakes_the_nil_bidder_who_is_winning(self) -> None:
        state = build(
            {WEST: "3D", NORTH: "9D", EAST: "5D", SOUTH: "TD 2D"},
            bids={WEST: 3, NORTH: "nil", EAST: 3, SOUTH: 4},
            plays="3D 9D 5D",
            dealer=SOUTH,
            avoid={SOUTH: "D"},
        )
        assert played("normal", state) == "TD"

    def test_nil_bidder_stays_under_with_its_highest_safe_card(self) -> None:
        state = build(
            {WEST: "8D", NORTH: "9D 7D 2D"},
            bids={WEST: 3, NORTH: "nil", EAST: 3, SOUTH: 4},
            plays="8D",
            dealer=SOUTH,
            avoid={NORTH: "D"},
        )
        assert played("normal", state) == "7D"


NORTH_HAND = "AC KC 8C 2H 5H 7H 9D TD QD 4D 6S 7S 8S"


class TestAttackingNil:
    def test_leads_low_in_a_suit_the_nil_bidder_holds(self) -> None:
        state = build({NORTH: NORTH_HAND}, bids={NORTH: 3, EAST: "nil", SOUTH: 3, WEST: 3})
        assert played("normal", state) == "2H"

    def test_without_a_nil_it_cashes_its_ace(self) -> None:
        state = build({NORTH: NORTH_HAND}, bids={NORTH: 3, EAST: 3, SOUTH: 3, WEST: 3})
        assert played("normal", state) == "AC"

    def test_leads_low_in_another_suit_once_the_nil_bidder_shows_out(self) -> None:
        # East (nil) discards on hearts: north's low heart can no longer hurt it.
        state = build(
            {NORTH: "AH 2H 5H 3D 9D TD QD KC AC 8C 6S 7S 8S", EAST: "3C", SOUTH: "4H", WEST: "6H"},
            bids={NORTH: 3, EAST: "nil", SOUTH: 3, WEST: 3},
            plays="AH 3C 4H 6H",
            avoid={EAST: "H"},
        )
        assert state.turn == NORTH
        assert played("normal", state) == "3D"

    def test_lets_the_nil_bidder_win_and_dumps_under_it(self) -> None:
        state = build(
            {EAST: "9C", SOUTH: "TC 8C 4C"},
            bids={EAST: "nil", SOUTH: 3, WEST: 3, NORTH: 3},
            plays="9C",
            dealer=NORTH,
            avoid={SOUTH: "C"},
        )
        assert played("normal", state) == "8C"
        no_nil = build(
            {EAST: "9C", SOUTH: "TC 8C 4C"},
            bids={EAST: 3, SOUTH: 3, WEST: 3, NORTH: 3},
            plays="9C",
            dealer=NORTH,
            avoid={SOUTH: "C"},
        )
        assert played("normal", no_nil) == "4C"


class TestVoidsAndTrumps:
    def test_trumps_an_opponents_winner_with_its_lowest_spade(self) -> None:
        state = build(
            {EAST: "KC", SOUTH: "3S 9S"},
            bids={EAST: 3, SOUTH: 4, WEST: 3, NORTH: 4},
            plays="KC",
            dealer=NORTH,
            avoid={SOUTH: "CS"},
        )
        assert played("normal", state) == "3S"

    def test_leads_a_singleton_to_make_a_void_when_holding_spades(self) -> None:
        state = build(
            {NORTH: "7D 2S 5S 9S 3C 5C 8C TC 4H 6H 8H TH JH"},
            bids={NORTH: 4, EAST: 3, SOUTH: 4, WEST: 2},
        )
        assert played("normal", state) == "7D"


SPADE_HAND = "AS KS QS JS 3H 4H 5H 6H 7H 2D 3D 4D 5D"


class TestPresetPlay:
    @pytest.mark.parametrize("level", ["easy", "normal", "hard"])
    def test_first_lead_is_the_two_of_clubs(self, level: str) -> None:
        rules = replace(STANDARD, first_lead="two_of_clubs")
        state = build({EAST: "2C"}, bids={NORTH: 3, EAST: 3, SOUTH: 3, WEST: 3}, rules=rules)
        assert state.turn == EAST
        assert played(level, state) == "2C"

    @pytest.mark.parametrize("level", ["easy", "normal", "hard"])
    def test_no_spade_lead_before_spades_are_broken(self, level: str) -> None:
        state = build({NORTH: SPADE_HAND}, bids={NORTH: 4, EAST: 3, SOUTH: 3, WEST: 3})
        assert not played(level, state).endswith("S")

    def test_without_breaking_spades_normal_leads_its_top_spade(self) -> None:
        rules = replace(STANDARD, breaking_spades=False)
        state = build({NORTH: SPADE_HAND}, bids={NORTH: 4, EAST: 3, SOUTH: 3, WEST: 3}, rules=rules)
        assert played("normal", state) == "AS"
