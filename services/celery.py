"""Celery application ``services``: broker is REDIS_URL (see settings.CELERY_*)."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "services.settings")

app = Celery("services")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
