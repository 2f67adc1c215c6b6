"""The field parsers every leagues request is built with (pure).

A request arrives as a mapping (a JSON body, a validated serializer's data, a test's
dict); each typed request's ``parse`` reads it through these, so every refusal is a
:class:`LeagueError` that names the field: ``invalid`` with a sentence an organiser
understands, answered 400 by the API, and nothing is written.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from datetime import datetime
from typing import Any

from leagues.core.entrants import MAX_ID_LENGTH
from leagues.core.errors import LeagueError

Body = Mapping[str, Any]

MAX_NAME = 200
MAX_REASON = 500
MAX_USERNAME = 150  # Django's username length


def refuse(code: str, message: str) -> LeagueError:
    return LeagueError(code, message)


def body_of(value: object, what: str = "The request body") -> Body:
    if not isinstance(value, Mapping):
        raise refuse("invalid", f"{what} is a JSON object.")
    return value


def known_fields(body: Body, names: Collection[str]) -> None:
    """Refuse a field the request does not take (naming the first, and the known ones)."""
    unknown = sorted(str(name) for name in body if name not in names)
    if unknown:
        raise refuse("invalid", f"Unknown field {unknown[0]!r}; known: {', '.join(sorted(names))}.")


def required(body: Body, name: str) -> Any:
    """The field's value; a missing (or null) field is refused, named."""
    value = body.get(name)
    if value is None:
        raise refuse("invalid", f"{name} is required.")
    return value


def _encodable(value: str) -> bool:
    # A lone surrogate (JSON "\ud800") is no character: it cannot be stored or shown.
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def text(value: object, what: str, limit: int = MAX_NAME, *, empty: bool = True) -> str:
    """A text of 0 (1 with ``empty`` False) to ``limit`` characters; None is "" if empty."""
    if value is None and empty:
        return ""
    if (
        not isinstance(value, str)
        or len(value) > limit
        or (not value and not empty)
        or not _encodable(value)
    ):
        raise refuse("invalid", f"{what} is a text of {0 if empty else 1} to {limit} characters.")
    return value


def name(value: object, what: str, limit: int = MAX_NAME) -> str:
    """A name that pages show in place of an id: 1 to ``limit`` characters once the
    surrounding whitespace is stripped (the stripped text is what is kept)."""
    stripped = value.strip() if isinstance(value, str) else ""
    if not 1 <= len(stripped) <= limit or not _encodable(stripped):
        raise refuse("invalid", f"{what} is a name of 1 to {limit} characters.")
    return stripped


def optional_text(value: object, what: str, limit: int) -> str | None:
    """A text of 1 to ``limit`` characters, or None (an empty text counts as none)."""
    return text(value, what, limit) or None


def whole(value: object, what: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise refuse("invalid", f"{what} is a whole number from {low} to {high}.")
    return value


def flag(value: object, what: str) -> bool:
    if not isinstance(value, bool):
        raise refuse("invalid", f"{what} is true or false.")
    return value


def moment(value: object, what: str) -> datetime | None:
    """An ISO 8601 time with its offset, or None."""
    if value is None:
        return None
    if not isinstance(value, str) or len(value) > 64:
        raise refuse("invalid", f"{what} is an ISO 8601 time with its offset, or null.")
    try:
        parsed = datetime.fromisoformat(value)
    except ValueError:
        raise refuse("invalid", f"{what}: {value!r} is not an ISO 8601 time.") from None
    if parsed.tzinfo is None:
        raise refuse("invalid", f"{what}: give the time zone offset (e.g. +00:00).")
    return parsed


def player(value: object, what: str) -> str:
    """A player: a user id as text (a whole number is taken as its text)."""
    if isinstance(value, int) and not isinstance(value, bool) and value > 0:
        return str(value)
    return text(value, what, MAX_ID_LENGTH, empty=False)


def entrant_id(value: object, what: str = "entrant_id") -> str:
    return text(value, what, MAX_ID_LENGTH, empty=False)


def usernames(value: object, what: str, count: int) -> tuple[str, ...]:
    """``count`` usernames, stripped (each 1 to 150 characters)."""
    if (
        not isinstance(value, list | tuple)
        or len(value) != count
        or not all(isinstance(u, str) and 0 < len(u.strip()) <= MAX_USERNAME for u in value)
        or not all(_encodable(u) for u in value)
    ):
        raise refuse(
            "invalid", f"{what} is a list of {count} usernames of 1 to {MAX_USERNAME} characters."
        )
    return tuple(u.strip() for u in value)


def round_number(value: object, what: str = "round") -> int:
    return whole(value, what, 1, 10_000)
