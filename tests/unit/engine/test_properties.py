"""Property tests: random complete games under random presets keep every invariant.

The checks recompute what they can independently of the engine (legal cards, seats,
trick winners, bags) rather than asking the engine to agree with itself.
"""

from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from games.engine.bidding import bid_label
from games.engine.cards import FULL_DECK, SPADES, TWO_OF_CLUBS, cards_in
from games.engine.hand import HandState
from games.engine.play import legal_card_mask, play_refusal
from games.engine.record import record_from_game
from games.engine.rules import FIRST_LEADS, SET_PENALTIES, Rules
from games.engine.seats import SEAT_NAMES, left_of, partner_of, team_of
from scoring.core.game import Game
from scoring.core.replay import replay_document
from scoring.core.scoresheet import score_scoresheet

from .random_play import play_random_game

GAMES = settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)


@st.composite
def presets(draw: st.DrawFn) -> Rules:
    """Any valid combination of the options, biased toward ones that end games and bid blind."""
    nil = draw(st.booleans())
    hands = draw(st.sampled_from([None, None, None, 1, 2, 3]))
    return Rules(
        hands=hands,
        extra_hands=0 if hands is None else draw(st.sampled_from([0, 1, 3])),
        target_score=draw(st.sampled_from([50, 100, 200, 300, 500])),
        lose_score=draw(st.sampled_from([None, -50, -100, -200])),
        nil=nil,
        nil_points=draw(st.sampled_from([50, 100])),
        blind_nil=nil and draw(st.booleans()),
        blind_nil_points=draw(st.sampled_from([150, 200])),
        blind_nil_min_deficit=draw(st.sampled_from([0, 0, 50, 100])),
        set_penalty=draw(st.sampled_from(SET_PENALTIES)),
        bag_penalty=draw(st.booleans()),
        nil_tricks_count_for_partner=draw(st.booleans()),
        first_lead=draw(st.sampled_from(FIRST_LEADS)),
        breaking_spades=draw(st.booleans()),
    )


def reference_legal(state: HandState) -> set[int]:
    """The cards the seat to play may play, from the rules' text, on plain sets."""
    rules = state.rules
    hand = set(cards_in(state.hands[state.turn]))
    trick = state.plays[len(state.plays) - len(state.plays) % 4 :]
    if trick:
        led = trick[0] // 13
        following = {card for card in hand if card // 13 == led}
        return following or hand
    if not state.plays and rules.first_lead == "two_of_clubs":
        return {TWO_OF_CLUBS}
    broken = any(card // 13 == SPADES for card in state.plays)
    if rules.breaking_spades and not broken:
        return {card for card in hand if card // 13 != SPADES} or hand
    return hand


def check_play(state: HandState, card: int) -> None:
    mask = legal_card_mask(state)
    assert set(cards_in(mask)) == reference_legal(state)
    assert mask >> card & 1
    seat = state.turn
    for held in cards_in(state.hands[seat]):
        assert (play_refusal(state, seat, held) is None) == bool(mask >> held & 1)
    assert play_refusal(state, left_of(seat), card) is not None  # never out of turn


def trick_winner(trick: list[tuple[int, int]]) -> int:
    led = trick[0][1] // 13
    spades = [(card, seat) for seat, card in trick if card // 13 == SPADES]
    if spades:
        return max(spades)[1]
    return max((card, seat) for seat, card in trick if card // 13 == led)[1]


def check_hand(state: HandState) -> None:
    dealt = state.dealt
    assert [mask.bit_count() for mask in dealt] == [13] * 4
    assert dealt[0] | dealt[1] | dealt[2] | dealt[3] == FULL_DECK
    assert sum(mask.bit_count() for mask in dealt) == 52  # so the four are disjoint
    held = list(dealt)
    for seat in range(4):
        if state.passes[seat]:
            assert state.pass_owed[seat] and state.passes[seat].bit_count() == 2
            held[seat] &= ~state.passes[seat]
            held[partner_of(seat)] |= state.passes[seat]
    assert [bool(owed) for owed in state.pass_owed] == [
        state.blind[seat] or state.blind[partner_of(seat)] for seat in range(4)
    ]
    assert len(state.plays) == 52 and len(set(state.plays)) == 52
    if state.rules.first_lead == "two_of_clubs":
        leader = next(seat for seat in range(4) if held[seat] >> TWO_OF_CLUBS & 1)
    else:
        leader = left_of(state.dealer)
    winners = []
    played = [0, 0, 0, 0]
    for number in range(13):
        trick = [((leader + i) & 3, state.plays[number * 4 + i]) for i in range(4)]
        for seat, card in trick:
            played[seat] |= 1 << card
        leader = trick_winner(trick)
        winners.append(leader)
    assert state.trick_winners == winners
    assert played == held
    assert state.tricks_won == [winners.count(seat) for seat in range(4)]
    assert sum(state.tricks_won) == 13


def check_scores(game: Game) -> None:
    rules = game.rules
    totals, bags = [0, 0], [0, 0]
    for state, result in zip(game.hands, game.ledger.hands, strict=True):
        for seat in range(4):
            if state.blind[seat]:
                side = team_of(seat)
                assert rules.blind_nil
                assert totals[1 - side] - totals[side] >= rules.blind_nil_min_deficit
            assert state.bids[seat] >= (0 if rules.nil else 1)
        for team in result.teams:
            part = team.breakdown()
            assert team.hand_score == (
                part["contract_points"]
                + part["bag_points"]
                + part["nil_points"]
                + part["bag_penalty"]
            )
            seats = [seat for seat in range(4) if team_of(seat) == team.team]
            assert team.contract == sum(state.bids[seat] for seat in seats if state.bids[seat])
            assert team.tricks == sum(state.tricks_won[seat] for seat in seats)
            running = bags[team.team] + team.bags
            if rules.bag_penalty:
                assert team.bags_total == running % 10
                assert team.bag_penalty == -100 * (running // 10)
            else:
                assert (team.bags_total, team.bag_penalty) == (running, 0)
            assert team.total == totals[team.team] + team.hand_score
            totals[team.team], bags[team.team] = team.total, team.bags_total
    assert game.ledger.totals == totals
    if game.finished:
        assert game.ledger.finished_after_hand == len(game.hands)


@GAMES
@given(
    rules=presets(),
    seed=st.integers(min_value=0, max_value=10**9),
    first_dealer=st.integers(min_value=0, max_value=3),
    choices=st.randoms(use_true_random=False),
)
def test_random_games_keep_every_invariant(
    rules: Rules, seed: int, first_dealer: int, choices: random.Random
) -> None:
    game = play_random_game(rules, choices, str(seed), first_dealer, max_hands=6, watch=check_play)
    assert [state.dealer for state in game.hands] == [
        (first_dealer + number) & 3 for number in range(len(game.hands))
    ]
    for state in game.hands:
        check_hand(state)
        if any(state.blind):
            event("blind nil bid and cards passed")
    if game.finished:
        event("game finished")
    check_scores(game)

    # The exported record replays to the same tricks and ledger.
    record = json.loads(json.dumps(record_from_game(game)))
    replay = replay_document(record)
    assert replay.game.ledger.summary() == game.ledger.summary()
    assert [s.trick_winners for s in replay.game.hands] == [s.trick_winners for s in game.hands]

    # The same bids and tricks on a paper scoresheet score the same.
    sheet = {
        "rules": rules.to_dict(),
        "hands": [
            {
                "bids": {SEAT_NAMES[s]: bid_label(state.bids[s], state.blind[s]) for s in range(4)},
                "tricks": {SEAT_NAMES[s]: state.tricks_won[s] for s in range(4)},
            }
            for state in game.hands
        ],
    }
    assert score_scoresheet(sheet).as_dict() == game.ledger.summary()
