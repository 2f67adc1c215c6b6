"""``manage.py replay FILE|- [--rules PRESET_OR_JSON] [--format table|json]``."""

from __future__ import annotations

import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.engine.bidding import bid_label
from games.engine.record import RecordError
from games.engine.seats import SEAT_NAMES
from scoring.core.replay import Replay, replay_document
from scoring.management.json_input import parse_json_text, read_json_document
from scoring.management.score_table import (
    TableHand,
    add_format_argument,
    render_score_table,
    rules_title,
    write_result,
)


class Command(BaseCommand):
    help = (
        "Re-play a game record (docs/formats.md) through the rules engine and print the "
        "tricks, trick winners and scores it derives; --rules re-scores it under other rules."
    )
    # Pure computation: no database, so no system checks.
    requires_system_checks: list[str] = []
    # call_command(..., stdin=StringIO(...)) feeds "-" in tests.
    stealth_options = ("stdin",)

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("source", metavar="FILE", help="game record JSON file, or - for stdin")
        parser.add_argument(
            "--rules",
            metavar="PRESET_OR_JSON",
            help="re-score under a preset name (standard, easy, bicycle) or a JSON object such "
            'as \'{"preset": "standard", "bag_penalty": false}\'',
        )
        add_format_argument(parser)

    def handle(self, *args: Any, **options: Any) -> None:
        document = read_json_document(options["source"], options.get("stdin") or sys.stdin)
        rules_spec = _rules_spec(options["rules"])
        try:
            replay = replay_document(document, rules_spec)
        except RecordError as error:
            raise CommandError(error.message) from None
        write_result(
            self.stdout, options["format"], replay.as_dict, lambda width: _table(replay, width)
        )


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
