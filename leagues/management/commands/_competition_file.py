"""Reading a competition file for a command: the one refusal format, ``FILE:LINE: reason``."""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import CommandError

from leagues.core.competition import Competition
from leagues.core.competition_file import MAX_FILE_BYTES, CompetitionFileError, read_competition


def read_file(path: str) -> Competition:
    file = Path(path)
    try:
        if file.stat().st_size > MAX_FILE_BYTES:
            raise CommandError(f"{path}: file: larger than {MAX_FILE_BYTES // 2**20} MiB.")
        text = file.read_bytes()
    except OSError as error:
        raise CommandError(f"{path}: cannot read: {error.strerror}.") from None
    try:
        return read_competition(text)
    except CompetitionFileError as error:
        if error.line is None:
            raise CommandError(f"{path}: {error.where}: {error.reason}") from None
        # FILE:LINE: reason, the form editors and CI annotations jump to.
        where = error.where if error.where.startswith("$") else error.where.split(" ", 2)[-1]
        raise CommandError(f"{path}:{error.line}: {where}: {error.reason}") from None
