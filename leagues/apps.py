from django.apps import AppConfig


class LeaguesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "leagues"

    def ready(self) -> None:
        # Imported here, not at the top: these modules import models, which cannot load
        # while the app registry is being filled.
        # Standings, table results and ratings follow the event log (projector process).
        from eventstore.subscriptions import register_projection
        from leagues.projections import match_results, official_standings, player_ratings

        register_projection(official_standings)
        register_projection(match_results)
        register_projection(player_ratings)
