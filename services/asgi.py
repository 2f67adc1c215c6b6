"""ASGI entry point: HTTP (Django) and WebSocket (Channels). Served by daphne (services.web).

WebSocket authentication: the session (AuthMiddlewareStack) or a DRF token in ``?token=``.
Outermost, ``services.proxies.TrustedProxyMiddleware`` makes every HTTP request and
WebSocket connection its real client's (``TRUSTED_PROXIES``); inside it, Sentry's ASGI
middleware when ``SENTRY_DSN`` is set (``telemetry.errors``).
"""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "services.settings")

# Initialise Django (app registry) before importing anything that touches models.
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402
from django.conf import settings  # noqa: E402

from games.live.auth import TokenAuthMiddleware  # noqa: E402
from services.http_threads import http_application  # noqa: E402
from services.proxies import TrustedProxyMiddleware  # noqa: E402
from services.routing import websocket_urlpatterns  # noqa: E402
from telemetry.errors import reporting_asgi  # noqa: E402

http_app = django_asgi_app
if settings.DEBUG:
    # Development only: serve static files (admin CSS, ...) like `runserver` does.
    from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler

    http_app = ASGIStaticFilesHandler(django_asgi_app)
# The table API in a bounded pool of threads, each request whole in one of them.
http_app = http_application(http_app)

application = TrustedProxyMiddleware(
    reporting_asgi(
        ProtocolTypeRouter(
            {
                "http": http_app,
                "websocket": AllowedHostsOriginValidator(
                    AuthMiddlewareStack(TokenAuthMiddleware(URLRouter(websocket_urlpatterns)))
                ),
            }
        )
    )
)

# Load the URL patterns (and with them the views) now, then take everything loaded so
# far out of the garbage collector's full collections (services/heap.py).
from django.urls import get_resolver  # noqa: E402

from services.heap import settle_after_startup  # noqa: E402

get_resolver().url_patterns  # noqa: B018 - imported for its side effect
settle_after_startup()
