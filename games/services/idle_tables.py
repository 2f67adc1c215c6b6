"""Abandoning all-bot tables nobody has acted at for a while (a scheduler job).

Four bots write events as fast as they move and a game under generous rules may never
end.  No person can act at an all-bot table once it is created and started, so its idle
time runs from the later of the two; past ``settings.SPADES_BOT_TABLE_IDLE_SECONDS`` the
scheduler abandons it (``TableAbandoned``, reason ``idle``).
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from django.conf import settings
from django.utils import timezone

from eventstore.models import Event
from games.domain import events as ev
from games.domain.streams import table_stream_id
from games.domain.table import LOBBY, PLAYING_STATUS
from games.models import Table

from .actors import SystemActor
from .errors import CommandRejected
from .quotas import is_all_bots
from .table_commands import AbandonTable, execute

logger = logging.getLogger(__name__)

SCHEDULER = SystemActor("scheduler")


def _last_person_action(table: Table) -> datetime:
    started = (
        Event.objects.filter(stream_id=table_stream_id(table.id), type=ev.GAME_STARTED)
        .order_by("version")
        .values_list("recorded_at", flat=True)
        .first()
    )
    return started or table.created_at


def abandon_idle_bot_tables(now: datetime | None = None) -> int:
    """Abandon every open all-bot table idle past the setting; returns how many."""
    now = now or timezone.now()
    cutoff = now - timedelta(seconds=settings.SPADES_BOT_TABLE_IDLE_SECONDS)
    # Only tables created before the cutoff can be idle past it.
    candidates = Table.objects.filter(
        status__in=(LOBBY, PLAYING_STATUS), created_at__lt=cutoff
    ).only("id", "seats", "created_at")
    abandoned = 0
    for table in candidates.iterator():
        if not is_all_bots(table.seats) or _last_person_action(table) >= cutoff:
            continue
        try:
            execute(AbandonTable(table.id), SCHEDULER)
        except CommandRejected as refusal:  # it ended (or was abandoned) meanwhile
            logger.info("idle table %s not abandoned: %s", table.id, refusal.message)
            continue
        abandoned += 1
    return abandoned
