"""The table is the match (issue 17, point 1): all-bot competitions through a real Celery
worker and a real projector, with ``fixed_hands`` 1 (a Swiss), 2 (a knockout, whose
level match would go on to extra hands) and a game to the target: each table deals
exactly its match's hands, and every board's recorded result is its table's own final
ledger (points, winner, hands), which is also what the table's replay under its own
rules gives (the rescoring service), the standings count and the export writes.

Real PostgreSQL (the test database, committed for real) and Redis, as in
tests/integration/live: the test is unmarked and uses ``live_db``.
"""

from __future__ import annotations

import csv
import io
from typing import Any

from eventstore.reading import read_stream
from games.domain import events as table_events
from games.domain.streams import table_stream_id
from games.domain.table import FINISHED, TableState
from leagues.core.results import KNOCKOUT_EXTRA_HANDS
from leagues.domain.table_owner import TableOwner
from leagues.models import CompetitionTable
from leagues.selectors.competitions import export_csv
from leagues.services.streams import load
from leagues.services.tables import start_round
from scoring.services.rescoring import rescore
from tests.integration.leagues import builders as lg
from tests.integration.live.conftest import Processes, new_user

from .test_end_to_end import closed, projector

SIDES = ("north_south", "east_west")


def competition(organiser: Any, name: str, stages: list[dict[str, Any]], fixed: int | None) -> str:
    spec: dict[str, Any] = {
        "name": name,
        "stages": stages,
        # A target a game may pass within its first hands: a fixed-hands table ignores it.
        "rules": {"preset": "standard", "target_score": 100, "lose_score": -100},
        "bot_level": "easy",
    }
    if fixed is not None:
        spec["fixed_hands"] = fixed
    cid = lg.create_competition(organiser, spec).competition_id
    for number in range(1, 5):
        a, b = new_user("p"), new_user("p")
        lg.enter(organiser, cid, entrant_id=f"e{number}", players=[str(a.pk), str(b.pk)])
    return cid


def check_every_board(cid: str, fixed: int | None, knockout: bool) -> int:
    """Every table result equals its table's final ledger; the number of tables."""
    state = load(cid)
    checked = 0
    for result in state.results:
        table_id = state.result_info[result.id].table_id
        assert table_id is not None and state.result_info[result.id].source == "table"
        events = read_stream(table_stream_id(table_id))
        table = TableState.fold(events)
        ledger = table.game.ledger  # type: ignore[union-attr]
        dealt = sum(1 for e in events if e.type == table_events.HAND_DEALT)
        assert table.status == FINISHED
        # Tables know their competition: the owner tag names the match.
        assert TableOwner.of(events[0].data["owner"]) == TableOwner(cid, result.round, result.board)
        if fixed is not None:
            assert table.rules.hands == fixed
            level_at_n = ledger.hands[fixed - 1].teams[0].total == (
                ledger.hands[fixed - 1].teams[1].total
            )
            if knockout and level_at_n:
                assert fixed < dealt <= fixed + KNOCKOUT_EXTRA_HANDS
            else:
                assert dealt == fixed, f"{dealt} hands dealt in a {fixed}-hand match"
        else:
            assert table.rules.hands is None
            assert ledger.winner is not None
        assert dealt == len(ledger.hands) == ledger.finished_after_hand
        # The recorded result is the table's final state, exactly.
        points = (result.north_south_points, result.east_west_points)
        assert points == (ledger.totals[0], ledger.totals[1])
        assert result.winner == (None if ledger.winner is None else SIDES[ledger.winner])
        assert state.result_info[result.id].hands == dealt
        if knockout:
            assert result.winner is not None
        # The replay under the table's own rules says the same (the rescoring service).
        (replayed,) = rescore([table_id], table.rules_snapshot)
        assert replayed["totals"] == {"north_south": points[0], "east_west": points[1]}
        assert replayed["winner"] == result.winner
        assert replayed["finished_after_hand"] == dealt and replayed["hands_after_end"] == 0
        checked += 1
    # The export writes the same points and winners.
    _name, text = export_csv(cid)
    rows = list(csv.DictReader(io.StringIO(text.lstrip("\ufeff"))))
    by_id = {row["result_id"]: row for row in rows if row["record"] == "result"}
    for result in state.results:
        row = by_id[result.id]
        assert int(row["ns_game_points"]) == result.north_south_points
        assert int(row["ew_game_points"]) == result.east_west_points
        assert (row["winner"] or None) == result.winner
    return checked


def test_fixed_hands_and_target_tables_record_their_own_final_state(
    live_db: None, processes: Processes
) -> None:
    processes.worker(concurrency=2)
    projector(processes)
    organiser = new_user("organiser")
    one = competition(organiser, "One hand", [{"kind": "swiss", "rounds": 2}], 1)
    two = competition(organiser, "Two hands", [{"kind": "knockout"}], 2)
    target = competition(organiser, "To the target", [{"kind": "swiss", "rounds": 1}], None)

    for cid, rounds in ((one, 2), (two, 2), (target, 1)):
        for number in range(1, rounds + 1):
            lg.pair_next_round(organiser, cid)
            start_round(organiser, cid, number)
            assert CompetitionTable.objects.filter(competition_id=cid, round=number).exists()
            closed(cid, number, processes)

    assert check_every_board(one, 1, knockout=False) == 4
    assert check_every_board(two, 2, knockout=True) == 3
    assert check_every_board(target, None, knockout=False) == 2
    for cid in (one, two, target):
        assert load(cid).finished
