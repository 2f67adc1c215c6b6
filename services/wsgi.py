"""WSGI entry point (HTTP only; the platform is served over ASGI, see asgi.py)."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "services.settings")

application = get_wsgi_application()
