"""The API's JSON parser: DRF's, plus the limits that keep hostile JSON a 400.

- nesting too deep for Python's decoder (``RecursionError``) is a parse error, not a 500;
- integers must be within I-JSON's safe range (|n| <= 2**53 - 1): bigger ones could not be
  stored in events and would not survive JavaScript clients anyway;
- ``NaN`` and ``Infinity`` are refused, as DRF does;
- no string (key or value) may hold U+0000: PostgreSQL's text and jsonb cannot store it,
  so it would otherwise surface as a database error deep inside a service.
"""

from __future__ import annotations

import codecs
import json
from typing import IO, TYPE_CHECKING, Any

from django.conf import settings
from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser

if TYPE_CHECKING:
    from _typeshed import SupportsRead

MAX_SAFE_INTEGER = 2**53 - 1


def _safe_int(text: str) -> int:
    value = int(text)
    if abs(value) > MAX_SAFE_INTEGER:
        raise ValueError(f"the number {text[:30]} is too large (at most {MAX_SAFE_INTEGER})")
    return value


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def has_nul(value: Any) -> bool:
    """Whether any string inside a decoded JSON value holds U+0000."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if "\x00" in item:
                return True
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return False


def loads_safely(text: str | SupportsRead[str]) -> Any:
    """Decode JSON text under the limits above; ``ValueError`` for anything refused."""
    try:
        if isinstance(text, str):
            value = json.loads(text, parse_int=_safe_int, parse_constant=_no_constant)
        else:
            value = json.load(text, parse_int=_safe_int, parse_constant=_no_constant)
    except RecursionError:
        raise ValueError("the document is nested too deeply") from None
    if has_nul(value):
        raise ValueError("text may not contain the NUL character (U+0000)")
    return value


class SafeJSONParser(JSONParser):
    """``application/json`` with the limits above."""

    def parse(
        self,
        stream: IO[Any],
        media_type: str | None = None,
        parser_context: dict[str, Any] | None = None,
    ) -> Any:
        encoding = (parser_context or {}).get("encoding", settings.DEFAULT_CHARSET)
        try:
            return loads_safely(codecs.getreader(encoding)(stream))
        except ValueError as error:
            raise ParseError(f"JSON parse error - {error}") from None
