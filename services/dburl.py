"""Parse a PostgreSQL connection URL into a Django ``DATABASES`` entry.

Our own ~40 lines instead of a dependency. PostgreSQL only: any other scheme is refused,
so nothing can silently fall back to SQLite.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qsl, unquote, urlsplit

from django.core.exceptions import ImproperlyConfigured

POSTGRES_SCHEMES = frozenset({"postgres", "postgresql", "pgsql"})


def redact(url: str) -> str:
    """The URL with its password replaced, safe for error messages and logs."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    netloc = parts.netloc.replace(f":{parts.password}@", ":***@", 1)
    return parts._replace(netloc=netloc).geturl()


def parse_database_url(url: str, *, env_name: str = "DATABASE_URL") -> dict[str, Any]:
    """Return a Django database settings dict for a ``postgresql://`` URL.

    ``postgresql://user:password@host:port/dbname?sslmode=require&connect_timeout=5``
    Query parameters become libpq connection options; ``?host=/path`` selects a unix
    socket directory.
    """
    url = url.strip()
    parts = urlsplit(url)
    if parts.scheme.lower() not in POSTGRES_SCHEMES:
        shown = parts.scheme or "(none)"
        raise ImproperlyConfigured(
            f"{env_name} must be a PostgreSQL URL such as "
            f"postgresql://user:password@host:5432/dbname; got scheme {shown!r} "
            f"in {redact(url)!r}. This platform supports PostgreSQL only."
        )
    name = unquote(parts.path.lstrip("/"))
    if not name:
        raise ImproperlyConfigured(f"{env_name} has no database name: {redact(url)!r}")
    try:
        port = parts.port
    except ValueError as exc:
        raise ImproperlyConfigured(f"{env_name} has an invalid port: {redact(url)!r}") from exc

    options = dict(parse_qsl(parts.query, keep_blank_values=False))
    host = options.pop("host", None) or unquote(parts.hostname or "")
    return {
        "ENGINE": "django.db.backends.postgresql",
        "NAME": name,
        "USER": unquote(parts.username or ""),
        "PASSWORD": unquote(parts.password or ""),
        "HOST": host,
        "PORT": str(port) if port else "",
        "OPTIONS": options,
    }
