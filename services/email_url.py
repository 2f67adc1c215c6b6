"""Parse ``EMAIL_URL`` into Django's e-mail settings (the password-reset mail).

``smtp://user:password@host:587`` (STARTTLS: ``smtp+tls://``; TLS from the first byte:
``smtps://``, port 465 by default), ``console://`` (the mail is printed to the process's
standard output, the default), ``file:///var/spool/spades-mail`` (one file per mail), or
``dummy://`` (dropped). ``?timeout=10`` sets the SMTP timeout in seconds. Anything else
is refused, so a typo never silently drops every mail.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qsl, unquote, urlsplit

from django.core.exceptions import ImproperlyConfigured

from services.dburl import redact

BACKENDS = {
    "smtp": "django.core.mail.backends.smtp.EmailBackend",
    "console": "django.core.mail.backends.console.EmailBackend",
    "file": "django.core.mail.backends.filebased.EmailBackend",
    "dummy": "django.core.mail.backends.dummy.EmailBackend",
}
SMTP_SCHEMES = {"smtp": (False, False), "smtp+tls": (True, False), "smtps": (False, True)}
MAX_TIMEOUT = 300


def parse_email_url(url: str, *, env_name: str = "EMAIL_URL") -> dict[str, Any]:
    """The Django settings (``EMAIL_BACKEND``, ``EMAIL_HOST``, ...) an e-mail URL gives."""
    url = url.strip()
    parts = urlsplit(url)
    scheme = parts.scheme.lower()
    if scheme in ("console", "dummy"):
        return {"EMAIL_BACKEND": BACKENDS[scheme]}
    if scheme == "file":
        path = unquote(parts.path)
        if parts.netloc or not path.startswith("/"):
            raise ImproperlyConfigured(f"{env_name}: file:// needs an absolute folder, got {url!r}")
        return {"EMAIL_BACKEND": BACKENDS["file"], "EMAIL_FILE_PATH": path}
    if scheme not in SMTP_SCHEMES:
        raise ImproperlyConfigured(
            f"{env_name} must be smtp://, smtp+tls://, smtps://, console://, file:// or "
            f"dummy://; got {redact(url)!r}"
        )
    if not parts.hostname:
        raise ImproperlyConfigured(f"{env_name} has no host: {redact(url)!r}")
    try:
        port = parts.port
    except ValueError:
        raise ImproperlyConfigured(f"{env_name} has an invalid port: {redact(url)!r}") from None
    use_tls, use_ssl = SMTP_SCHEMES[scheme]
    settings: dict[str, Any] = {
        "EMAIL_BACKEND": BACKENDS["smtp"],
        "EMAIL_HOST": parts.hostname,
        "EMAIL_PORT": port or (465 if use_ssl else 587 if use_tls else 25),
        "EMAIL_HOST_USER": unquote(parts.username or ""),
        "EMAIL_HOST_PASSWORD": unquote(parts.password or ""),
        "EMAIL_USE_TLS": use_tls,
        "EMAIL_USE_SSL": use_ssl,
    }
    options = dict(parse_qsl(parts.query))
    unknown = set(options) - {"timeout"}
    if unknown:
        raise ImproperlyConfigured(f"{env_name}: unknown option(s) {sorted(unknown)}")
    if "timeout" in options:
        try:
            timeout = int(options["timeout"])
        except ValueError:
            timeout = 0
        if not 1 <= timeout <= MAX_TIMEOUT:
            raise ImproperlyConfigured(
                f"{env_name}: timeout is a whole number of seconds from 1 to {MAX_TIMEOUT}"
            )
        settings["EMAIL_TIMEOUT"] = timeout
    return settings
