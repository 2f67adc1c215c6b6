"""Bids, blind nil, passing and the bid suggestion, following the table's rules."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bots.strategies.bidding import count_tricks
from bots.strategies.decision import Decision, NothingToDecide
from bots.strategies.registry import strategy_of_version
from bots.suggestion import BidSuggestion, suggest_bid
from games.engine.bidding import place_bid
from games.engine.cards import mask_of, parse_cards
from games.engine.deal import deal_deck, shuffled_deck
from games.engine.hand import PASSING, new_hand
from games.engine.rules import PRESETS, Rules
from games.engine.view import seat_view
from tests.unit.bots.positions import STANDARD, build, decide, strategy, view_of

NORTH, EAST, SOUTH, WEST = 0, 1, 2, 3
LEVELS = ["easy", "normal", "hard"]

WEAK = "2C 3C 4C 6C 5D 6D 7D 2H 3H 4H 5H 2S 3S"
THREE_KINGS = "KC 5C 6C 2C KD 7D 8D KH 9H 3H AS 4S 5S"
THREE_AND_A_HALF = "AS 4S 5S AC 3C 4C 6C 7C KD 2D KH 3H 4H"


def _bid(
    level: str, hand: str, rules: Rules = STANDARD, bags: tuple[int, int] = (0, 0)
) -> Decision:
    """The bid of ``level`` holding ``hand`` as east, after north bid 3."""
    state = build({EAST: hand}, bids={NORTH: 3}, rules=rules, dealer=WEST)
    assert state.turn == EAST
    return decide(level, state, bags=bags)


class TestNil:
    def test_normal_bids_nil_on_a_hand_with_nothing(self) -> None:
        assert _bid("normal", WEAK) == Decision.bid(0)

    @pytest.mark.parametrize("level", LEVELS)
    def test_nil_off_never_bids_zero(self, level: str) -> None:
        decision = _bid(level, WEAK, rules=PRESETS["easy"])
        assert decision.kind == "bid"
        assert decision.tricks >= 1

    def test_no_nil_when_the_partner_already_bid_nil(self) -> None:
        # West bids first, then north (partner of south) bids nil; south holds nothing.
        state = build({SOUTH: WEAK}, bids={NORTH: "nil", EAST: 3}, dealer=WEST)
        assert state.turn == SOUTH
        assert decide("normal", state).tricks >= 1


class TestCounting:
    def test_counts_aces_protected_kings_and_spades(self) -> None:
        count = count_tricks(mask_of(parse_cards(THREE_KINGS.split())))
        assert count.total == pytest.approx(3.25)
        assert set(count.counted) == set(parse_cards(["KC", "KD", "KH", "AS"]))

    def test_bids_a_little_low(self) -> None:
        assert _bid("normal", THREE_AND_A_HALF) == Decision.bid(3)

    def test_listens_to_a_partner_who_bid_high(self) -> None:
        # West, east's partner, bids 5 before east: east's kings are worth less.
        alone = build({EAST: THREE_KINGS}, bids={}, dealer=NORTH)
        assert decide("normal", alone).tricks == 3
        after_partner = build({EAST: THREE_KINGS}, bids={WEST: 5, NORTH: 3}, dealer=SOUTH)
        assert after_partner.turn == EAST
        assert decide("normal", after_partner).tricks == 2

    def test_bids_exactly_with_seven_or_more_bags(self) -> None:
        assert _bid("normal", THREE_AND_A_HALF, bags=(0, 8)).tricks == 4

    def test_bags_do_not_matter_without_a_bag_penalty(self) -> None:
        rules = replace(STANDARD, bag_penalty=False)
        assert _bid("normal", THREE_AND_A_HALF, bags=(0, 8), rules=rules).tricks == 3

    def test_bids_up_when_a_set_only_scores_zero(self) -> None:
        assert _bid("normal", THREE_AND_A_HALF, rules=PRESETS["bicycle"]).tricks == 4


BLIND = replace(STANDARD, blind_nil=True)


class TestBlindNil:
    """The expected-value rule itself: tests/unit/bots/test_blind_nil.py."""

    @pytest.mark.parametrize("level", ["normal", "hard"])
    def test_revision_1_bid_blind_nil_far_behind(self, level: str) -> None:
        # Kept for replay: normal-1 and hard-1 bid blind nil 200 behind, first to bid.
        state = build({}, rules=BLIND, totals=(0, 250))
        assert state.turn == NORTH
        old = strategy_of_version(f"{level}-1")
        assert old is not None
        assert old.decide(view_of(state, totals=(0, 250)), 0) == Decision.bid(0, blind=True)

    @pytest.mark.parametrize("level", LEVELS)
    def test_first_to_bid_far_behind_looks_first(self, level: str) -> None:
        # Not worth it with nothing known of the partner's hand (gain under the threshold).
        state = build({}, rules=BLIND, totals=(0, 250))
        assert decide(level, state, totals=(0, 250)) == Decision.look()

    @pytest.mark.parametrize("level", ["normal", "hard"])
    def test_after_a_partners_5_bids_blind_nil(self, level: str) -> None:
        state = build({}, bids={NORTH: 5, EAST: 2}, rules=BLIND, totals=(0, 150))
        assert state.turn == SOUTH
        assert decide(level, state, totals=(0, 150)) == Decision.bid(0, blind=True)

    @pytest.mark.parametrize("level", LEVELS)
    def test_a_little_behind_looks_first(self, level: str) -> None:
        state = build({}, rules=BLIND, totals=(0, 120))
        assert decide(level, state, totals=(0, 120)) == Decision.look()

    def test_easy_1_needed_to_be_further_behind(self) -> None:
        state = build({}, rules=BLIND, totals=(0, 250))
        old = strategy_of_version("easy-1")
        assert old is not None
        assert old.decide(view_of(state, totals=(0, 250)), 0) == Decision.look()
        assert old.decide(view_of(state, totals=(0, 320)), 0) == Decision.bid(0, blind=True)

    def test_blind_nil_off_means_the_cards_are_already_seen(self) -> None:
        state = build({}, totals=(0, 400))
        assert decide("normal", state, totals=(0, 400)).kind == "bid"

    def test_passes_after_blind_nil(self) -> None:
        state = build(
            {NORTH: "AS KH 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC", SOUTH: "2D 2H 3S AD KD QD JD"},
            bids={NORTH: "blind_nil", EAST: 3, SOUTH: 5, WEST: 3},
            rules=BLIND,
            totals=(0, 250),
        )
        assert state.phase == PASSING
        assert decide("normal", state, seat=NORTH) == Decision.pass_two(*parse_cards(["KH", "AS"]))
        south = decide("normal", state, seat=SOUTH)
        assert set(south.cards) == set(parse_cards(["2D", "2H"]))
        with pytest.raises(NothingToDecide):
            decide("normal", state, seat=EAST)


class TestSuggestion:
    def test_suggests_normals_bid_and_marks_the_counted_cards(self) -> None:
        state = build({EAST: THREE_KINGS}, bids={}, dealer=NORTH)
        suggestion = suggest_bid(view_of(state))
        assert suggestion == BidSuggestion(
            3,
            tuple(sorted(parse_cards(["KC", "KD", "KH", "AS"]))),
            "Your hand counts about 3.2 tricks. Rounded down: a set costs the whole bid, a bag"
            " only 1.",
            "counted",
        )
        assert strategy("normal").decide(view_of(state), 0).tricks == suggestion.bid

    def test_counted_cards_are_in_the_hand(self) -> None:
        state = build({EAST: THREE_AND_A_HALF}, bids={}, dealer=NORTH)
        suggestion = suggest_bid(view_of(state))
        assert all(state.hands[EAST] >> card & 1 for card in suggestion.counted)

    def test_needs_the_cards_seen(self) -> None:
        state = build({}, rules=BLIND, totals=(0, 250))
        with pytest.raises(ValueError, match="Look at your cards"):
            suggest_bid(view_of(state))

    def test_a_bid_of_1_says_why_not_nil(self) -> None:
        hand = "QS 2S KH 9D 8D 7D 6D 9C 8C 7C 6C 5C 4C"
        state = build({EAST: hand}, bids={}, dealer=NORTH)
        suggestion = suggest_bid(view_of(state))
        assert suggestion.bid == 1
        assert suggestion.reason == (
            "Your hand counts about 0.7 tricks. 1 is the lowest bid here: nil is risky with the"
            " king of hearts and the queen of spades."
        )
        assert suggestion.counted and suggestion.marks == "counted"

    def test_nothing_counted_marks_the_best_chance(self) -> None:
        state = build({EAST: WEAK}, bids={}, dealer=NORTH, rules=PRESETS["easy"])
        suggestion = suggest_bid(view_of(state))
        assert suggestion.bid == 1
        assert suggestion.marks == "best_chance"
        assert suggestion.counted == tuple(parse_cards(["7D"]))  # the highest rank it holds
        assert suggestion.reason == (
            "No card in your hand counts as a trick. 1 is the lowest bid here: nil is not played"
            " at this table."
        )

    def test_no_nil_next_to_a_partners_nil_is_said(self) -> None:
        state = build({SOUTH: WEAK}, bids={NORTH: "nil", EAST: 3}, dealer=WEST)
        suggestion = suggest_bid(view_of(state))
        assert suggestion.bid == 1
        assert suggestion.reason.endswith("nil is no choice next to your partner's nil.")

    def test_nil_gives_its_reason(self) -> None:
        suggestion = suggest_bid(view_of(build({EAST: WEAK}, bids={NORTH: 3}, dealer=WEST)))
        assert suggestion == BidSuggestion(
            0, (), "No card in your hand looks likely to take a trick.", "none"
        )


@settings(max_examples=200, deadline=None)
@given(
    seed=st.integers(0, 10**9),
    nil=st.booleans(),
    before=st.lists(st.integers(0, 13), max_size=3),
    bags=st.integers(0, 9),
)
def test_every_suggestion_names_its_reason_and_marks_a_card_to_bid_for(
    seed: int, nil: bool, before: list[int], bags: int
) -> None:
    rules = replace(STANDARD, nil=nil)
    dealer = seed & 3
    state = new_hand(rules, deal_deck(shuffled_deck(seed, 1), dealer), dealer, 1)
    for bid in before:
        place_bid(state, state.turn, bid if nil else max(1, bid))
    view = seat_view(state, state.turn, (0, 0), (bags, bags))
    suggestion = suggest_bid(view)
    assert suggestion.bid == strategy("normal").decide(view, 0).tricks
    assert suggestion.reason.endswith(".") and len(suggestion.reason) > 20
    if suggestion.bid == 0:
        assert suggestion.counted == () and suggestion.marks == "none"
    else:
        assert suggestion.counted and suggestion.marks in ("counted", "best_chance")
        assert all(view.hand >> card & 1 for card in suggestion.counted)
