"""``par FILE``: re-play every revealed board's par in a competition file with this code's
bots, and compare it with the file (docs/formats.md, "Par"). Nothing but the file: the
board's seed, the par's method, bot version and plays' seeds, and the bots' code
(``bots.strategies.selfplay.play_version``: the recorded version without its wall-clock
guard, the same moves on any machine). Prints one line a board; a mismatch, or a par
played by a bot version this code does not keep, is a refusal (exit 1) naming the first.
"""

from __future__ import annotations

from argparse import ArgumentParser
from collections.abc import Mapping
from typing import Any, TextIO

from bots.strategies.registry import exact_strategy_of_version
from bots.strategies.selfplay import play_version
from leagues.core.duplicate.boards import derive_board
from leagues.core.duplicate.par import verify_par

from .competition_input import read_competition_file
from .errors import ToolError
from .tool import FileTool


def add_arguments(parser: ArgumentParser) -> None:
    parser.add_argument("file", metavar="FILE", help="competition file (the JSON export)")


def run(options: Mapping[str, Any], stdin: TextIO, width: int | None) -> str:
    path = options["file"]
    competition = read_competition_file(path)
    state = competition.duplicate
    if state is None:
        raise ToolError(f"{path}: not a duplicate competition: it has no par.")
    rules = state.settings.rules
    lines: list[str] = []
    problems: list[str] = []
    for played in state.rounds:
        for board in played.boards:
            if board.par is None or board.seed is None:
                continue
            where = f"round {played.number} board {board.board}"
            if exact_strategy_of_version(board.par.bot_version) is None:
                problem = f"played by {board.par.bot_version}, which this code does not keep"
            else:
                check = verify_par(
                    derive_board(board.seed, board.board),
                    rules,
                    play_version,
                    board.par.published(board.board),
                )
                problem = "" if check.ok else str(check.problem)
            lines.append(f"{where}: par {'MISMATCH: ' + problem if problem else 'holds'}")
            if problem:
                problems.append(f"{where}: {problem}")
    if not lines:
        raise ToolError(f"{path}: no board of this file carries a par.")
    if problems:
        raise ToolError(f"{path}: {len(problems)} par(s) do not hold; first: {problems[0]}.")
    return "".join(f"{line}\n" for line in lines) + f"{len(lines)} par(s) verified\n"


TOOL = FileTool(
    name="par",
    help="Re-play every board's par in a competition file with this code's bots.",
    add_arguments=add_arguments,
    run=run,
)
