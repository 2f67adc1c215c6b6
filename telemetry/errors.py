"""Error reports through Sentry (sentry-sdk), when ``SENTRY_DSN`` is set.

The Django integration reports requests' errors, the Celery one tasks' failures, the ASGI
middleware (``services.asgi``) the WebSocket consumers', and the Redis one leaves
breadcrumbs. Every log record at ERROR or above becomes an event (the logging
integration), so the failures of the background threads, which are logged and never
raised into anyone (the commit-notice publisher, the announcers: bot dispatcher and
notifier, the projector's lanes), reach Sentry too; a thread that dies of an exception is
reported by the default threading integration. Each event carries the log context's ids
(``telemetry.logs``) as tags, and no query string: a WebSocket's ``?token=`` never leaves.
"""

from __future__ import annotations

import logging
from typing import Any

import sentry_sdk
from sentry_sdk.integrations.asgi import SentryAsgiMiddleware
from sentry_sdk.integrations.celery import CeleryIntegration
from sentry_sdk.integrations.django import DjangoIntegration
from sentry_sdk.integrations.logging import LoggingIntegration
from sentry_sdk.integrations.redis import RedisIntegration
from sentry_sdk.transport import Transport

from telemetry.logs import current


def init_error_reporting(
    dsn: str,
    *,
    environment: str = "production",
    release: str = "",
    traces_sample_rate: float = 0.0,
    transport: Transport | None = None,
) -> bool:
    """Start reporting to ``dsn`` (nothing without one); whether reporting is on.
    ``transport`` replaces the network (tests)."""
    if not dsn:
        return False
    sentry_sdk.init(
        dsn=dsn,
        environment=environment,
        release=release or None,
        traces_sample_rate=traces_sample_rate,
        integrations=[
            DjangoIntegration(),
            CeleryIntegration(),
            RedisIntegration(),
            LoggingIntegration(level=logging.INFO, event_level=logging.ERROR),
        ],
        before_send=with_log_context,
        transport=transport,
    )
    return True


def reporting() -> bool:
    """Whether errors are being reported."""
    return sentry_sdk.get_client().is_active()


def with_log_context(event: Any, hint: Any) -> Any:
    """Sentry's ``before_send``: the log context's ids as tags; no query string."""
    tags = event.get("tags")
    if not isinstance(tags, dict):
        tags = event["tags"] = {}
    tags.update(current())
    request = event.get("request")
    if isinstance(request, dict):
        request.pop("query_string", None)
        if isinstance(request.get("url"), str):
            request["url"] = request["url"].split("?", 1)[0]
    return event


def reporting_asgi(application: Any) -> Any:
    """``application`` with Sentry's ASGI middleware when reporting is on (WebSocket
    consumers' errors), else unchanged."""
    return SentryAsgiMiddleware(application) if reporting() else application
