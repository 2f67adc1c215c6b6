"""The duplicate repair sweep's bookkeeping with the real database (no worker; the
processes' test is ``test_duplicate_repair_live``): a round's check is due a grace after
its boards are committed, the sweep sends nothing before, resends the par task when a
board has none, forgets the round once nothing is left, gives a round up after its
attempts, and reads a bounded number of rows and queries whatever is due."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from leagues.models import DuplicateRoundCheck
from leagues.services import duplicate_repair as repair
from leagues.services.duplicate import compute_round_par
from leagues.tasks import next_sweep_at

from .test_duplicate_api import open_round

pytestmark = pytest.mark.django_db


class Sent:
    """The sweep's sends, kept (the processes' test sends them to a real worker)."""

    def __init__(self) -> None:
        self.par: list[tuple[str, int]] = []
        self.reveals: list[str] = []

    def resend_par(self, competition_id: str, round_number: int) -> None:
        self.par.append((competition_id, round_number))

    def reveal(self, table_id: str) -> bool:
        self.reveals.append(table_id)
        return True

    def sweep(self, at: Any) -> int:
        return repair.run_repairs(self.resend_par, self.reveal, at)


def test_a_lost_par_is_sent_again_after_the_grace_and_then_forgotten() -> None:
    before = timezone.now()
    cid, _organiser, _players = open_round()
    check = DuplicateRoundCheck.objects.get(competition_id=cid, round=1)
    grace = repair.repair_grace()
    assert before + grace <= check.due_at <= timezone.now() + grace
    assert next_sweep_at() is not None and next_sweep_at() <= check.due_at  # type: ignore[operator]

    sent = Sent()
    assert sent.sweep(timezone.now()) == 0 and sent.par == []  # not due yet
    later = check.due_at + timedelta(seconds=1)
    assert sent.sweep(later) == 1
    assert sent.par == [(cid, 1)] and sent.reveals == []  # the round is not revealed
    check.refresh_from_db()
    assert check.due_at == later + grace and check.attempts == 1

    # The par arrives (as the resent task computes it); the next look finds nothing.
    assert compute_round_par(cid, 1) == 2
    assert sent.sweep(check.due_at) == 0 and sent.par == [(cid, 1)]
    check.refresh_from_db()
    assert check.due_at is None


def test_a_round_is_given_up_after_its_attempts(caplog: Any) -> None:
    cid, _organiser, _players = open_round()
    DuplicateRoundCheck.objects.filter(competition_id=cid).update(
        attempts=repair.REPAIR_ATTEMPTS - 1, due_at=timezone.now()
    )
    sent = Sent()
    assert sent.sweep(timezone.now()) == 1
    check = DuplicateRoundCheck.objects.get(competition_id=cid)
    assert check.due_at is None and check.attempts == repair.REPAIR_ATTEMPTS
    assert "given up" in caplog.text


def test_one_sweep_is_bounded_whatever_is_due() -> None:
    now = timezone.now()
    # Rounds of competitions that do not exist: each is looked at and forgotten.
    DuplicateRoundCheck.objects.bulk_create(
        [
            DuplicateRoundCheck(
                competition_id=f"00000000-0000-4000-8000-{n:012d}", round=1, due_at=now
            )
            for n in range(repair.MAX_PER_SWEEP + 7)
        ]
    )
    sent = Sent()
    with CaptureQueriesContext(connection) as queries:
        assert sent.sweep(now) == 0
    # One row query, and per round a stream read and one update: never more.
    assert len(queries) <= 1 + 3 * repair.MAX_PER_SWEEP
    assert DuplicateRoundCheck.objects.filter(due_at__isnull=False).count() == 7
    with CaptureQueriesContext(connection) as queries:
        assert sent.sweep(now) == 0
    assert DuplicateRoundCheck.objects.filter(due_at__isnull=False).count() == 0
    with CaptureQueriesContext(connection) as queries:
        assert sent.sweep(now) == 0
    assert len(queries) == 1  # nothing due: the row query alone
