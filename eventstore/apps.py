from django.apps import AppConfig


class EventstoreConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "eventstore"
    verbose_name = "Event store"

    def ready(self) -> None:
        # Inside ready(): eventstore.erasable_store reads its model, which cannot load while the
        # app registry is being filled.
        from eventstore.erasable_store import stream_problem
        from eventstore.verification import register_verifier

        register_verifier(stream_problem, name="erasable texts")
