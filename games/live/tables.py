"""The tables domain as live play needs it: one adapter over ``games.models.Table`` (the read
model), ``games.domain.table.TableState`` (the fold) and ``games.services.commands`` (the
same application services a human's moves go through). Nothing here decides a rule.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.utils import timezone

from games.live.streams import TABLE_STREAM_PREFIX

PLAYING = "playing"
BOT = "bot"
HUMAN = "human"


def stream_of_table(table_id: object) -> str:
    """The event stream id of a table."""
    return f"{TABLE_STREAM_PREFIX}{table_id}"


def bot_due_version(table_id: object) -> int | None:
    """The read model's version if the seat to act is played by a bot, else None."""
    from games.models import Table

    row = (
        Table.objects.filter(pk=table_id, status=PLAYING, seat_to_act_kind=BOT)
        .values_list("version", flat=True)
        .first()
    )
    return None if row is None else int(row)


def overdue_bot_tables(overdue_seconds: float) -> list[tuple[str, int]]:
    """(table id, version) of every table in play whose bot has been due (the read model's
    ``due_since``) for at least ``overdue_seconds``."""
    from games.models import Table

    cutoff = timezone.now() - dt.timedelta(seconds=overdue_seconds)
    rows = Table.objects.filter(
        status=PLAYING, seat_to_act_kind=BOT, due_since__lte=cutoff
    ).values_list("pk", "version")
    return [(str(pk), int(version)) for pk, version in rows]


def overdue_human_turns(now: dt.datetime | None = None) -> list[tuple[str, int, int]]:
    """(table id, version, seat) of every table in play whose human seat to act has passed
    its turn deadline (only tables with a turn timer have one)."""
    from games.models import Table

    rows = Table.objects.filter(
        status=PLAYING,
        seat_to_act_kind=HUMAN,
        turn_deadline__isnull=False,
        turn_deadline__lte=now or timezone.now(),
        seat_to_act__isnull=False,
    ).values_list("pk", "version", "seat_to_act")
    return [(str(pk), int(version), int(seat)) for pk, version, seat in rows]


def load_table_state(table_id: str) -> Any:
    """The table folded from its whole stream, or None when it has no events."""
    from eventstore.store import read_stream
    from games.domain.table import TableState

    events = read_stream(stream_of_table(table_id))
    if not events:
        return None
    return TableState.fold(events)


def bot_seat_due(state: Any) -> int | None:
    """The first seat whose move the table waits for and that a bot plays, if any."""
    for seat in state.acting_seats():
        if state.controller(seat) == BOT:
            return int(seat)
    return None


def bot_actor(level: str, strategy_version: str, seed: int) -> Any:
    """The actor recorded in a bot move's metadata."""
    from games.services.actors import BotActor

    return BotActor(level=level, strategy_version=strategy_version, seed=seed)


def call_move(
    table_id: str,
    decision: Any,
    *,
    actor: Any,
    seat: int,
    expected_version: int,
    command_id: str,
) -> Any:
    """Apply a strategy's decision through the application service of its kind."""
    from games.services import commands

    common = {
        "actor": actor,
        "seat": seat,
        "expected_version": expected_version,
        "command_id": command_id,
    }
    if decision.kind == "bid":
        bid: object = (
            ("blind_nil" if decision.blind else "nil") if decision.tricks == 0 else decision.tricks
        )
        return commands.place_bid(table_id, bid=bid, **common)
    if decision.kind == "look":
        return commands.look_at_cards(table_id, **common)
    if decision.kind == "pass":
        return commands.pass_cards(table_id, cards=list(decision.cards), **common)
    if decision.kind == "play":
        return commands.play_card(table_id, card=decision.card, **common)
    raise ValueError(f"unknown decision kind {decision.kind!r}")


def is_stale_refusal(exc: BaseException) -> bool:
    """True for the refusal a late task meets: the table moved on (409)."""
    from eventstore.store import WrongExpectedVersion

    if isinstance(exc, WrongExpectedVersion):
        return True
    return getattr(exc, "status", None) == 409


def time_out_turn(
    table_id: str, *, seat: int, expected_version: int, command_id: str, level: str
) -> Any:
    """The timeout command for ``seat`` (recorded as the table's timer)."""
    from games.services import commands
    from games.services.actors import SystemActor

    return commands.time_out_turn(
        table_id,
        actor=SystemActor("timer"),
        seat=seat,
        expected_version=expected_version,
        command_id=command_id,
        level=level,
    )
