"""The round schedule through the real processes: Celery beat sends
``leagues.tasks.run_round_schedule``, a real worker runs it and plays the bots, a real
projector appends the table's result. A round whose start time has come opens; with no
grace time its four absent players are no-shows, bots (the competition allows them) take
their seats, the game is played, and the result is flagged as a bot substitute's.

Real PostgreSQL (committed for real) and Redis, as in tests/integration/live.
"""

from __future__ import annotations

from django.utils import timezone

from leagues.domain import events as ev
from leagues.services.streams import load
from tests.integration.leagues import builders as lg
from tests.integration.live.conftest import Processes, new_user, wait_until

from .test_end_to_end import closed, projector


def test_a_scheduled_round_opens_and_bots_play_for_its_no_shows(
    live_db: None, processes: Processes
) -> None:
    # The sweep every second, so the test waits about as long as a real job would.
    processes.env = {**processes.env, "SPADES_ROUND_SCHEDULE_INTERVAL": "1"}
    processes.worker(concurrency=2)
    processes.scheduler()
    projector(processes)
    organiser = new_user("organiser")
    cid = lg.create_competition(
        organiser,
        {
            "name": "Scheduled night",
            "stages": [{"kind": "swiss", "rounds": 1}],
            "rules": {"preset": "standard", "target_score": 100, "lose_score": -100},
            "round_starts": [timezone.now().isoformat()],
            "grace_minutes": 0,
            "bots_for_no_shows": True,
        },
    ).competition_id
    for number in (1, 2):
        a, b = new_user("p"), new_user("p")
        lg.enter(organiser, cid, entrant_id=f"e{number}", players=[str(a.pk), str(b.pk)])
    lg.pair_next_round(organiser, cid, round_number=1)

    def opened() -> bool:
        return 1 in load(cid).started

    try:
        wait_until(opened, 60, "round 1 opened by the schedule", poll=0.2)
    except AssertionError as exc:
        raise AssertionError(f"{exc}\n{processes.logs()}") from None
    state = closed(cid, 1, processes)
    record = state.no_show_of(1, 1)
    assert record is not None
    assert (record["side"], record["bot"], len(record["seats"])) == ("both", True, 4)
    (result,) = state.results
    assert result.bot_substitute and not result.rated and result.forfeited_by is None
    assert state.result_info[result.id].source == "table"
    types = [e.type for e in lg.events_of(cid)]
    assert types.count(ev.NO_SHOW_RECORDED) == 1
    assert types.index(ev.ROUND_STARTED) < types.index(ev.NO_SHOW_RECORDED)
