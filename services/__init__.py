"""The Django project: settings, URLs, ASGI/WSGI entry points and the Celery app."""

from services.celery import app as celery_app

__all__ = ["celery_app"]
