"""Tables made from the lobby in one step, with their creator already seated.

- a **quick game**: the three other seats are computer players and the game starts at once;
- a **friends' table**: at least one other seat is left for a person, and the table waits
  in the lobby (the others join by invite link or from the open tables).

The page used to make two or three calls (create, take a seat, start); a failure between
them left a half-made table in the lobby. Here the commands run in one transaction, so
either the use case is done or nothing was written. With a command id each step gets an id
derived from it, so a retried request answers with the table the first one made.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction

from .actors import Actor
from .command_runner import CommandResult
from .errors import CommandRejected
from .table_commands import ReserveSeat, StartGame, TakeSeat, create_table, execute


@dataclass(frozen=True)
class SeatedTable:
    """What both use cases are asked for: the creator, the seat they take, and the table
    as ``create_table`` takes it (``seats`` describes only the other seats)."""

    actor: Actor
    seat: object
    rules: str | dict[str, Any] | None = None
    preset: str | None = None
    seats: Mapping[Any, Any] = field(default_factory=dict)
    turn_timer_seconds: int | None = None
    spectator_delay_tricks: int = 0
    command_id: str | None = None
    # The other human seats kept for friends: each is taken only by its invite link.
    invited: Sequence[Any] = ()
    # A quick game of another service's making (a duplicate board played again): the
    # pinned preset version, the owner tag, the table's own seed and the first dealer.
    preset_version: int | None = None
    owner: Mapping[str, Any] | None = None
    own_seed: str | None = None
    first_dealer: object = None


def _bot_seats(seats: Mapping[Any, Any]) -> list[Any]:
    return [name for name, spec in seats.items() if (spec or {}).get("kind", "human") == "bot"]


def _step(request: SeatedTable, name: str) -> str | None:
    return None if request.command_id is None else f"{request.command_id}:{name}"


def _create_and_sit(request: SeatedTable) -> CommandResult:
    created = create_table(
        actor=request.actor,
        rules=request.rules,
        preset=request.preset,
        seats=dict(request.seats),
        turn_timer_seconds=request.turn_timer_seconds,
        spectator_delay_tricks=request.spectator_delay_tricks,
        command_id=_step(request, "create"),
        preset_version=request.preset_version,
        owner=None if request.owner is None else dict(request.owner),
        own_seed=request.own_seed,
    )
    return take_seat(created.table_id, request.seat, request.actor, _step(request, "seat"))


def start_quick_game(request: SeatedTable) -> CommandResult:
    """Create a table whose other seats are bots, sit the actor at ``seat``, start it.

    ``seats`` describes the other seats (as for ``create_table``); every one of them must be
    a bot, since nobody else is there to sit down before the game starts.
    """
    if request.seat in request.seats:
        raise CommandRejected("bad_seats", "Your own seat cannot also be given to a bot.")
    if len(_bot_seats(request.seats)) != 3 or len(request.seats) != 3:
        raise CommandRejected(
            "bad_seats", "A quick game needs the three other seats to be computer players."
        )
    with transaction.atomic():
        seated = _create_and_sit(request)
        return start_game(
            seated.table_id, request.actor, _step(request, "start"), request.first_dealer
        )


def open_friends_table(request: SeatedTable) -> CommandResult:
    """Create a table in the lobby and sit the actor at ``seat``.

    ``seats`` describes the other seats (as for ``create_table``: missing ones are human);
    at least one of them must be left for a person, or it is a quick game.
    ``invited`` names other human seats to keep for friends (``ReserveSeat``): only the
    invite link of each seats anyone there; the others are open to anyone.
    """
    if request.seat in request.seats:
        raise CommandRejected("bad_seats", "Your own seat is yours: describe only the others.")
    if len(_bot_seats(request.seats)) >= 3:
        raise CommandRejected(
            "bad_seats", "Leave at least one seat for a friend, or start a quick game."
        )
    bots = set(_bot_seats(request.seats))
    for seat in request.invited:
        if seat == request.seat or seat in bots:
            raise CommandRejected(
                "bad_invited",
                f"Only a seat left for a person can be kept for a friend, not {seat}.",
            )
    with transaction.atomic():
        seated = _create_and_sit(request)
        for seat in request.invited:
            seated = execute(
                ReserveSeat(seated.table_id, seat),
                request.actor,
                command_id=_step(request, f"invite-{seat}"),
            )
        return seated


def take_seat(
    table_id: object, seat: object, actor: Actor, command_id: str | None
) -> CommandResult:
    """The creator sits down (a seam of its own: the tests make it fail)."""
    return execute(TakeSeat(table_id, seat), actor, command_id=command_id)


def start_game(
    table_id: object, actor: Actor, command_id: str | None, first_dealer: object = None
) -> CommandResult:
    """The quick game's last step (a seam of its own: the tests make it fail)."""
    return execute(StartGame(table_id, first_dealer), actor, command_id=command_id)
