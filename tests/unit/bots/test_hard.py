"""Hard's search: what it infers, the deals it samples, and a set it finds."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bots.strategies.card_play import team_need
from bots.strategies.determinize import sample_hands, sample_weighted
from bots.strategies.hard import HardStrategy, distinct_candidates
from bots.strategies.inference import infer
from bots.strategies.registry import get_strategy
from bots.strategies.selfplay import apply_decision
from games.engine.cards import FULL_DECK, SUIT_MASKS, mask_of, parse_cards
from games.engine.deal import deal_deck, shuffled_deck
from games.engine.hand import PLAYING, new_hand
from games.engine.rules import PRESETS
from games.engine.view import seat_view
from tests.unit.bots.positions import FULL_HARD, build, played, view_of

NORTH, EAST, SOUTH, WEST = 0, 1, 2, 3


def _mask(names: str) -> int:
    return mask_of(parse_cards(names.split()))


class TestInference:
    def test_failing_to_follow_shows_a_void(self) -> None:
        state = build(
            {NORTH: "AH", EAST: "3C", SOUTH: "4H", WEST: "6H"},
            bids={NORTH: 3, EAST: 3, SOUTH: 3, WEST: 3},
            plays="AH 3C 4H",
            avoid={EAST: "H"},
        )
        known = infer(view_of(state, WEST))
        assert known.void_in(EAST, 2)
        assert not known.void_in(SOUTH, 2)
        assert known.counts == (12, 12, 12, 13)

    def test_leading_an_unbroken_spade_shows_only_spades(self) -> None:
        state = build(
            {NORTH: "AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S"},
            bids={NORTH: 9, EAST: 1, SOUTH: 1, WEST: 1},
            plays="AS",
        )
        known = infer(view_of(state, EAST))
        assert known.voids[NORTH] == 0b0111

    def test_equivalent_cards_are_searched_once(self) -> None:
        # K, Q, J of hearts touch once TH is played; 5H and 4H touch: two groups.
        hand = _mask("KH QH JH 5H 4H")
        groups = distinct_candidates(hand, hand, _mask("TH"), preferred=parse_cards(["QH"])[0])
        assert groups == parse_cards(["4H", "QH"])


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10**9), stop=st.integers(0, 48), sample_seed=st.integers(0, 99))
def test_sampled_deals_agree_with_everything_the_seat_has_seen(
    seed: int, stop: int, sample_seed: int
) -> None:
    rules = PRESETS["standard"]
    state = new_hand(rules, deal_deck(shuffled_deck(seed, 1), 0), 0, 1)
    normal = get_strategy("normal")
    for _ in range(4 + stop):
        seat = state.turn
        apply_decision(state, seat, normal.decide(seat_view(state, seat), 0))
    assert state.phase == PLAYING
    view = seat_view(state, state.turn)
    known = infer(view)
    for hands in [sample_hands(known, random.Random(sample_seed))] + sample_weighted(
        view, known, random.Random(sample_seed), 4, 8
    ):
        assert hands[state.turn] == state.hands[state.turn]
        union = 0
        for seat in range(4):
            assert hands[seat].bit_count() == state.hands[seat].bit_count()
            assert not union & hands[seat]
            union |= hands[seat]
            for suit in range(4):
                if known.void_in(seat, suit):
                    assert not hands[seat] & SUIT_MASKS[suit]
        assert union | view.played_mask == FULL_DECK


# A real hand (standard rules): east-west have made their 3; north-south need 2 of the last
# 4 tricks. West led a diamond, north trumped with the six of spades, and east (spades only)
# is to play. Normal, its contract made, ducks under the six; Hard sees that overtrumping
# denies north-south a trick they cannot spare.
SET_DEAL = {
    NORTH: "QS JS 8S 6S 2S KH 7H 9D 7D 6D QC JC 2C",
    EAST: "TS 9S 5S 4S 3S AH TH 6H 3H QD TD 6C 3C",
    SOUTH: "KS 7S QH 9H 2H AD 8D 5D 4D AC KC 8C 4C",
    WEST: "AS JH 8H 5H 4H KD JD 3D 2D TC 9C 7C 5C",
}
SET_PLAYS = (
    "2C 3C KC 5C AC 7C JC 6C AD 2D 6D TD 4D KD 7D QD JD 9D 3H 5D 4H 7H AH 2H "
    "6H 9H 8H KH QC TH 4C TC 2S 3S KS AS 3D 6S"
)


def test_hard_takes_a_trick_to_set_the_opponents() -> None:
    rules = PRESETS["standard"]
    state = build(SET_DEAL, bids={NORTH: 4, EAST: 2, SOUTH: 3, WEST: 1}, plays=SET_PLAYS)
    assert state.turn == EAST
    assert team_need(EAST, state.bids, state.tricks_won, rules) <= 0
    assert team_need(NORTH, state.bids, state.tricks_won, rules) == 2
    assert 13 - len(state.trick_winners) == 4
    assert played("normal", state) == "5S"
    decision = FULL_HARD.decide(view_of(state), 0)
    assert decision.card == parse_cards(["9S"])[0]


def test_a_decision_cut_short_by_the_clock_replays_with_its_recorded_samples() -> None:
    state = build(SET_DEAL, bids={NORTH: 4, EAST: 2, SOUTH: 3, WEST: 1}, plays=SET_PLAYS)
    view = view_of(state)
    loaded = HardStrategy(time_limit_ms=0.0)  # every search stops at min_samples
    idle = HardStrategy(time_limit_ms=1e9)
    cut = loaded.decide(view, 7)
    assert cut.samples == loaded.min_samples
    full = idle.decide(view, 7)
    assert full.samples is not None and full.samples > loaded.min_samples
    # With the recorded budget the clock is ignored: same move, same count, every time.
    for strategy in (loaded, idle):
        again = strategy.decide(view, 7, samples=cut.samples)
        assert (again, again.samples) == (cut, cut.samples)
    assert idle.decide(view, 7, samples=full.samples) == full
    with pytest.raises(ValueError):
        idle.decide(view, 7, samples=full.samples + 1)
