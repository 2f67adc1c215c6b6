"""``manage.py scoresheet FILE|- [--format table|json]``: score a paper game."""

from __future__ import annotations

import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from scoring.core.scoresheet import ScoredScoresheet, ScoresheetError, score_scoresheet
from scoring.management.json_input import read_json_document
from scoring.management.score_table import (
    TableHand,
    add_format_argument,
    render_score_table,
    rules_title,
    write_result,
)


class Command(BaseCommand):
    help = (
        "Score a scoresheet (bids and tricks per hand, docs/formats.md) and print every "
        "hand's score with its breakdown, the totals and the winner."
    )
    # Pure computation: no database, so no system checks (they would need settings only).
    requires_system_checks: list[str] = []
    # call_command(..., stdin=StringIO(...)) feeds "-" in tests.
    stealth_options = ("stdin",)

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("source", metavar="FILE", help="scoresheet JSON file, or - for stdin")
        add_format_argument(parser)

    def handle(self, *args: Any, **options: Any) -> None:
        document = read_json_document(options["source"], options.get("stdin") or sys.stdin)
        try:
            scored = score_scoresheet(document)
        except ScoresheetError as error:
            raise CommandError(error.message) from None
        write_result(
            self.stdout, options["format"], scored.as_dict, lambda width: _table(scored, width)
        )


def _table(scored: ScoredScoresheet, width: int | None) -> str:
    rows = [
        TableHand(hand.number, hand.bid_labels(), hand.tricks, result)
        for hand, result in zip(scored.hands, scored.ledger.hands, strict=True)
    ]
    return render_score_table(
        f"Scoresheet ({rules_title(scored.rules)})", rows, scored.ledger, width
    )
