from django.apps import AppConfig

# No models behind these (signals, the redactor and due-time registries), so they load
# with the registry.
from eventstore.redaction import register_redactor
from eventstore.signals import events_committed
from games.live.due import register_rule
from games.live.presence import seated_player_connected


class LeaguesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "leagues"

    def ready(self) -> None:
        # Imported here, not at the top: the projections, the receivers (through
        # leagues.services.presence), both quota modules, the tasks (the par task's too) and
        # the duplicate selector (the par redactor) import models, which cannot load while
        # the app registry is being filled.
        # Standings, table results and ratings follow the event log (projector process).
        from eventstore.subscriptions import register_projection
        from games.services.quotas import bot_tables_elsewhere
        from leagues.duplicate_tasks import on_boards_committed
        from leagues.projections import (
            board_ends,
            duplicate_skill,
            match_results,
            official_standings,
            player_ratings,
        )
        from leagues.receivers import on_seated_player_connected
        from leagues.selectors.duplicate import redacted_event_data
        from leagues.services.quotas import open_competition_bot_tables
        from leagues.tasks import SWEEP, competition_commit_rule

        register_projection(official_standings)
        register_projection(match_results)
        register_projection(board_ends)
        register_projection(player_ratings)
        register_projection(duplicate_skill)
        # The round schedule's sweep reads the competitions only when one is due.
        register_rule(SWEEP, competition_commit_rule)
        # Opening a competition table checks its player in (however they got there).
        seated_player_connected.connect(
            on_seated_player_connected, dispatch_uid="leagues.receivers.arrival"
        )
        # A board's par is not shown in the event admin before its round is revealed.
        register_redactor(redacted_event_data)
        # A duplicate round's boards committed: its par is computed on the bot workers.
        events_committed.connect(on_boards_committed, dispatch_uid="leagues.duplicate.par")
        # A competition's all-bot tables count against its creator's all-bot table quota.
        bot_tables_elsewhere.connect(
            open_competition_bot_tables, dispatch_uid="leagues.quotas.bot_tables"
        )
