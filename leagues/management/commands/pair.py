"""``manage.py pair FILE [--seed SEED]``: :mod:`filetools.pair`."""

from __future__ import annotations

from filetools import pair
from scoring.management.file_tool_command import FileToolCommand


class Command(FileToolCommand):
    tool = pair.TOOL
