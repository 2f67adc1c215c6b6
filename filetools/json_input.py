"""Reading one JSON document from a file, standard input or an option, for the file
tools: every failure is one :class:`ToolError` sentence (exit 1, no traceback)."""

from __future__ import annotations

import json
import sys
from typing import IO

from .errors import ToolError

STDIN = "-"

#: How deeply arrays and objects may nest. A game record, the deepest document the
#: commands read, nests 5 deep; a limit well below the interpreter's keeps every later
#: step (checks, messages) clear of a RecursionError.
MAX_DEPTH = 32


def read_json_document(source: str, stdin: IO[str]) -> object:
    """The decoded JSON in ``source`` (a path, or ``-`` for ``stdin``).

    An unreadable file or text that is not JSON raises :class:`ToolError` with a
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
        raise ToolError(f"Cannot read {name}: {reason}.") from None
    return parse_json_text(text, name)


def parse_json_text(text: str, name: str) -> object:
    """``text`` decoded as JSON, or a :class:`ToolError` naming ``name`` and what is
    wrong: not JSON, nested deeper than :data:`MAX_DEPTH`, or a number too long to read."""
    try:
        value = json.loads(text)
    except json.JSONDecodeError as error:
        raise ToolError(
            f"{name} is not valid JSON: {error.msg} at line {error.lineno}, column {error.colno}."
        ) from None
    except RecursionError:
        raise ToolError(_too_deep(name)) from None
    except ValueError:
        # The interpreter's cap on integer digits (CVE-2020-10735), hit while decoding.
        raise ToolError(
            f"{name} holds a number of more than {sys.get_int_max_str_digits()} digits; "
            "no field of these files needs one."
        ) from None
    if _nests_deeper_than(value, MAX_DEPTH):
        raise ToolError(_too_deep(name))
    return value


def _too_deep(name: str) -> str:
    return f"{name} nests arrays and objects more than {MAX_DEPTH} deep; these files need 5."


def _nests_deeper_than(value: object, limit: int) -> bool:
    # Iterative, so that measuring a deep document cannot itself overflow the stack.
    pending: list[tuple[object, int]] = [(value, 1)]
    while pending:
        item, depth = pending.pop()
        if isinstance(item, dict):
            children: list[object] = list(item.values())
        elif isinstance(item, list):
            children = item
        else:
            continue
        if depth > limit:
            return True
        pending.extend((child, depth + 1) for child in children)
    return False
