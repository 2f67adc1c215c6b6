"""App config: connects the after-commit fan-out in every process (web, worker, ...)."""

from __future__ import annotations

from django.apps import AppConfig

from eventstore.signals import events_committed
from games.live.due import on_events_committed as on_commit_due
from games.live.due import register_rule
from games.live.fanout import on_events_committed


class LiveConfig(AppConfig):
    """``games.live``: on-commit notices for the WebSocket consumers and the projector."""

    name = "games.live"
    label = "live"
    verbose_name = "Live play"

    def ready(self) -> None:
        events_committed.connect(on_events_committed, dispatch_uid="games.live.fanout")
        # Imported here: the timers read the tables' read model (games.models), which
        # cannot be imported while the app registry is being filled.
        from games.live.timers import SWEEP, turn_deadline_rule

        # The scheduler's sweeps are brought forward by the commits that make them due.
        register_rule(SWEEP, turn_deadline_rule)
        events_committed.connect(on_commit_due, dispatch_uid="games.live.due")
