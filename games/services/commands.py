"""The table commands under their former function names, for callers not yet moved.

The use cases are the dataclasses of :mod:`games.services.table_commands` run by its
``execute``; the runner is :mod:`games.services.command_runner`.  This module goes once
its last callers (``games.live.tables``, on their way to ``bots/``) call ``execute``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .actors import Actor
from .command_runner import CommandResult
from .errors import CommandRejected
from .table_commands import (
    HandSeatToBot,
    LeaveSeat,
    LookAtCards,
    PassCards,
    PlaceBid,
    PlayCard,
    StartGame,
    TakeSeat,
    TakeSeatBack,
    TurnTimedOut,
    create_table,
    execute,
)

__all__ = [
    "CommandRejected",
    "CommandResult",
    "create_table",
    "hand_seat_to_bot",
    "leave_seat",
    "look_at_cards",
    "pass_cards",
    "place_bid",
    "play_card",
    "start_game",
    "take_seat",
    "take_seat_back",
    "turn_timed_out",
]

# kept for callers being moved in parallel: ``options`` are execute's expected_version and
# command_id.


def take_seat(table_id: object, *, actor: Actor, seat: object, **options: Any) -> CommandResult:
    return execute(TakeSeat(table_id, seat), actor, **options)


def leave_seat(table_id: object, *, actor: Actor, seat: object, **options: Any) -> CommandResult:
    return execute(LeaveSeat(table_id, seat), actor, **options)


def start_game(
    table_id: object, *, actor: Actor, first_dealer: object = None, **options: Any
) -> CommandResult:
    return execute(StartGame(table_id, first_dealer), actor, **options)


def look_at_cards(table_id: object, *, actor: Actor, seat: object, **options: Any) -> CommandResult:
    return execute(LookAtCards(table_id, seat), actor, **options)


def place_bid(
    table_id: object, *, actor: Actor, seat: object, bid: object, **options: Any
) -> CommandResult:
    return execute(PlaceBid(table_id, seat, bid), actor, **options)


def pass_cards(
    table_id: object, *, actor: Actor, seat: object, cards: Sequence[object], **options: Any
) -> CommandResult:
    return execute(PassCards(table_id, seat, cards), actor, **options)


def play_card(
    table_id: object, *, actor: Actor, seat: object, card: object, **options: Any
) -> CommandResult:
    return execute(PlayCard(table_id, seat, card), actor, **options)


def turn_timed_out(
    table_id: object, *, actor: Actor, seat: object, level: str = "normal", **options: Any
) -> CommandResult:
    return execute(TurnTimedOut(table_id, seat, level), actor, **options)


def hand_seat_to_bot(
    table_id: object, *, actor: Actor, seat: object, level: str = "normal", **options: Any
) -> CommandResult:
    return execute(HandSeatToBot(table_id, seat, level), actor, **options)


def take_seat_back(
    table_id: object, *, actor: Actor, seat: object, **options: Any
) -> CommandResult:
    return execute(TakeSeatBack(table_id, seat), actor, **options)
