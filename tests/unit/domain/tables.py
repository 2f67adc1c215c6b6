"""Tables the domain tests start from, decided without a database."""

from __future__ import annotations

from games.domain import decisions as d
from games.domain.table import TableState
from games.engine.rules import PRESETS


def lobby(
    *, created_by: int | None = 1, spectator_delay_tricks: object = 0, **seats: object
) -> TableState:
    """A new standard table, no turn timer; ``seats`` configures seats by name (east="bot")."""
    state = TableState()
    d.decide_create(
        state,
        rules=PRESETS["standard"],
        preset_name="standard",
        preset_version=1,
        seats=seats or None,
        turn_timer_seconds=None,
        created_by=created_by,
        spectator_delay_tricks=spectator_delay_tricks,
    )
    return state
