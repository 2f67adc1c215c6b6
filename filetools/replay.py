"""``replay FILE|- [--rules PRESET_OR_JSON] [--format table|json]``: re-play a game record
through the rules engine (docs/formats.md)."""

from __future__ import annotations

from argparse import ArgumentParser
from collections.abc import Mapping
from typing import Any, TextIO

from games.engine.bidding import bid_label
from games.engine.record import RecordError
from games.engine.seats import SEAT_NAMES
from scoring.core.replay import Replay, replay_document

from .errors import ToolError
from .json_input import parse_json_text, read_json_document
from .score_table import (
    TableHand,
    add_format_argument,
    render_score_table,
    result_text,
    rules_title,
)
from .tool import FileTool


def add_arguments(parser: ArgumentParser) -> None:
    parser.add_argument("source", metavar="FILE", help="game record JSON file, or - for stdin")
    parser.add_argument(
        "--rules",
        metavar="PRESET_OR_JSON",
        help="re-score under a preset name (standard, easy, bicycle) or a JSON object such "
        'as \'{"preset": "standard", "bag_penalty": false}\'',
    )
    add_format_argument(parser)


def run(options: Mapping[str, Any], stdin: TextIO, width: int | None) -> str:
    document = read_json_document(options["source"], stdin)
    rules_spec = _rules_spec(options.get("rules"))
    try:
        replay = replay_document(document, rules_spec)
    except RecordError as error:
        raise ToolError(error.message) from None
    return result_text(options["format"], replay.as_dict, lambda w: _table(replay, w), width)


def _rules_spec(text: str | None) -> object:
    if text is None:
        return None
    if text.lstrip().startswith("{"):
        return parse_json_text(text, "--rules")
    return text.strip()


def _table(replay: Replay, width: int | None) -> str:
    rows = [
        TableHand(
            number=state.hand_number,
            bids=[bid_label(state.bids[s], state.blind[s]) for s in range(4)],
            tricks=state.tricks_won,
            result=result,
            dealer=SEAT_NAMES[state.dealer],
        )
        for state, result in zip(replay.game.hands, replay.game.ledger.hands, strict=True)
    ]
    text = render_score_table(
        f"Replay ({rules_title(replay.rules)})", rows, replay.game.ledger, width
    )
    if replay.hands_after_end:
        text += (
            f"Under these rules the game ended after hand {replay.game.ledger.finished_after_hand}"
            f"; the record's {replay.hands_after_end} later hand(s) were not scored.\n"
        )
    return text


TOOL = FileTool(
    name="replay",
    help=(
        "Re-play a game record (docs/formats.md) through the rules engine and print the "
        "tricks, trick winners and scores it derives; --rules re-scores it under other rules."
    ),
    add_arguments=add_arguments,
    run=run,
)
