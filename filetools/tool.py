"""What a file tool is: its arguments and a function from them to the text it prints."""

from __future__ import annotations

from argparse import ArgumentParser
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, TextIO

#: ``run(options, stdin, width)``: the text to print (ending in a newline), or a
#: :class:`filetools.errors.ToolError`. ``width`` is the terminal's, or None for a file
#: or a pipe (tables then have a fixed width).
Runner = Callable[[Mapping[str, Any], TextIO, "int | None"], str]


@dataclass(frozen=True, slots=True)
class FileTool:
    name: str
    help: str
    add_arguments: Callable[[ArgumentParser], None]
    run: Runner
