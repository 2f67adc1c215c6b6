"""Playing tables through the command services in tests."""

from __future__ import annotations

import random
from typing import Any

from games.services.actors import BotActor
from games.services.table_commands import (
    CommandResult,
    LookAtCards,
    PassCards,
    PlaceBid,
    PlayCard,
    TableCommand,
    execute,
)
from games.services.table_state import reading_state
from tests.unit.domain.playing import RandomMove, random_move

BOT = BotActor(level="normal", strategy_version="test-random-1", seed=0)


def actor_for(state: Any, seat: int, users: dict[int, Any]) -> Any:
    """The user holding ``seat``, or the bot actor when a bot plays it."""
    return BOT if state.controller(seat) == "bot" else users[seat]


def command_for(table_id: Any, move: RandomMove) -> TableCommand:
    """The command that makes one random move."""
    if move.kind == "look":
        return LookAtCards(table_id, move.seat)
    if move.kind == "bid":
        return PlaceBid(table_id, move.seat, move.bid)
    if move.kind == "pass":
        return PassCards(table_id, move.seat, list(move.cards))
    return PlayCard(table_id, move.seat, move.cards[0])


def send(table_id: Any, move: RandomMove, actor: Any, **extra: Any) -> CommandResult:
    """Send one random move as the matching command (``extra``: execute's options)."""
    return execute(command_for(table_id, move), actor, **extra)


def play_moves(
    table_id: Any,
    users: dict[int, Any],
    rng: random.Random,
    limit: int | None = None,
    after_each: Any = None,
) -> int:
    """Random legal moves until the game ends (or ``limit`` moves); returns moves sent."""
    sent = 0
    while limit is None or sent < limit:
        with reading_state(table_id) as state:
            if state.status != "playing":
                break
            move = random_move(state, rng)
            actor = actor_for(state, move.seat, users)
        send(table_id, move, actor)
        sent += 1
        if after_each is not None:
            after_each()
    return sent


QUICK_RULES = {"preset": "standard", "target_score": 150, "lose_score": -150, "blind_nil": True}
