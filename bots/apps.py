from django.apps import AppConfig

from eventstore.signals import events_committed
from games.live.due import register_rule


class BotsConfig(AppConfig):
    """``bots``: listens to every commit and sends the turn of a bot that is due."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "bots"
    verbose_name = "Computer players"

    def ready(self) -> None:
        # Imported once the app registry is ready: the dispatcher and the watchdog read the
        # tables' read model (games.models), which cannot be imported while the registry is
        # populated.
        from bots.dispatch import on_events_committed
        from bots.watchdog import SWEEP, bot_due_rule

        events_committed.connect(on_events_committed, dispatch_uid="bots.dispatch")
        # The watchdog reads the tables only once a bot may be overdue.
        register_rule(SWEEP, bot_due_rule)
