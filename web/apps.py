from django.apps import AppConfig


class WebConfig(AppConfig):
    """Templates and static files of the browser client, and its thin helper endpoints."""

    name = "web"
    verbose_name = "Browser client"
