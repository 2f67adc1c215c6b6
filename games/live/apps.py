"""App config: connects the after-commit receivers in every process (web, worker, ...)."""

from __future__ import annotations

from django.apps import AppConfig


class LiveConfig(AppConfig):
    """``games.live``: on-commit fan-out and bot dispatch."""

    name = "games.live"
    label = "live"
    verbose_name = "Live play"

    def ready(self) -> None:
        from eventstore.signals import events_committed
        from games.live.fanout import on_events_committed

        events_committed.connect(on_events_committed, dispatch_uid="games.live.fanout")
