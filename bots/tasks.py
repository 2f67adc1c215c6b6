"""Celery edge for bot moves (queue ``bots``): parse, call one service, return its outcome."""

from __future__ import annotations

import uuid
from typing import Any

from celery import shared_task

from bots.turns import play_bot_turn as play
from games.live.connections import ensure_sound_connection
from telemetry.logs import bind
from telemetry.metrics import count_bot_turn


@shared_task(name="bots.tasks.play_bot_turn", ignore_result=True, acks_late=True)
def play_bot_turn(table_id: str, version: int) -> dict[str, Any]:
    """Play the bot's move at ``table_id`` if the table is still at ``version``.

    Stale, duplicated and retried tasks do nothing (see ``bots.turns``).
    """
    ensure_sound_connection()
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise ValueError(f"version must be a positive integer, got {version!r}")
    table_id = str(uuid.UUID(str(table_id)))
    bind(table_id=table_id)
    # Celery logs the returned outcome (played / stale / not_due / duplicate).
    outcome = play(table_id, version)
    count_bot_turn(outcome.outcome)
    return outcome.as_dict()
