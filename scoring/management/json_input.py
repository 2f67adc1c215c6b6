"""Reading one JSON document from a file or standard input, for management commands."""

from __future__ import annotations

import json
from typing import IO

from django.core.management.base import CommandError

STDIN = "-"


def read_json_document(source: str, stdin: IO[str]) -> object:
    """The decoded JSON in ``source`` (a path, or ``-`` for ``stdin``).

    An unreadable file or text that is not JSON raises :class:`CommandError` with a
    message saying which and where, so the command exits non-zero without a traceback.
    """
    name = "standard input" if source == STDIN else source
    try:
        if source == STDIN:
            text = stdin.read()
        else:
            with open(source, encoding="utf-8") as handle:
                text = handle.read()
    except (OSError, UnicodeDecodeError) as error:
        reason = error.strerror if isinstance(error, OSError) and error.strerror else str(error)
        raise CommandError(f"Cannot read {name}: {reason}.") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise CommandError(
            f"{name} is not valid JSON: {error.msg} at line {error.lineno}, column {error.colno}."
        ) from None
