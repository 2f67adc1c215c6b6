"""Random legal play for tests: the next move any acting seat could make."""

from __future__ import annotations

import random
from dataclasses import dataclass

from games.domain.table import TableState
from games.engine.cards import card_name
from games.engine.hand import BIDDING
from games.engine.moves import BID, BLIND_NIL, PASS, PLAY, legal_moves


@dataclass(frozen=True)
class RandomMove:
    """A command a random player sends: ``kind`` is look, bid, pass or play."""

    kind: str
    seat: int
    bid: int | str = 0
    cards: tuple[str, ...] = ()


def random_move(state: TableState, rng: random.Random) -> RandomMove:
    """A random legal move for one of the seats the table waits for."""
    hand = state.hand
    assert hand is not None
    if hand.phase == BIDDING and not hand.looked[hand.turn] and rng.random() < 0.5:
        return RandomMove("look", hand.turn)
    moves = legal_moves(hand)
    if hand.phase == BIDDING and rng.random() < 0.85:
        # Modest bids keep random games short: wild bids are set again and again.
        modest = [m for m in moves if m.kind == BID and 1 <= m.bid <= 4]
        moves = modest or moves
    move = rng.choice(moves)
    if move.kind == BID:
        bid: int | str = move.bid
        if move.bid == 0:
            bid = rng.choice([0, "nil"])
        return RandomMove("bid", move.seat, bid)
    if move.kind == BLIND_NIL:
        return RandomMove("bid", move.seat, "blind_nil")
    if move.kind == PASS:
        return RandomMove("pass", move.seat, cards=tuple(card_name(c) for c in move.cards))
    assert move.kind == PLAY
    return RandomMove("play", move.seat, cards=(card_name(move.card),))
