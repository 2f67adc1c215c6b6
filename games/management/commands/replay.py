"""``manage.py replay FILE|- [--rules PRESET_OR_JSON] [--format table|json]``:
:mod:`filetools.replay`."""

from __future__ import annotations

from filetools import replay
from scoring.management.file_tool_command import FileToolCommand


class Command(FileToolCommand):
    tool = replay.TOOL
