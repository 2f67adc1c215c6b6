"""``scoresheet FILE|- [--format table|json]``: score a paper game (docs/formats.md)."""

from __future__ import annotations

from argparse import ArgumentParser
from collections.abc import Mapping
from typing import Any, TextIO

from scoring.core.scoresheet import ScoredScoresheet, ScoresheetError, score_scoresheet

from .errors import ToolError
from .json_input import read_json_document
from .score_table import (
    TableHand,
    add_format_argument,
    render_score_table,
    result_text,
    rules_title,
)
from .tool import FileTool


def add_arguments(parser: ArgumentParser) -> None:
    parser.add_argument("source", metavar="FILE", help="scoresheet JSON file, or - for stdin")
    add_format_argument(parser)


def run(options: Mapping[str, Any], stdin: TextIO, width: int | None) -> str:
    document = read_json_document(options["source"], stdin)
    try:
        scored = score_scoresheet(document)
    except ScoresheetError as error:
        raise ToolError(error.message) from None
    return result_text(options["format"], scored.as_dict, lambda w: _table(scored, w), width)


def _table(scored: ScoredScoresheet, width: int | None) -> str:
    rows = [
        TableHand(hand.number, hand.bid_labels(), hand.tricks, result)
        for hand, result in zip(scored.hands, scored.ledger.hands, strict=True)
    ]
    return render_score_table(
        f"Scoresheet ({rules_title(scored.rules)})", rows, scored.ledger, width
    )


TOOL = FileTool(
    name="scoresheet",
    help=(
        "Score a scoresheet (bids and tricks per hand, docs/formats.md) and print every "
        "hand's score with its breakdown, the totals and the winner."
    ),
    add_arguments=add_arguments,
    run=run,
)
