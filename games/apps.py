from django.apps import AppConfig


class GamesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games"

    def ready(self) -> None:
        # Imported here, not at the top: these modules import models, which cannot load
        # while the app registry is being filled.
        # verify_events checks every deal against the committed (and revealed) seed.
        from eventstore.redaction import register_metadata_redactor, register_redactor
        from eventstore.verification import register_verifier, set_table_stream_resolver
        from games.domain.streams import table_stream_id
        from games.selectors.visibility import spectator_event_data, spectator_event_metadata
        from games.services.deal_verification import check_deals

        register_verifier(check_deals, "deal commitment")
        # verify_events --table ID: the store knows no tables, the tables app spells them.
        set_table_stream_resolver(table_stream_id)
        # The event admin shows staff a hand in progress as a spectator sees it.
        register_redactor(spectator_event_data)
        register_metadata_redactor(spectator_event_metadata)
