"""The repair sweep of duplicate rounds: what a lost message would leave undone, done again
(docs/leagues.md, "Repairing a lost par or reveal").

Two things a duplicate round waits for are sent once, after a commit, and nothing retried
them: the par task (``compute_par``, sent to the bot workers when ``BoardsCommitted``
commits: a worker down or a broker lost, and the round never gets a par), and the tables'
``RevealDeals`` after the round's ``BoardsRevealed`` (a crash between that commit and the
commands, or a refused command, and the tables keep their play hidden from spectators and
their seed unrevealed).

Each duplicate round has a :class:`~leagues.models.DuplicateRoundCheck` row whose
``due_at`` says when the sweep next looks at it: ``REPAIR_GRACE`` after its boards are
committed (its par should be done by then) and after its boards are revealed (in that
transaction; cleared at once when every table revealed and every board has its par). The
sweep runs inside the round schedule's (``leagues.tasks``), so it queries only when its
earliest due time has come (``games.live.due``), and then looks at most ``MAX_PER_SWEEP``
rounds: a row query, and per round one fold of its stream and one query of its tables'
read model, whatever the number of competitions. For a round it:

- sends the par task again when a board has no par (idempotent: each board's par has the
  command id ``par:<round>:<board>`` and a board with a par is skipped);
- once the boards are revealed, issues ``RevealDeals`` to every table still embargoed
  (command id ``reveal-boards:<table>``, as the first time);

then looks again ``REPAIR_GRACE`` later while something is left, at most
``REPAIR_ATTEMPTS`` times (then it logs an error and stops: an operator's matter), and
never again once nothing is left.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import datetime, timedelta

from django.conf import settings
from django.db.models import Min
from django.utils import timezone

from games.models import Table
from leagues.models import DuplicateRoundCheck

from .streams import load

logger = logging.getLogger(__name__)

#: Rounds looked at in one sweep (the oldest due first; the rest wait for the next).
MAX_PER_SWEEP = 50
#: Sweeps that find something to resend before the sweep gives a round up.
REPAIR_ATTEMPTS = 12

#: ``resend_par(competition_id, round)``: send the par task again (the edge's).
ResendPar = Callable[[str, int], None]
#: ``reveal(table_id)``: issue ``RevealDeals`` to a table; whether it is revealed
#: (``leagues.services.duplicate.reveal_table``).
RevealTable = Callable[[str], bool]


def repair_grace() -> timedelta:
    """How long a round's par or reveal may take before the sweep sends it again."""
    return timedelta(seconds=settings.SPADES_DUPLICATE_REPAIR_SECONDS)


def schedule_check(competition_id: str, round_number: int, at: datetime | None) -> None:
    """Set when the sweep next looks at the round (None: not until an event sets it)."""
    DuplicateRoundCheck.objects.update_or_create(
        competition_id=competition_id, round=round_number, defaults={"due_at": at}
    )


def next_repair_at() -> datetime | None:
    """The earliest due time of any round's check (the sweep's next due time), or None."""
    return DuplicateRoundCheck.objects.aggregate(earliest=Min("due_at"))["earliest"]


def embargoed_tables(table_ids: list[str]) -> list[str]:
    """Which of the tables still hide their play and seed (one query of the read model:
    ``embargoed`` is a boards table whose seed is not revealed)."""
    return sorted(
        str(table_id)
        for table_id in Table.objects.filter(id__in=table_ids, embargoed=True).values_list(
            "id", flat=True
        )
    )


def repair_round(
    competition_id: str, round_number: int, resend_par: ResendPar, reveal: RevealTable
) -> tuple[int, bool]:
    """Repair one round: how many things were sent again, and whether anything is left
    to wait for (a par missing, a table still embargoed after its ``RevealDeals``)."""
    state = load(competition_id)
    found = state.duplicate.get(round_number)
    if found is None:
        return 0, False
    done = 0
    left = False
    if any(board not in found.pars for board in found.board_numbers):
        resend_par(competition_id, round_number)
        done += 1
        left = True
    if found.is_revealed:
        for table_id in embargoed_tables(list(state.tables.get(round_number, {}).values())):
            done += 1
            left = not reveal(table_id) or left
    return done, left


def run_repairs(resend_par: ResendPar, reveal: RevealTable, now: datetime | None = None) -> int:
    """One sweep at ``now`` (default: the clock) over the rounds whose check is due; how
    many things it sent again."""
    moment = now or timezone.now()
    due = DuplicateRoundCheck.objects.filter(due_at__lte=moment).order_by("due_at")
    done = 0
    for check in list(due[:MAX_PER_SWEEP]):
        cid = str(check.competition_id)
        try:
            sent, left = repair_round(cid, check.round, resend_par, reveal)
        except Exception:
            # One round's trouble must not stop the others; it is looked at again later.
            logger.exception("repair of %s round %s failed", cid, check.round)
            sent, left = 1, True
        done += sent
        attempts = check.attempts + (1 if sent else 0)
        if left and attempts >= REPAIR_ATTEMPTS:
            logger.error(
                "duplicate round %s of %s still incomplete after %s repairs; given up",
                check.round,
                cid,
                attempts,
            )
            left = False
        if sent:
            logger.warning(
                "duplicate round %s of %s: %s lost message(s) resent", check.round, cid, sent
            )
        DuplicateRoundCheck.objects.filter(pk=check.pk).update(
            due_at=moment + repair_grace() if left else None, attempts=attempts
        )
    return done
