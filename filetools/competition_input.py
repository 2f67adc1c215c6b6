"""Reading a competition file for ``standings`` and ``pair``: the one refusal format.

A refusal is one line that starts with where the problem is, as docs/formats.md shows:
``FILE:LINE: $.path: reason`` (``FILE:LINE: column C: not JSON: ...`` for a syntax error),
or ``FILE: $.path: reason`` where no line applies, and ``FILE: file: reason`` for the
file as a whole (unreadable, too large, not UTF-8).
"""

from __future__ import annotations

from pathlib import Path

from leagues.core.competition import Competition
from leagues.core.competition_file import MAX_FILE_BYTES, CompetitionFileError, read_competition
from leagues.core.errors import LeagueError

from .errors import ToolError

#: The JSON path of the whole document: where a refusal of the competition as a whole
#: (nothing left to pair, a round still open) points.
WHOLE_DOCUMENT = "$"


def read_competition_file(path: str) -> Competition:
    """The competition in the file at ``path``, or a :class:`ToolError` saying where and why."""
    file = Path(path)
    try:
        if file.stat().st_size > MAX_FILE_BYTES:
            raise ToolError(f"{path}: file: larger than {MAX_FILE_BYTES // 2**20} MiB.")
        text = file.read_bytes()
    except OSError as error:
        raise ToolError(f"{path}: file: cannot be read: {error.strerror}.") from None
    try:
        return read_competition(text)
    except CompetitionFileError as error:
        raise ToolError(refusal_line(path, error)) from None


def refusal_line(path: str, error: CompetitionFileError) -> str:
    """``FILE:LINE: where: reason``, the form editors and CI annotations jump to, or
    ``FILE: where: reason`` when the reader knows no line."""
    if error.line is None:
        return f"{path}: {error.where}: {error.reason}"
    # A syntax error's where is "line L column C": the line goes before, the column stays.
    where = error.where if error.where.startswith("$") else error.where.split(" ", 2)[-1]
    return f"{path}:{error.line}: {where}: {error.reason}"


def competition_refusal(path: str, error: LeagueError) -> ToolError:
    """A refusal of what the file holds as a whole, past its checks (e.g. nothing to pair)."""
    return ToolError(f"{path}: {WHOLE_DOCUMENT}: {error.message}")
