"""An organiser's CSV of entrants, read into one registration request per line.

The file is UTF-8 text (a byte-order mark is dropped) with a header naming its columns:
``player1`` and ``player2`` (usernames, required), ``name`` (the entrant's name) and
``reserve`` (a username), in any order. Every line is read and each refused line is kept
with its line number and reason, so the organiser can fix the whole file at once; the
service writes nothing unless no line was refused. Only the file's own rules are here;
the accounts and the competition are checked by the service.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass

from leagues.core.errors import LeagueError

from . import parsing as p

MAX_IMPORT_BYTES = 64 * 1024
MAX_IMPORT_ENTRANTS = 256
COLUMNS = ("player1", "player2", "name", "reserve")
REQUIRED_COLUMNS = ("player1", "player2")
# A cell a spreadsheet would run as a formula when the organiser opens the file again.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


@dataclass(frozen=True, slots=True)
class ImportLine:
    """One entrant of the file: its line number and what it names (usernames)."""

    line: int
    usernames: tuple[str, str]
    name: str = ""
    reserve: str | None = None


@dataclass(frozen=True, slots=True)
class LineRefusal:
    line: int
    reason: str

    def as_dict(self) -> dict[str, object]:
        return {"line": self.line, "reason": self.reason}


class ImportRefused(LeagueError):
    """Some lines (or the file) were refused: nothing is written."""

    def __init__(self, refusals: list[LineRefusal]) -> None:
        count = len(refusals)
        super().__init__(
            "invalid_lines",
            f"{count} line{'s' if count != 1 else ''} of the file "
            f"{'were' if count != 1 else 'was'} refused; nothing was imported.",
        )
        self.refusals = refusals


def decode(data: bytes) -> str:
    """The file's text: at most :data:`MAX_IMPORT_BYTES` of UTF-8, no NUL."""
    if len(data) > MAX_IMPORT_BYTES:
        raise p.refuse("invalid", f"The file is at most {MAX_IMPORT_BYTES // 1024} KiB.")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise p.refuse("invalid", "The file is not UTF-8 text.") from None
    return text


def _username(value: str, what: str) -> str:
    name = value.strip()
    if not name:
        raise p.refuse("invalid", f"{what} is empty: give a username.")
    return p.usernames([name], what, 1)[0]


def _line(number: int, cells: dict[str, str]) -> ImportLine:
    first = _username(cells.get("player1", ""), "player1")
    second = _username(cells.get("player2", ""), "player2")
    if first.casefold() == second.casefold():
        raise p.refuse("invalid", f"player1 and player2 are both {first!r}.")
    name = cells.get("name", "").strip()
    if name.startswith(FORMULA_STARTS):
        raise p.refuse("invalid", "name may not start with =, +, -, @ or a tab.")
    name = p.text(name, "name")
    reserve_text = cells.get("reserve", "").strip()
    reserve = _username(reserve_text, "reserve") if reserve_text else None
    if reserve is not None and reserve.casefold() in (first.casefold(), second.casefold()):
        raise p.refuse("invalid", f"The reserve {reserve!r} is one of the two players.")
    return ImportLine(number, (first, second), name, reserve)


def read_entrants(text: str) -> tuple[list[ImportLine], list[LineRefusal]]:
    """The file's good lines and its refused ones (the header is line 1; blank lines are
    skipped; a username in two lines refuses the later). A file that cannot be read at
    all (no header, NUL, no entrant) is :class:`ImportRefused` at once."""
    if "\x00" in text:
        raise ImportRefused([LineRefusal(1, "The file contains a NUL character.")])
    reader = csv.reader(io.StringIO(text, newline=""), strict=True)
    try:
        header = next(reader, None)
    except csv.Error as error:
        raise ImportRefused([LineRefusal(1, f"The header is not CSV: {error}.")]) from None
    if header is None:
        raise ImportRefused([LineRefusal(1, "The file is empty: it needs a header line.")])
    columns = [cell.strip().casefold() for cell in header]
    unknown = [c for c in columns if c not in COLUMNS]
    missing = [c for c in REQUIRED_COLUMNS if c not in columns]
    if unknown or missing or len(set(columns)) != len(columns):
        raise ImportRefused(
            [
                LineRefusal(
                    1,
                    "The header names the columns player1, player2 and optionally name and "
                    "reserve, each once"
                    + (
                        f"; unknown: {', '.join(repr(c[:40]) for c in unknown[:5])}"
                        if unknown
                        else ""
                    )
                    + (f"; missing: {', '.join(missing)}" if missing else "")
                    + ".",
                )
            ]
        )
    lines: list[ImportLine] = []
    refusals: list[LineRefusal] = []
    seen: dict[str, int] = {}
    while True:
        number = reader.line_num + 1
        try:
            row = next(reader, None)
        except csv.Error as error:
            refusals.append(LineRefusal(number, f"Not CSV: {error}."))
            break
        if row is None:
            break
        if not any(cell.strip() for cell in row):
            continue
        if len(lines) + len(refusals) >= MAX_IMPORT_ENTRANTS:
            refusals.append(
                LineRefusal(number, f"A file has at most {MAX_IMPORT_ENTRANTS} entrants.")
            )
            break
        if len(row) != len(columns):
            refusals.append(
                LineRefusal(number, f"{len(row)} cells where the header has {len(columns)}.")
            )
            continue
        try:
            line = _line(number, dict(zip(columns, row, strict=True)))
        except LeagueError as refusal:
            refusals.append(LineRefusal(number, refusal.message))
            continue
        people = [*line.usernames, *([line.reserve] if line.reserve else [])]
        twice = [u for u in people if u.casefold() in seen]
        if twice:
            earlier = seen[twice[0].casefold()]
            refusals.append(
                LineRefusal(number, f"{twice[0]!r} is already in the entrant of line {earlier}.")
            )
            continue
        seen.update((u.casefold(), number) for u in people)
        lines.append(line)
    if not lines and not refusals:
        raise ImportRefused([LineRefusal(2, "The file has a header but no entrant.")])
    return lines, refusals
