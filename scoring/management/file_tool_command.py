"""The management commands that are file tools (``scoresheet``, ``replay``, ``standings``,
``pair``): thin wrappers over :mod:`filetools`, the one implementation.

``manage.py`` runs these four through ``filetools.cli`` before loading Django, so they
work with no settings, secret or database; these classes are what ``call_command`` and
``django-admin`` find. A refusal is the tool's line as a :class:`CommandError`.
"""

from __future__ import annotations

import shutil
import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from filetools.errors import ToolError
from filetools.tool import FileTool


class FileToolCommand(BaseCommand):
    tool: FileTool
    # Pure computation on a file: no database, so no system or migration checks.
    requires_system_checks: list[str] = []
    requires_migrations_checks = False
    # call_command(..., stdin=StringIO(...)) feeds "-" in tests.
    stealth_options = ("stdin",)

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls.help = cls.tool.help

    def add_arguments(self, parser: CommandParser) -> None:
        self.tool.add_arguments(parser)

    def handle(self, *args: Any, **options: Any) -> None:
        width = shutil.get_terminal_size().columns if self.stdout.isatty() else None
        try:
            text = self.tool.run(options, options.get("stdin") or sys.stdin, width)
        except ToolError as error:
            raise CommandError(error.message) from None
        self.stdout.write(text, ending="")
