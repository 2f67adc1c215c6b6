"""Where a JSON path points in the text it was decoded from: the line a refusal names.

The competition file reader checks the decoded document and names a problem by its
JSON path (``$.results[3].winner``); :func:`line_of` finds that value's line in the
source text, so a person fixing the file is sent to the line.  It walks only along the
path, skipping each sibling on the way with json's own (C) scanner, so it costs about
one more decoding of the text at most (seconds for the largest file; it runs only for
a refusal) and recurses no deeper than ``json.loads`` did.  A path into something the
text does not hold (a missing field) gives the line of the deepest value that exists on
the way: the object the field is missing from.  The text must be valid JSON (it was
decoded already).
"""

from __future__ import annotations

import json
import re

PATH_PART = re.compile(r"\.([A-Za-z_][A-Za-z0-9_]*)|\[(\d+)\]")
WHITESPACE = re.compile(r"[ \t\n\r]*")
DECODER = json.JSONDecoder()


def path_parts(path: str) -> list[str | int] | None:
    """``$.a[2].b`` as ``["a", 2, "b"]``; None for anything that is not such a path."""
    if not path.startswith("$"):
        return None
    parts: list[str | int] = []
    at = 1
    while at < len(path):
        match = PATH_PART.match(path, at)
        if match is None:
            return None
        parts.append(match.group(1) if match.group(1) is not None else int(match.group(2)))
        at = match.end()
    return parts


def _skip_space(text: str, at: int) -> int:
    match = WHITESPACE.match(text, at)
    return match.end() if match else at


def _skip_value(text: str, at: int) -> int:
    """The offset just after the value starting at ``at`` (json's C scanner: fast, and
    exactly the grammar ``json.loads`` accepted)."""
    return DECODER.raw_decode(text, at)[1]


def _child(text: str, at: int, part: str | int) -> int | None:
    """The offset of member/element ``part`` of the container at ``at`` (None: absent)."""
    opening = text[at]
    if isinstance(part, int) != (opening == "["):
        return None
    if opening not in "[{":
        return None
    found: int | None = None
    index = 0
    at = _skip_space(text, at + 1)
    if text[at] in "]}":
        return None
    while True:
        if opening == "{":
            raw_key, end = DECODER.raw_decode(text, at)
            key = str(raw_key)
            at = _skip_space(text, end)
            at = _skip_space(text, at + 1)  # the colon
            if key == part:
                found = at  # the last duplicate wins, as in json.loads
        elif index == part:
            return at
        at = _skip_space(text, _skip_value(text, at))
        index += 1
        if at >= len(text) or text[at] != ",":
            return found
        at = _skip_space(text, at + 1)


def line_of(text: str, path: str) -> int | None:
    """The 1-based line of the value ``path`` names (or of its nearest existing parent)."""
    parts = path_parts(path)
    if parts is None:
        return None
    at = _skip_space(text, 0)
    if at >= len(text):
        return None
    for part in parts:
        child = _child(text, at, part)
        if child is None:
            break
        at = child
    return text.count("\n", 0, at) + 1
