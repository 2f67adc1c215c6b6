"""``manage.py scoresheet FILE|- [--format table|json]``: :mod:`filetools.scoresheet`."""

from __future__ import annotations

from filetools import scoresheet
from scoring.management.file_tool_command import FileToolCommand


class Command(FileToolCommand):
    tool = scoresheet.TOOL
