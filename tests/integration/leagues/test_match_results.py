"""The standings lag path in the real projector loop (``services.projector.Projector``):
finished tables' results kept by ``league_match_results`` are appended together after its
batch commits and reach ``league_standings`` in the same wake-up, without the poll.

Real PostgreSQL, committed (``live_db``): the loop runs in its own thread and connection.
"""

from __future__ import annotations

import threading
import uuid
from collections.abc import Iterable
from typing import Any

from django.db import connection
from django.utils import timezone

from eventstore.subscriptions import catch_up, rebuild
from leagues.domain import events as ev
from leagues.models import OfficialStandings, PendingTableResult
from leagues.projections import drain_pending, official_standings, store_standings
from leagues.services.streams import load
from services import projector as projector_process
from services.projector import Projector
from tests.integration.leagues import builders as lg
from tests.integration.live.conftest import NoNotices, new_user, wait_until


def paired_swiss(entrants: int) -> str:
    organiser = new_user(f"lag{uuid.uuid4().hex[:8]}")
    state = lg.create_competition(
        organiser, {"name": "Lag Swiss", "stages": [{"kind": "swiss", "rounds": 2}]}
    )
    cid = state.competition_id
    for number in range(1, entrants + 1):
        lg.enter(
            organiser,
            cid,
            entrant_id=f"e{number}",
            players=[str(new_user("lag").pk), str(new_user("lag").pk)],
        )
    lg.pair_next_round(organiser, cid)
    return cid


def finished_together(cid: str, boards: Iterable[Any]) -> None:
    """What ``league_match_results`` keeps for ``boards``' tables of round 1, finished
    together: North-South won each, 250 to 120, with bots."""
    PendingTableResult.objects.bulk_create(
        PendingTableResult(
            table_id=uuid.uuid4(),
            competition_id=cid,
            round=1,
            board=pairing.board,
            result={
                "points": {"north_south": 250, "east_west": 120},
                "winner": "north_south",
                "hands": 5,
                "bots": True,
            },
            finished_at=timezone.now(),
        )
        for pairing in boards
    )


def test_a_burst_of_table_results_reaches_the_standings_in_one_wake_up(
    live_db: Any, monkeypatch: Any
) -> None:
    cid = paired_swiss(8)
    boards = load(cid).paired_round(1).pairing.matches  # type: ignore[union-attr]
    assert len(boards) == 4
    finished_together(cid, boards)
    # Neither a poll nor a notice of the projector's own append (or of anything else
    # committed meanwhile) can hide a missed round.
    monkeypatch.setattr(projector_process, "commit_notices", NoNotices)
    projector = Projector(poll_seconds=120.0)
    loop = threading.Thread(target=projector.run, daemon=True)
    loop.start()
    try:

        def closed_in_standings() -> Any:
            row = OfficialStandings.objects.filter(competition_id=cid).first()
            return row if row is not None and row.document["closed_rounds"] == [1] else None

        row = wait_until(closed_in_standings, 60, "the standings to hold round 1's results")
        assert projector.wakeups == 0  # the results' append never waited for a wake-up
    finally:
        projector.stop()
        loop.join(timeout=10)
    assert not loop.is_alive()
    state = load(cid)
    assert row.version == state.version
    assert len(state.results) == 4 and 1 in state.closed
    assert not PendingTableResult.objects.filter(competition_id=cid).exists()
    # One fold and one transaction for the burst: the results share their commit time.
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(DISTINCT recorded_at), count(*) FROM eventstore_event "
            "WHERE stream_id = %s AND type = %s",
            [ev.competition_stream_id(cid), ev.MATCH_RESULT_RECORDED],
        )
        assert cursor.fetchone() == (1, 4)


def test_the_standings_projection_is_the_standings_one_writer(live_db: Any) -> None:
    """``drain_pending`` appends the results and writes no standings; the projection,
    catching up, writes the results' version, never moves the row back, and rebuilt it
    holds the same document."""
    cid = paired_swiss(4)
    catch_up(official_standings)
    before = load(cid)
    assert OfficialStandings.objects.get(competition_id=cid).version == before.version
    finished_together(cid, before.paired_round(1).pairing.matches)  # type: ignore[union-attr]
    assert drain_pending() == 2
    after = load(cid)
    assert len(after.results) == 2 and 1 in after.closed
    assert OfficialStandings.objects.get(competition_id=cid).version == before.version
    catch_up(official_standings)
    row = OfficialStandings.objects.get(competition_id=cid)
    assert row.version == after.version
    assert row.document["closed_rounds"] == [1]
    # An older state (a second projector behind the first) leaves the row alone.
    assert store_standings([before]) == {}
    assert OfficialStandings.objects.get(competition_id=cid).version == after.version
    rebuild(official_standings)
    rebuilt = OfficialStandings.objects.get(competition_id=cid)
    assert (rebuilt.version, rebuilt.document) == (row.version, row.document)
