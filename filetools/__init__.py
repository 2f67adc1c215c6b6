"""The file tools: commands that check a scoresheet, a game record or a competition file
with nothing but the file (docs/formats.md).

``scoresheet``, ``replay``, ``standings``, ``pair`` and ``par`` need no settings, secret,
database or Django: the ``spades-tools`` console script (``filetools.cli``) runs them, and
so does ``manage.py`` for these names, before it loads Django. The management commands of
the same names (``call_command``) wrap the same tools. Each tool is a
:class:`filetools.tool.FileTool`; refusals are :class:`filetools.errors.ToolError`.
"""

from __future__ import annotations

#: The tools, by the command name they answer to (``filetools.cli.TOOLS`` holds them).
NAMES = ("scoresheet", "replay", "standings", "pair", "par")
