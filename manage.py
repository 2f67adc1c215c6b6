#!/usr/bin/env python
"""Django's command-line utility. Set SPADES_DB_ROLE=owner for migrations.

The file tools (``scoresheet``, ``replay``, ``standings``, ``pair``) read a file and
nothing else: they run through ``filetools.cli`` without loading Django, so they need no
``SECRET_KEY``, ``DEBUG`` or database (docs/formats.md).
"""

import os
import sys

from filetools import NAMES as FILE_TOOLS


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] in FILE_TOOLS:
        # Imported here: the tools' modules (networkx, rich) are not needed by any other
        # command, and Django must not be imported at all on this path.
        from filetools.cli import main as file_tool

        raise SystemExit(file_tool(sys.argv[1:], prog="manage.py"))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "services.settings")
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
