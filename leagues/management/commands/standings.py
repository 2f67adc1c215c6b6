"""``manage.py standings FILE [--tiebreaks a,b] [--format json|table]``:
:mod:`filetools.standings`."""

from __future__ import annotations

from filetools import standings
from scoring.management.file_tool_command import FileToolCommand


class Command(FileToolCommand):
    tool = standings.TOOL
