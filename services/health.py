"""Health probes: ``/livez`` (the process answers) and ``/readyz`` (it can serve: the
database and Redis answer, every migration is applied, and no projection lags more than
``READYZ_MAX_PROJECTION_LAG_SECONDS``). docker-compose's health check of the web asks
``/readyz``; docs/operations.md, "Health". ``GET /api/health`` (``services.api.views``)
reports the database and Redis checks below.

Each check answers ``{"ok": bool, ...}`` and never raises: a failure names its exception's
class, and the details go to the log.
"""

from __future__ import annotations

import logging
from typing import Any

import redis
from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, connection, connections
from django.db.migrations.executor import MigrationExecutor
from django.http import HttpRequest, JsonResponse

from eventstore.subscriptions import lag_of, registered_projections

logger = logging.getLogger(__name__)


def check_database() -> dict[str, Any]:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception as exc:  # any failure means "not ok"; reported, not raised
        logger.warning("health: database check failed: %s", exc)
        return {"ok": False, "error": exc.__class__.__name__}
    return {"ok": True, "vendor": connection.vendor}


def check_redis() -> dict[str, Any]:
    client = redis.Redis.from_url(settings.REDIS_URL, socket_connect_timeout=1, socket_timeout=1)
    try:
        client.ping()
    except Exception as exc:
        logger.warning("health: redis check failed: %s", exc)
        return {"ok": False, "error": exc.__class__.__name__}
    finally:
        client.close()
    return {"ok": True}


# Once every migration was found applied, this process does not look again (loading the
# migration graph reads every migration file): they are not unapplied under a running site.
_migrated = {"all": False}


def check_migrations() -> dict[str, Any]:
    if _migrated["all"]:
        return {"ok": True}
    try:
        executor = MigrationExecutor(connections[DEFAULT_DB_ALIAS])
        unapplied = executor.migration_plan(executor.loader.graph.leaf_nodes())
    except Exception as exc:
        logger.warning("health: migrations not checked: %s", exc)
        return {"ok": False, "error": exc.__class__.__name__}
    _migrated["all"] = not unapplied
    return {"ok": not unapplied, "unapplied": len(unapplied)}


def check_projections() -> dict[str, Any]:
    """Every projection's lag in seconds, ok while none is over the bound (0: not
    checked)."""
    bound = settings.READYZ_MAX_PROJECTION_LAG_SECONDS
    if not bound:
        return {"ok": True, "checked": False}
    try:
        lags = {p.name: round(lag_of(p)[1], 1) for p in registered_projections()}
    except Exception as exc:
        logger.warning("health: projections not checked: %s", exc)
        return {"ok": False, "error": exc.__class__.__name__}
    return {
        "ok": all(seconds <= bound for seconds in lags.values()),
        "max_lag_seconds": bound,
        "lag_seconds": lags,
    }


def livez(request: HttpRequest) -> JsonResponse:
    """``GET /livez``: 200 while the process answers (no database, no Redis)."""
    return JsonResponse({"status": "ok"})


def readyz(request: HttpRequest) -> JsonResponse:
    """``GET /readyz``: 200 ``{"status": "ok", "checks": {...}}`` when every check passes,
    else 503 with ``"status": "unavailable"``."""
    checks: dict[str, dict[str, Any]] = {"database": check_database(), "redis": check_redis()}
    if checks["database"]["ok"]:
        checks["migrations"] = check_migrations()
        checks["projections"] = check_projections()
    else:
        skipped = {"ok": False, "error": "database unavailable"}
        checks["migrations"] = checks["projections"] = skipped
    ready = all(check["ok"] for check in checks.values())
    return JsonResponse(
        {"status": "ok" if ready else "unavailable", "checks": checks},
        status=200 if ready else 503,
    )
