"""App config: connects the after-commit fan-out in every process (web, worker, ...)."""

from __future__ import annotations

from django.apps import AppConfig

from eventstore.signals import events_committed
from games.live.fanout import on_events_committed


class LiveConfig(AppConfig):
    """``games.live``: on-commit notices for the WebSocket consumers and the projector."""

    name = "games.live"
    label = "live"
    verbose_name = "Live play"

    def ready(self) -> None:
        events_committed.connect(on_events_committed, dispatch_uid="games.live.fanout")
