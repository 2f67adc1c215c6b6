from django.apps import AppConfig


class ScoringConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "scoring"

    def ready(self) -> None:
        # Imported here, not at the top: these modules import models, which cannot load
        # while the app registry is being filled.
        # The score ledger follows the event log (projector process; rebuild_projections).
        from eventstore.subscriptions import register_projection
        from scoring.projections import score_ledger

        register_projection(score_ledger)
