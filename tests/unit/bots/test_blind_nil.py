"""The blind nil rule (bots.strategies.blind_nil): never next to a partner's nil, only when
the measured odds make it worth it (or as the last chance), and no double nil at all."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bots.strategies.blind_nil import (
    EASY_ODDS,
    GAIN_THRESHOLD,
    LAST_CHANCE_DEFICIT,
    LAST_CHANCE_P_MAKE,
    LAST_CHANCE_REACH,
    NORMAL_ODDS,
    SITUATIONS,
    Odds,
    blind_nil_choice,
    situation,
)
from bots.strategies.decision import Decision
from bots.strategies.registry import LEVELS, get_strategy, strategy_of_version
from bots.strategies.replay import NotReplayable, replay_decision
from bots.strategies.selfplay import play_hand
from games.engine.bidding import look_at_cards, place_bid
from games.engine.deal import deal_deck, shuffled_deck
from games.engine.hand import BIDDING, NO_BID, HandState, new_hand
from games.engine.rules import PRESETS, Rules
from games.engine.seats import partner_of
from games.engine.view import seat_view
from tests.unit.bots.positions import build, decide, strategy

NORTH, EAST, SOUTH, WEST = 0, 1, 2, 3
BLIND = replace(PRESETS["standard"], blind_nil=True)
ODDS = {"normal": NORMAL_ODDS, "easy": EASY_ODDS, "hard": NORMAL_ODDS}


@st.composite
def bidding_position(draw: st.DrawFn) -> tuple[Rules, tuple[int, int], list[int], int]:
    """Rules with blind nil, totals, and the bids before a seat's turn (any legal bids)."""
    rules = Rules(
        target_score=draw(st.sampled_from([200, 300, 500])),
        blind_nil=True,
        blind_nil_points=draw(st.sampled_from([100, 200, 300])),
        blind_nil_min_deficit=draw(st.sampled_from([0, 100, 200])),
        bag_penalty=draw(st.booleans()),
    )
    totals = (draw(st.integers(-300, 600)), draw(st.integers(-300, 600)))
    dealer = draw(st.integers(0, 3))
    before = draw(st.integers(0, 3))
    bids = [NO_BID] * 4
    for k in range(before):
        seat = (dealer + 1 + k) & 3
        bids[seat] = draw(st.integers(0, 13))
    return rules, totals, bids, (dealer + 1 + before) & 3


def _state_at(
    rules: Rules, totals: tuple[int, int], bids: list[int], dealer: int, seed: int
) -> HandState:
    """The deal with ``bids`` placed in turn (a nil is blind when it may be, for odd seeds)."""
    state = new_hand(rules, deal_deck(shuffled_deck(seed, 1), dealer), dealer, 1, totals)
    while state.phase == BIDDING and bids[state.turn] != NO_BID:
        seat = state.turn
        blind = bids[seat] == 0 and state.blind_eligible[seat] and seed & 1 == 1
        if not blind:
            look_at_cards(state, seat)
        place_bid(state, seat, bids[seat], blind)
    return state


@settings(max_examples=300, deadline=None)
@given(position=bidding_position(), seed=st.integers(0, 10**6), level=st.sampled_from(LEVELS))
def test_blind_nil_only_by_the_rule(
    position: tuple[Rules, tuple[int, int], list[int], int], seed: int, level: str
) -> None:
    rules, totals, bids, seat = position
    dealer = (seat - 1 - sum(1 for b in bids if b != NO_BID)) & 3
    state = _state_at(rules, totals, bids, dealer, seed)
    assert state.turn == seat
    view = seat_view(state, seat, totals)
    decision = strategy(level).decide(view, seed)
    choice = blind_nil_choice(view, ODDS[level])
    assert decision.blind == choice.bid
    if not decision.blind:
        return
    # Yes only when open to the seat, never next to a partner's nil, and by the rule.
    assert rules.blind_nil and view.blind_eligible[seat] and not view.looked
    assert bids[partner_of(seat)] != 0
    team = seat & 1
    behind = totals[1 - team] - totals[team]
    last_chance = (
        totals[1 - team] >= rules.target_score - LAST_CHANCE_REACH
        and behind > LAST_CHANCE_DEFICIT
        and choice.p_make >= LAST_CHANCE_P_MAKE
    )
    assert choice.gain >= GAIN_THRESHOLD or last_chance


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 10**9),
    totals=st.sampled_from([(0, 150), (0, 250), (400, 100), (100, 450), (-200, 420)]),
    levels=st.lists(st.sampled_from(("easy", "normal")), min_size=4, max_size=4),
)
def test_no_bot_bids_a_double_nil(seed: int, totals: tuple[int, int], levels: list[str]) -> None:
    dealer = seed & 3
    state = new_hand(BLIND, deal_deck(shuffled_deck(seed, 1), dealer), dealer, 1, totals)
    play_hand(state, [get_strategy(level) for level in levels], seed, team_totals=totals)
    for seat in (0, 1):
        assert not (state.bids[seat] == 0 and state.bids[seat + 2] == 0)


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("partner", ["nil", "blind_nil"])
def test_never_next_to_a_partners_nil_even_as_the_last_chance(level: str, partner: str) -> None:
    # North-south 300 behind, the opponents 30 from the target: the last chance, but the
    # partner (north) has bid nil.
    totals = (170, 470)
    state = build({}, bids={NORTH: partner, EAST: 5}, rules=BLIND, totals=totals)
    assert state.turn == SOUTH
    assert decide(level, state, totals=totals) == Decision.look()


@pytest.mark.parametrize("level", LEVELS)
def test_the_last_chance(level: str) -> None:
    # First to bid (nothing known: not worth it by points), but the opponents are about to
    # win and a normal hand cannot catch up.
    assert decide(level, build({}, rules=BLIND, totals=(0, 250)), totals=(0, 250)).kind == "look"
    totals = (150, 450)
    state = build({}, rules=BLIND, totals=totals)
    assert decide(level, state, totals=totals) == Decision.bid(0, blind=True)


def test_the_gain_follows_the_tables_blind_nil_points() -> None:
    # "partner 3-4, opponents 3+" clears the threshold at 200 points; at 20 points a blind
    # nil is worth little more than a normal bid, and it is not bid.
    totals = (0, 150)
    cheap = replace(BLIND, blind_nil_points=20)
    for rules, expected in ((BLIND, True), (cheap, False)):
        state = build({}, bids={NORTH: 4, EAST: 4}, rules=rules, totals=totals)
        view = seat_view(state, SOUTH, totals)
        assert situation(view.bids, SOUTH) == "partner 3-4, opponents 3+"
        assert blind_nil_choice(view, NORMAL_ODDS).bid is expected


def test_the_tables_cover_every_situation_but_a_partners_nil() -> None:
    for odds in (NORMAL_ODDS, EASY_ODDS):
        for name in SITUATIONS:
            if name.startswith("partner nil") or (
                not name.startswith("partner not yet") and name.endswith("opponents not yet")
            ):
                assert name not in odds  # never bid / cannot happen
            else:
                assert isinstance(odds[name], Odds)
                assert 0.0 <= odds[name].p_make <= 1.0


def test_old_revisions_are_kept_for_replay() -> None:
    for level in LEVELS:
        latest = get_strategy(level)
        assert latest.version == f"{level}-2"
        assert strategy_of_version(latest.version) is latest
        old = strategy_of_version(f"{level}-1")
        assert old is not None and old.version == f"{level}-1"
    assert strategy_of_version("normal-9") is None


def test_a_move_recorded_by_revision_1_replays_as_revision_1() -> None:
    totals = (0, 250)
    view = seat_view(build({}, rules=BLIND, totals=totals), NORTH, totals)
    old = {"level": "normal", "strategy_version": "normal-1", "seed": 0}
    new = {"level": "normal", "strategy_version": "normal-2", "seed": 0}
    assert replay_decision(old, view) == Decision.bid(0, blind=True)
    assert replay_decision(new, view) == Decision.look()
    with pytest.raises(NotReplayable):
        replay_decision({"level": "normal", "strategy_version": "hard-1", "seed": 0}, view)
    with pytest.raises(NotReplayable):
        replay_decision({"level": "normal", "strategy_version": "normal-7", "seed": 0}, view)
