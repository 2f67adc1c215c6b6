"""A blind nil hand played through the real services, for the hidden-information tests.

North and east are humans who bid blind nil and pass through the command service with no
command id (as a client without an ``Idempotency-Key``); south and west are bots moved by
the bot-turn service (``bots.turns.play_bot_turn``, metadata derived from the
table and the version). So hand 1 has four passes, two by humans and two by bots.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from itertools import combinations
from typing import Any

from bots.turns import PLAYED, play_bot_turn
from games.domain.table import TableState
from games.engine.bidding import may_bid_blind_nil
from games.engine.cards import card_name, cards_in
from games.engine.hand import BIDDING, PASSING, PLAYING
from games.engine.moves import PLAY, legal_moves
from games.services.table_state import reading_state
from tests.factories import TableFactory
from tests.integration.tables.helpers import send
from tests.unit.domain.playing import RandomMove

RULES = {
    "preset": "standard",
    "blind_nil": True,
    "blind_nil_min_deficit": 0,  # every seat may bid blind nil in hand 1
    "target_score": 150,
    "lose_score": -150,
}
BOTS = {"south": {"kind": "bot", "level": "easy"}, "west": {"kind": "bot", "level": "easy"}}


def blind_nil_table(users: dict[int, Any]) -> str:
    table = TableFactory(
        creator=users[0],
        rules=RULES,
        seats=BOTS,
        players={"north": users[0], "east": users[1]},
        started=True,
        first_dealer="west",  # north bids first, then east, south, west
    )
    return str(table.id)


def human_move(state: TableState, seat: int, rng: random.Random) -> RandomMove:
    hand = state.hand
    assert hand is not None
    if hand.phase == BIDDING:
        if may_bid_blind_nil(hand, seat):
            return RandomMove("bid", seat, "blind_nil")
        return RandomMove("bid", seat, 2)
    if hand.phase == PASSING:
        pair = rng.choice(list(combinations(cards_in(hand.hands[seat]), 2)))
        return RandomMove("pass", seat, cards=tuple(card_name(card) for card in pair))
    move = rng.choice([m for m in legal_moves(hand) if m.kind == PLAY])
    return RandomMove("play", seat, cards=(card_name(move.card),))


def play_until(table_id: str, users: dict[int, Any], done: Callable[[TableState], bool]) -> None:
    """Humans through the command service (no command id), bots through their service."""
    rng = random.Random(20240612)
    for _ in range(200):
        with reading_state(table_id) as state:
            if done(state):
                return
            seat = state.acting_seats()[0]
            version = state.version
            move = None if state.controller(seat) == "bot" else human_move(state, seat, rng)
        if move is None:
            assert play_bot_turn(table_id, version).outcome == PLAYED
        else:
            send(table_id, move, users[seat])
    raise AssertionError("the hand did not get there in 200 moves")


def passes_exchanged(state: TableState) -> bool:
    hand = state.hand
    return hand is not None and hand.phase == PLAYING and any(hand.passes)


def hand_one_over(state: TableState) -> bool:
    return state.hand_is_over(1)
