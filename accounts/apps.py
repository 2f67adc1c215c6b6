from django.apps import AppConfig
from django.contrib.auth import get_user_model
from django.db.models.signals import post_delete, post_save


class AccountsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "accounts"
    verbose_name = "Player accounts"

    def ready(self) -> None:
        # Imported here: the token model's module, and accounts.token_cache which imports
        # it, need the app registry ready (AppConfig.ready is Django's place for this).
        from rest_framework.authtoken.models import Token

        from accounts.token_cache import token_deleted, user_changed

        # The process's token cache forgets a token at once when it is deleted or saved
        # anew, and a user's tokens when the user changes (accounts.token_cache).
        post_delete.connect(token_deleted, sender=Token, dispatch_uid="token_cache_delete")
        post_save.connect(token_deleted, sender=Token, dispatch_uid="token_cache_save")
        user_model = get_user_model()
        post_save.connect(user_changed, sender=user_model, dispatch_uid="token_cache_user")
        post_delete.connect(user_changed, sender=user_model, dispatch_uid="token_cache_user_del")
