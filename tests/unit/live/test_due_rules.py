"""The rules by which a commit brings the scheduler's sweeps forward (``games.live.due``)."""

from __future__ import annotations

import time
import uuid

from bots.watchdog import bot_due_rule
from games.live.timers import turn_deadline_rule
from leagues.tasks import competition_commit_rule

TABLE = f"table-{uuid.uuid4()}"


def test_a_running_turn_timer_is_due_at_its_deadline() -> None:
    now = time.time()
    at = turn_deadline_rule(TABLE, [], {"turn_timer_seconds": 30})
    assert at is not None and now + 29 < at < time.time() + 31
    assert turn_deadline_rule(TABLE, [], {"turn_timer_seconds": None}) is None
    assert turn_deadline_rule("competition-x", [], {}) is None
    # A table's commit that does not say: looked at once.
    unknown = turn_deadline_rule(TABLE, [], {})
    assert unknown is not None and unknown <= time.time()


def test_a_bot_to_act_is_due_for_the_watchdog_when_it_would_be_overdue(settings) -> None:
    settings.BOT_OVERDUE_SECONDS = 3
    at = bot_due_rule(TABLE, [], {"bot_to_act": True})
    assert at is not None and time.time() + 2 < at <= time.time() + 3
    assert bot_due_rule(TABLE, [], {"bot_to_act": False}) is None
    assert bot_due_rule(TABLE, [], {}) is not None
    assert bot_due_rule("league-x", [], {"bot_to_act": True}) is None


def test_a_competition_commit_makes_the_round_schedule_look_at_once() -> None:
    at = competition_commit_rule(f"competition-{uuid.uuid4()}", [], {})
    assert at is not None and at <= time.time()
    assert competition_commit_rule(TABLE, [], {}) is None
