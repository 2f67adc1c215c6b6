"""Lost messages of a duplicate round, repaired through the real processes (docs/leagues.md,
"Repairing a lost par or reveal"): Celery beat sends the round schedule's sweep every
second, a real worker runs it, plays the bots and computes the par.

- the par task's send is lost when the round starts (the broker refuses it): no board
  has a par; a grace later the sweep sends it again and the worker records every par;
- the tables' ``RevealDeals`` after the round is recorded and revealed is refused (as a
  crash or a rejected command would leave it): the tables stay embargoed, their seed
  unrevealed; a grace later the sweep issues it again, every table reveals its seed and
  its deals verify, and the round's check is forgotten.

Real PostgreSQL (committed) and Redis, as in tests/integration/live.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import timezone

from eventstore.reading import read_stream
from eventstore.subscriptions import catch_up
from games.domain import events as table_events
from games.domain.streams import table_stream_id
from games.domain.table import TableState
from games.live.due import forget
from games.services.deal_verification import check_deals
from leagues import duplicate_tasks
from leagues.models import DuplicateRoundCheck
from leagues.projections import drain_pending, match_results
from leagues.services import duplicate as duplicate_services
from leagues.services.streams import load
from leagues.services.tables import start_round
from leagues.tasks import SWEEP
from tests.integration.leagues import builders as lg
from tests.integration.live.conftest import Processes, new_user, wait_until

from .test_duplicate_round import BOARDS, duplicate_competition

GRACE = 10  # seconds (SPADES_DUPLICATE_REPAIR_SECONDS' least)


def folded(tables: dict[int, str]) -> dict[int, TableState]:
    return {t: TableState.fold(read_stream(table_stream_id(tid))) for t, tid in tables.items()}


def test_a_lost_par_and_a_lost_reveal_are_repaired_by_the_sweep(
    live_db: None, processes: Processes, settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings.SPADES_DUPLICATE_REPAIR_SECONDS = GRACE
    processes.env = {
        **processes.env,
        "SPADES_ROUND_SCHEDULE_INTERVAL": "1",
        "SPADES_DUPLICATE_REPAIR_SECONDS": str(GRACE),
        # A lowering of the due time lost on the way still runs the sweep soon.
        "SPADES_SWEEP_SAFETY_SECONDS": "5",
    }
    forget(SWEEP)
    processes.worker(concurrency=2)
    processes.scheduler()
    organiser = new_user("organiser")
    cid = duplicate_competition(organiser, movement="mitchell")
    lg.pair_next_round(organiser, cid)

    # The par task's send is lost: the broker refuses it.
    def broker_lost(*args: Any, **kwargs: Any) -> None:
        raise ConnectionError("broker lost")

    monkeypatch.setattr(duplicate_tasks.compute_par, "apply_async", broker_lost)
    started_at = timezone.now()
    start_round(organiser, cid, 1)
    monkeypatch.undo()
    state = load(cid)
    assert state.duplicate[1].pars == {}
    check = DuplicateRoundCheck.objects.get(competition_id=cid, round=1)
    assert check.due_at is not None and check.due_at >= started_at

    # The bots play both tables on the worker; their games end holding their seed back.
    tables = state.tables[1]

    def all_held() -> Any:
        states = folded(tables)
        return states if all(s.status == "finished" for s in states.values()) else None

    try:
        wait_until(all_held, 240, "both tables finished")
        # A grace after the start, the sweep sends the par again; the worker records it.
        wait_until(
            lambda: len(load(cid).duplicate[1].pars) == BOARDS, 120, "par recorded", poll=0.3
        )
    except AssertionError as exc:
        raise AssertionError(f"{exc}\n{processes.logs()}") from None
    assert timezone.now() >= check.due_at  # not before its grace
    pars = [e for e in lg.events_of(cid) if e.type == "BoardParComputed"]
    assert len(pars) == BOARDS  # one a board, whatever was sent

    # The round is recorded here (the match-results process) and its tables' reveal is
    # refused: they stay embargoed.
    monkeypatch.setattr(duplicate_services, "reveal_table", lambda table_id: False)
    catch_up(match_results)
    drain_pending()
    monkeypatch.undo()
    state = load(cid)
    assert state.duplicate[1].is_revealed and 1 in state.closed
    assert all(s.revealed_seed is None for s in folded(tables).values())
    check.refresh_from_db()
    assert check.due_at is not None  # set in the reveal's transaction, kept

    # A grace later the sweep issues RevealDeals again: every table reveals its seed.
    def revealed() -> Any:
        states = folded(tables)
        return states if all(s.revealed_seed for s in states.values()) else None

    try:
        states = wait_until(revealed, 120, "tables revealed by the sweep", poll=0.3)
    except AssertionError as exc:
        raise AssertionError(f"{exc}\n{processes.logs()}") from None
    for table, table_state in states.items():
        events = read_stream(table_stream_id(tables[table]))
        assert check_deals(table_stream_id(tables[table]), events) is None
        assert any(e.type == table_events.DEAL_REVEAL_HELD for e in events)
        assert table_state.revealed_seed is not None
    # Nothing left: the round's check is forgotten.
    wait_until(
        lambda: DuplicateRoundCheck.objects.get(competition_id=cid, round=1).due_at is None,
        30,
        "check forgotten",
        poll=0.3,
    )
