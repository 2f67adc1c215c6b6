"""The API's JSON parser: DRF's, plus the limits that keep hostile JSON a 400.

- nesting too deep for Python's decoder (``RecursionError``) is a parse error, not a 500;
- integers must be within I-JSON's safe range (|n| <= 2**53 - 1): bigger ones could not be
  stored in events and would not survive JavaScript clients anyway;
- ``NaN`` and ``Infinity`` are refused, as DRF does;
- no string (key or value) may hold U+0000: PostgreSQL's text and jsonb cannot store it,
  so it would otherwise surface as a database error deep inside a service;
- nor a lone surrogate (``"\\ud800"`` with no partner): JSON's escapes can spell one, but it
  is no character, so it cannot be encoded as UTF-8 to be stored, hashed or shown (it
  once answered 500 from deep inside the leagues). A well-formed pair is one character
  and passes.
"""

from __future__ import annotations

import codecs
import json
from collections.abc import Iterator
from typing import IO, TYPE_CHECKING, Any

from django.conf import settings
from rest_framework.exceptions import ParseError
from rest_framework.parsers import BaseParser, JSONParser

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


def _strings(value: Any) -> Iterator[str]:
    """Every string inside a decoded JSON value, keys included."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            yield item
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)


def has_nul(value: Any) -> bool:
    """Whether any string inside a decoded JSON value holds U+0000."""
    return any("\x00" in text for text in _strings(value))


def is_encodable(text: str) -> bool:
    """Whether ``text`` is all characters (no lone surrogate): what UTF-8 can encode."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def text_problem(value: Any) -> str | None:
    """Why a decoded JSON value's text cannot be taken (a NUL, a lone surrogate), or None."""
    for text in _strings(value):
        if "\x00" in text:
            return "text may not contain the NUL character (U+0000)"
        if not is_encodable(text):
            return "text may not contain a lone surrogate (\\ud800-\\udfff without its pair)"
    return None


def loads_safely(text: str | SupportsRead[str]) -> Any:
    """Decode JSON text under the limits above; ``ValueError`` for anything refused."""
    try:
        if isinstance(text, str):
            value = json.loads(text, parse_int=_safe_int, parse_constant=_no_constant)
        else:
            value = json.load(text, parse_int=_safe_int, parse_constant=_no_constant)
    except RecursionError:
        raise ValueError("the document is nested too deeply") from None
    problem = text_problem(value)
    if problem is not None:
        raise ValueError(problem)
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


class CsvParser(BaseParser):
    """``text/csv``: the body's bytes, unread beyond ``max_bytes`` + 1 (the view that
    takes a file says how large; it refuses a longer one with its own message)."""

    media_type = "text/csv"
    max_bytes = 1024 * 1024

    def parse(
        self,
        stream: IO[Any],
        media_type: str | None = None,
        parser_context: dict[str, Any] | None = None,
    ) -> Any:
        view = (parser_context or {}).get("view")
        limit = int(getattr(view, "max_upload_bytes", self.max_bytes))
        return stream.read(limit + 1) if stream is not None else b""
