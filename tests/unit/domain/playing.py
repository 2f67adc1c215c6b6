"""Random legal play for tests: the next move any acting seat could make."""

from __future__ import annotations

import random
from dataclasses import dataclass

from games.domain import decisions as d
from games.domain.events import DomainEvent
from games.domain.table import TableState
from games.engine.cards import card_name
from games.engine.hand import BIDDING
from games.engine.moves import BID, BLIND_NIL, PASS, PLAY, legal_moves
from games.engine.rules import rules_from_spec


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


def play_random_game(
    rng: random.Random,
    rules: object = None,
    seed: str = "0" * 64,
    max_moves: int = 5000,
) -> tuple[TableState, list[DomainEvent]]:
    """A whole random game decided through the domain (no database): state and events.

    Seats: north, south and west are users 1, 3 and 4; east is a bot.
    """
    state = TableState()
    out: list[DomainEvent] = []
    out += d.decide_create(
        state,
        rules=rules_from_spec(rules if rules is not None else QUICK_RULES_SPEC),
        preset_name="standard",
        preset_version=1,
        seats={"east": {"kind": "bot", "level": "easy"}},
        turn_timer_seconds=None,
        created_by=1,
    )
    users = {0: 1, 2: 3, 3: 4}
    for seat, user in users.items():
        out += d.decide_take_seat(state, d.ActorRef("user", user), seat)
    out += d.decide_start(state, d.ActorRef("user", 1), first_dealer=rng.randrange(4), seed=seed)
    for _ in range(max_moves):
        if state.status != "playing":
            break
        move = random_move(state, rng)
        actor = (
            d.ActorRef("bot") if move.seat not in users else d.ActorRef("user", users[move.seat])
        )
        if move.kind == "look":
            out += d.decide_look(state, actor, move.seat)
        elif move.kind == "bid":
            out += d.decide_bid(state, actor, move.seat, move.bid)
        elif move.kind == "pass":
            out += d.decide_pass(state, actor, move.seat, list(move.cards))
        else:
            out += d.decide_play(state, actor, move.seat, move.cards[0], seed)
    return state, out


QUICK_RULES_SPEC = {
    "preset": "standard",
    "target_score": 150,
    "lose_score": -150,
    "blind_nil": True,
}
