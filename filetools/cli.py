"""``spades-tools TOOL ...``: the file tools as a console script that loads no Django.

Installed with the project (``[project.scripts]`` in pyproject.toml); ``manage.py`` hands
these command names here too, so ``manage.py scoresheet FILE`` needs no settings, secret
or database either. Output goes to stdout; a refusal is its one line on stderr and exit
status 1 (2 for a command line argparse refuses).
"""

from __future__ import annotations

import shutil
import sys
from argparse import ArgumentParser
from collections.abc import Sequence

from . import pair, par, replay, scoresheet, standings
from .errors import ToolError
from .tool import FileTool

TOOLS: dict[str, FileTool] = {
    tool.name: tool for tool in (scoresheet.TOOL, replay.TOOL, standings.TOOL, pair.TOOL, par.TOOL)
}


def parser(prog: str) -> ArgumentParser:
    command_line = ArgumentParser(
        prog=prog,
        description="Check a scoresheet, a game record or a competition file with nothing "
        "but the file (docs/formats.md).",
    )
    commands = command_line.add_subparsers(dest="tool", required=True, metavar="TOOL")
    for tool in TOOLS.values():
        tool.add_arguments(commands.add_parser(tool.name, help=tool.help, description=tool.help))
    return command_line


def main(argv: Sequence[str] | None = None, prog: str = "spades-tools") -> int:
    """Run one tool; the exit status."""
    options = vars(parser(prog).parse_args(sys.argv[1:] if argv is None else argv))
    width = shutil.get_terminal_size().columns if sys.stdout.isatty() else None
    try:
        text = TOOLS[options["tool"]].run(options, sys.stdin, width)
    except ToolError as error:
        print(error.message, file=sys.stderr)
        return 1
    sys.stdout.write(text)
    return 0
