from __future__ import annotations

import random

from games.engine.bidding import place_bid
from games.engine.deal import deal_deck, shuffled_deck
from games.engine.hand import COMPLETE, PASSING, PLAYING, HandState, new_hand
from games.engine.passing import pass_cards
from games.engine.play import legal_cards, play_card
from games.engine.rules import rules_from_spec

from .random_play import play_random_hand

BLIND = rules_from_spec({"blind_nil": True})


def snapshot(state: HandState) -> tuple[object, ...]:
    return tuple(
        list(value) if isinstance(value, list) else value
        for value in (getattr(state, name) for name in HandState.__slots__)
    )


def fresh() -> HandState:
    dealt = deal_deck(shuffled_deck("copy", 1), 3)
    return new_hand(BLIND, dealt, 3, team_scores=(0, 200))


def test_a_copy_played_to_the_end_leaves_the_original_untouched_in_every_phase() -> None:
    state = fresh()
    seen_phases = set()
    rng = random.Random(5)
    while state.phase != COMPLETE:
        seen_phases.add(state.phase)
        before = snapshot(state)
        copy = state.copy()
        assert snapshot(copy) == before
        play_random_hand(copy, random.Random(rng.random()))
        assert copy.phase == COMPLETE
        assert snapshot(state) == before
        # Advance the original by one move.
        if state.phase == PASSING:
            seat = next(s for s in range(4) if state.pass_owed[s] and not state.passes[s])
            pass_cards(state, seat, legal_pair(state, seat))
        elif state.phase == PLAYING:
            play_card(state, state.turn, legal_cards(state)[0])
        elif state.turn == 0:
            place_bid(state, 0, 0, blind=True)
        else:
            place_bid(state, state.turn, 3)
    assert seen_phases == {0, PASSING, PLAYING}


def legal_pair(state: HandState, seat: int) -> list[int]:
    hand = state.hands[seat]
    low = hand & -hand
    second = (hand ^ low) & -(hand ^ low)
    return [low.bit_length() - 1, second.bit_length() - 1]
