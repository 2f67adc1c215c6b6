"""End to end through the platform: an 8-entrant, 3-round Swiss whose every table is
played by Easy bots in a real Celery worker, its results appended by the
``league_match_results`` projection in a real projector process, to final standings;
one withdrawal, one late join, one correction; then ``verify_pairings`` passes, and
fails once a stored ``RoundPaired`` is rewritten.

Real PostgreSQL (the test database, committed for real) and Redis, as in
tests/integration/live: the test is unmarked and uses ``live_db``.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from leagues.models import CompetitionTable, OfficialStandings
from leagues.services.streams import load
from leagues.services.tables import start_round
from services.testing.processes import ManagedProcess, log_contains
from tests.integration.leagues import builders as lg
from tests.integration.live.conftest import Processes, new_user, wait_until

from .conftest import tampered_last_pairing

pytestmark = pytest.mark.usefixtures("room_for_bot_tables")

ROUND_TIMEOUT = 150.0  # one round of four bot tables to 100, on a loaded 2-core machine


def projector(processes: Processes) -> ManagedProcess:
    """The real projector process (``services.projector``), stopped with the others."""
    process = ManagedProcess(
        "projector",
        "services.projector",
        ["--poll", "0.3"],
        processes.env,
        processes.log_dir,
        log_contains("projector started"),
    )
    processes.started.append(process)
    return process.start(timeout=60)


def closed(cid: str, number: int, processes: Processes) -> Any:
    """Wait until the competition stream has closed round ``number`` (every result in)."""

    def round_closed() -> Any:
        state = load(cid)
        return state if number in state.closed else None

    try:
        return wait_until(round_closed, ROUND_TIMEOUT, f"round {number} closed", poll=0.3)
    except AssertionError as exc:
        raise AssertionError(f"{exc}\n{processes.logs()}") from None


def test_a_bot_played_swiss_through_worker_and_projector(
    live_db: None, processes: Processes
) -> None:
    processes.worker(concurrency=2)
    projector(processes)
    organiser = new_user("organiser")
    state = lg.create_competition(
        organiser,
        {
            "name": "Bot Swiss",
            "stages": [{"kind": "swiss", "rounds": 3}],
            "rules": {"preset": "standard", "target_score": 100, "lose_score": -100},
            "late_join_until_round": 2,
            "bot_level": "easy",
        },
    )
    cid = state.competition_id
    for number in range(1, 9):
        a, b = new_user("p"), new_user("p")
        lg.enter(organiser, cid, entrant_id=f"e{number}", players=[str(a.pk), str(b.pk)])

    for number in (1, 2, 3):
        _, paired, _ = lg.pair_next_round(organiser, cid)
        assert paired == number
        start_round(organiser, cid, number)
        assert CompetitionTable.objects.filter(competition_id=cid, round=number).count() == 4
        state = closed(cid, number, processes)
        if number == 1:
            results = [r for r in state.results if r.round == 1]
            assert len(results) == 4
            assert all(state.result_info[r.id].source == "table" for r in results)
            lg.withdraw_entrant(organiser, cid, "e8", reason="train strike")
            a, b = new_user("late"), new_user("late")
            lg.late_join(organiser, cid, entrant_id="late", players=[str(a.pk), str(b.pk)])
            first = results[0]
            loser = "east_west" if first.winner == "north_south" else "north_south"
            lg.correct_result(
                organiser,
                cid,
                first.id,
                points={"north_south": 90, "east_west": 90} | {loser: 120},
                winner=loser,
                reason="the table's score was contested and upheld for the other side",
            )

    state = load(cid)
    assert state.finished
    assert state.closed == {1, 2, 3}
    assert "e8" not in state.paired_round(2).pairing.entrants()  # type: ignore[union-attr]
    assert "late" in state.paired_round(2).pairing.entrants()  # type: ignore[union-attr]
    table_results = [r for r in state.results if state.result_info[r.id].source == "table"]
    assert len(table_results) == 12 and all(r.bot_substitute for r in table_results)
    corrections = [r for r in state.results if r.corrects is not None]
    assert [c.corrects for c in corrections] == [first.id]
    assert corrections[0].winner == loser

    # The projector writes the official standings of the stream's last version.
    document = wait_until(
        lambda: OfficialStandings.objects.filter(
            competition_id=cid, version=load(cid).version
        ).first(),
        30,
        "the official standings at the stream's last version",
        poll=0.2,
    ).document
    assert document["finished"] is True
    rows = document["standings"]["rows"]
    assert len(rows) == 9
    assert [row["rank"] for row in rows] == list(range(1, 10))
    # Round 2 was paired after the correction: no pairing used the old result.
    assert document["stale_pairings"] == []
    corrected_row = next(r for r in rows if r["entrant"] == first.entrant(loser))
    assert corrected_row["wins"] >= 1
    call_command("verify_pairings", cid)
    with tampered_last_pairing(cid), pytest.raises(CommandError, match="round 3"):
        call_command("verify_pairings", cid)
    call_command("verify_pairings", cid)
