"""Random complete games through the engine's own move functions, for tests."""

from __future__ import annotations

import random
from collections.abc import Callable

from games.engine.bidding import legal_bids, look_at_cards, may_bid_blind_nil, place_bid
from games.engine.cards import cards_in
from games.engine.deal import shuffled_deck
from games.engine.hand import BIDDING, COMPLETE, PASSING, HandState
from games.engine.passing import pass_cards
from games.engine.play import legal_card_mask, play_card
from games.engine.rules import Rules
from scoring.core.game import Game

# Called with the state before each play and the card about to be played.
PlayWatcher = Callable[[HandState, int], None]


def play_random_hand(
    state: HandState, rng: random.Random, watch: PlayWatcher | None = None
) -> None:
    """Bid, pass (after a blind nil) and play ``state`` to the end with random legal moves."""
    while state.phase == BIDDING:
        seat = state.turn
        if may_bid_blind_nil(state, seat) and rng.random() < 0.5:
            place_bid(state, seat, 0, blind=True)
            continue
        if not state.looked[seat] and rng.random() < 0.5:
            look_at_cards(state, seat)
        place_bid(state, seat, rng.choice(legal_bids(state, seat)))
    if state.phase == PASSING:
        for seat in rng.sample(range(4), 4):
            if state.pass_owed[seat] and not state.passes[seat]:
                pass_cards(state, seat, rng.sample(cards_in(state.hands[seat]), 2))
    while state.phase != COMPLETE:
        card = rng.choice(cards_in(legal_card_mask(state)))
        if watch is not None:
            watch(state, card)
        play_card(state, state.turn, card)


def play_random_game(
    rules: Rules,
    rng: random.Random,
    seed: str,
    first_dealer: int = 0,
    max_hands: int = 8,
    watch: PlayWatcher | None = None,
) -> Game:
    """Deal seeded hands and play them randomly until the game ends or ``max_hands``."""
    game = Game(rules, first_dealer)
    for number in range(1, max_hands + 1):
        if game.finished:
            break
        state = game.deal(shuffled_deck(seed, number))
        play_random_hand(state, rng, watch)
        game.score_if_complete()
    return game
