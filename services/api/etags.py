"""Conditional reads for what clients poll: ``ETag: W/"<version>"`` and 304 to a matching
``If-None-Match``, so a poll while nothing moved costs one version lookup and no body.

The version is one the viewer already receives in the body (a table view's ``version``:
for a delayed spectator that of the prefix they are shown, never the live one; a
competition's stream version, public), so the tag tells nobody anything the body does
not. It is weak: the same version always reads the same for one viewer, but not byte for
byte across viewers or after a username or an erased name changed (docs/api.md).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from django.utils.http import parse_etags
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response

__all__ = ["conditional_read", "etag_of"]


def etag_of(version: int) -> str:
    return f'W/"{int(version)}"'


def _matches(request: Request, version: int) -> bool:
    header = request.headers.get("If-None-Match", "")
    if not header:
        return False
    if header.strip() == "*":
        return True
    wanted = etag_of(version)
    # Weak comparison (RFC 9110 8.8.3.2): the opaque parts must match, W/ or not.
    return any(tag.removeprefix("W/") == wanted.removeprefix("W/") for tag in parse_etags(header))


def _tagged(response: Response, version: int) -> Response:
    response["ETag"] = etag_of(version)
    # Revalidated each time (a browser's fetch sends If-None-Match by itself); the view may
    # be one viewer's (a seat's hand), so no shared cache keeps it.
    response["Cache-Control"] = "private, no-cache"
    response["Vary"] = "Authorization, Cookie"
    return response


def conditional_read(
    request: Request,
    version: int,
    read: Callable[[], Any],
    *,
    version_of: Callable[[Any], int] | None = None,
) -> Response:
    """304 when the request already holds ``version`` (read is not called); otherwise
    ``read()``'s body with its tag: ``version_of(body)`` when the body carries a version
    of its own (it may have moved on since ``version`` was looked up), else ``version``."""
    if _matches(request, version):
        return _tagged(Response(status=status.HTTP_304_NOT_MODIFIED), version)
    body = read()
    if version_of is not None:
        version = version_of(body)
    elif isinstance(body, Mapping) and isinstance(body.get("version"), int):
        version = body["version"]
    return _tagged(Response(body), version)
