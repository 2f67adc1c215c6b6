"""Quick game: a table made, the player seated and the game started as one use case.

The page used to make three calls (create, take a seat, start); a failure between them left
a half-made table in the lobby. Here the three commands run in one transaction, so either
the game is in play or nothing was written. With a command id each step gets an id derived
from it, so a retried request answers with the table the first one made.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction

from .actors import Actor
from .command_runner import CommandResult
from .errors import CommandRejected
from .table_commands import StartGame, TakeSeat, create_table, execute


def start_quick_game(
    *,
    actor: Actor,
    seat: object,
    rules: str | dict[str, Any] | None = None,
    preset: str | None = None,
    seats: dict[Any, Any] | None = None,
    turn_timer_seconds: int | None = None,
    command_id: str | None = None,
    spectator_delay_tricks: int = 0,
) -> CommandResult:
    """Create a table whose other seats are bots, sit the actor at ``seat``, start it.

    ``seats`` describes the other seats (as for ``create_table``); every one of them must be
    a bot, since nobody else is there to sit down before the game starts.
    """
    others = dict(seats or {})
    if seat in others:
        raise CommandRejected("bad_seats", "Your own seat cannot also be given to a bot.")
    humans = [name for name, spec in others.items() if (spec or {}).get("kind", "human") != "bot"]
    if humans or len(others) != 3:
        raise CommandRejected(
            "bad_seats", "A quick game needs the three other seats to be computer players."
        )

    def step(name: str) -> str | None:
        return None if command_id is None else f"{command_id}:{name}"

    with transaction.atomic():
        created = create_table(
            actor=actor,
            rules=rules,
            preset=preset,
            seats=others,
            turn_timer_seconds=turn_timer_seconds,
            spectator_delay_tricks=spectator_delay_tricks,
            command_id=step("create"),
        )
        execute(TakeSeat(created.table_id, seat), actor, command_id=step("seat"))
        return start_game(created.table_id, actor, step("start"))


def start_game(table_id: object, actor: Actor, command_id: str | None) -> CommandResult:
    """The quick game's last step (a seam of its own: the tests make it fail)."""
    return execute(StartGame(table_id), actor, command_id=command_id)
