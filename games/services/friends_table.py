"""A table for friends: made with the player already seated, as one use case.

The page used to make two calls (create, then take a seat); a failure between them left a
table in the lobby with nobody at it. Here both commands run in one transaction, so either
the player sits at the new table (the others join by invite link or from the open tables)
or nothing was written. With a command id each step gets an id derived from it, so a
retried request answers with the table the first one made.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction

from .actors import Actor
from .command_runner import CommandResult
from .errors import CommandRejected
from .table_commands import TakeSeat, create_table, execute


def open_friends_table(
    *,
    actor: Actor,
    seat: object,
    rules: str | dict[str, Any] | None = None,
    preset: str | None = None,
    seats: dict[Any, Any] | None = None,
    turn_timer_seconds: int | None = None,
    command_id: str | None = None,
) -> CommandResult:
    """Create a table in the lobby and sit the actor at ``seat``.

    ``seats`` describes the other seats (as for ``create_table``: missing ones are human);
    at least one of them must be left for a person, or it is a quick game.
    """
    others = dict(seats or {})
    if seat in others:
        raise CommandRejected("bad_seats", "Your own seat is yours: describe only the others.")
    bots = [name for name, spec in others.items() if (spec or {}).get("kind", "human") == "bot"]
    if len(bots) >= 3:
        raise CommandRejected(
            "bad_seats", "Leave at least one seat for a friend, or start a quick game."
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
            command_id=step("create"),
        )
        return take_seat(created.table_id, seat, actor, step("seat"))


def take_seat(
    table_id: object, seat: object, actor: Actor, command_id: str | None
) -> CommandResult:
    """The last step (a seam of its own: the tests make it fail)."""
    return execute(TakeSeat(table_id, seat), actor, command_id=command_id)
