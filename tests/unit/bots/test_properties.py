"""Whole hands under random rules: bots only make legal moves, see only their seat, and
repeat themselves exactly given the same view and seed."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bots.strategies.decision import Strategy
from bots.strategies.hard import HardStrategy
from bots.strategies.registry import get_strategy
from bots.strategies.selfplay import apply_decision, decision_seed, play_hand, seats_to_decide
from games.engine.deal import deal_deck, shuffled_deck
from games.engine.hand import BIDDING, COMPLETE, HandState, new_hand
from games.engine.rules import Rules
from games.engine.view import seat_view
from tests.unit.bots.positions import strategy

SMALL_HARD_BOARD = HardStrategy(
    playout_budget=600, min_samples=3, max_samples=6, time_limit_ms=60_000, revision=3
)

LEVELS = ("easy", "normal", "hard")
TOTALS = ((0, 0), (0, 250), (320, 0), (120, 460), (-150, 90))


@st.composite
def table_rules(draw: st.DrawFn) -> Rules:
    nil = draw(st.booleans())
    return Rules(
        target_score=draw(st.sampled_from([200, 300, 500])),
        nil=nil,
        blind_nil=nil and draw(st.booleans()),
        blind_nil_min_deficit=draw(st.sampled_from([0, 100, 200])),
        set_penalty=draw(st.sampled_from(["minus_bid", "zero"])),
        bag_penalty=draw(st.booleans()),
        nil_tricks_count_for_partner=draw(st.booleans()),
        first_lead=draw(st.sampled_from(["left_of_dealer", "two_of_clubs"])),
        breaking_spades=draw(st.booleans()),
    )


def _deal(rules: Rules, seed: int, totals: tuple[int, int]) -> HandState:
    dealer = seed & 3
    return new_hand(rules, deal_deck(shuffled_deck(seed, 1), dealer), dealer, 1, totals)


@settings(max_examples=60, deadline=None)
@given(
    rules=table_rules(),
    seed=st.integers(0, 10**9),
    totals=st.sampled_from(TOTALS),
    levels=st.lists(st.sampled_from(("easy", "normal")), min_size=4, max_size=4),
)
def test_easy_and_normal_finish_every_hand_legally(
    rules: Rules, seed: int, totals: tuple[int, int], levels: list[str]
) -> None:
    state = _deal(rules, seed, totals)
    # play_hand applies each decision with the engine's validating calls: an illegal
    # bid, pass or card raises IllegalMove and fails the test.
    play_hand(state, [get_strategy(level) for level in levels], seed, team_totals=totals)
    assert state.phase == COMPLETE
    if not rules.nil:
        assert 0 not in state.bids


@settings(max_examples=12, deadline=None)
@given(
    rules=table_rules(),
    seed=st.integers(0, 10**9),
    totals=st.sampled_from(TOTALS),
    levels=st.lists(st.sampled_from(LEVELS), min_size=4, max_size=4),
)
def test_hard_finishes_every_hand_legally(
    rules: Rules, seed: int, totals: tuple[int, int], levels: list[str]
) -> None:
    state = _deal(rules, seed, totals)
    play_hand(state, [strategy(level) for level in levels], seed, team_totals=totals)
    assert state.phase == COMPLETE


def _with_hidden_cards_redealt(state: HandState, seat: int, rng: random.Random) -> HandState:
    """The same public history and the same hand for ``seat``; the others' cards reshuffled."""
    other = state.copy()
    hidden_seats = [s for s in range(4) if s != seat]
    pool = []
    for s in hidden_seats:
        mask = state.hands[s]
        while mask:
            bit = mask & -mask
            pool.append(bit.bit_length() - 1)
            mask ^= bit
    rng.shuffle(pool)
    for s in hidden_seats:
        count = state.hands[s].bit_count()
        mask = 0
        for card in pool[:count]:
            mask |= 1 << card
        pool = pool[count:]
        other.hands[s] = mask
    return other


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    rules=table_rules(),
    seed=st.integers(0, 10**9),
    totals=st.sampled_from(TOTALS),
    stop=st.integers(0, 60),
)
def test_hidden_cards_of_other_seats_never_change_a_decision(
    rules: Rules, seed: int, totals: tuple[int, int], stop: int
) -> None:
    state = _deal(rules, seed, totals)
    normal = get_strategy("normal")
    steps = 0
    while state.phase != COMPLETE and steps < stop:
        for seat in seats_to_decide(state):
            view = seat_view(state, seat, totals)
            apply_decision(state, seat, normal.decide(view, 0))
            steps += 1
            if state.phase == BIDDING:
                break
    if state.phase == COMPLETE:
        return
    rng = random.Random(seed)
    # And hard-3, the board revision: its search reads the same seat's view only.
    strategies: list[Strategy] = [strategy(level) for level in LEVELS] + [SMALL_HARD_BOARD]
    for seat in seats_to_decide(state):
        redealt = _with_hidden_cards_redealt(state, seat, rng)
        assert redealt.hands[seat] == state.hands[seat]
        view = seat_view(state, seat, totals)
        other_view = seat_view(redealt, seat, totals)
        assert other_view == view
        decision_seed_value = decision_seed(seed, 1, seat, stop)
        for bot in strategies:
            assert bot.decide(other_view, decision_seed_value) == bot.decide(
                view, decision_seed_value
            )


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 10**9), stop=st.integers(4, 45))
def test_same_view_and_seed_give_the_same_decision(seed: int, stop: int) -> None:
    rules = Rules()
    state = _deal(rules, seed, (0, 0))
    normal = get_strategy("normal")
    for _ in range(stop):
        seat = state.turn
        apply_decision(state, seat, normal.decide(seat_view(state, seat), 0))
    view = seat_view(state, state.turn)
    first = HardStrategy(playout_budget=800, min_samples=3, max_samples=8, time_limit_ms=60_000)
    second = HardStrategy(playout_budget=800, min_samples=3, max_samples=8, time_limit_ms=60_000)
    decision = first.decide(view, seed)
    assert first.decide(view, seed) == decision
    assert second.decide(view, seed) == decision
    for level in ("easy", "normal"):
        assert get_strategy(level).decide(view, seed) == get_strategy(level).decide(view, seed)
