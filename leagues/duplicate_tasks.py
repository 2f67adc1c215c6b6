"""A duplicate round's par, computed on the bot workers (queue ``bots``: the name does not
start with ``leagues.tasks.``, so ``services.celery.route_task`` sends it there).

:func:`on_boards_committed` receives ``eventstore.signals.events_committed`` (connected in
``leagues.apps``): when a competition's commit holds ``BoardsCommitted``, the round's par
task is sent. Sending twice is harmless: each board's ``BoardParComputed`` has its own
command id (``par:<round>:<board>``) and a board with a par is skipped; a send that is
lost is sent again by the repair sweep (:func:`resend_par`,
``leagues.services.duplicate_repair``).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from celery import shared_task

from games.live.connections import ensure_sound_connection
from leagues.domain.events import BOARDS_COMMITTED, competition_id_of
from leagues.services.duplicate import compute_round_par

logger = logging.getLogger(__name__)


@shared_task(name="leagues.duplicate_tasks.compute_par", ignore_result=True)
def compute_par(competition_id: str, round_number: int) -> int:
    """Record the par of every board of the round that has none yet; how many."""
    ensure_sound_connection()
    return compute_round_par(competition_id, int(round_number))


def resend_par(competition_id: str, round_number: int) -> None:
    """The repair sweep's resend of a round's par task (``duplicate_repair``)."""
    compute_par.apply_async(args=(competition_id, int(round_number)))


def on_boards_committed(
    sender: object, stream_id: str, events: Sequence[Any], **kwargs: Any
) -> None:
    """Receiver of ``events_committed``: a round's boards committed, its par is due."""
    competition_id = competition_id_of(stream_id)
    if competition_id is None:
        return
    for event in events:
        if event.type != BOARDS_COMMITTED:
            continue
        try:
            compute_par.apply_async(args=(competition_id, int(event.data["round"])))
        except Exception:
            logger.exception("par of %s round %s not sent", competition_id, event.data["round"])
