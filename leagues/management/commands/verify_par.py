"""``manage.py verify_par COMPETITION``: recompute every board's par from its revealed seed."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from leagues.core.errors import LeagueError
from leagues.services.duplicate import verify_competition_par


class Command(BaseCommand):
    help = (
        "Recompute every par of a duplicate competition from the revealed board seeds, the "
        "bot version and the plays' seeds; exit 1 on a mismatch."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("competition")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            lines = verify_competition_par(options["competition"])
        except LeagueError as error:
            raise CommandError(error.message) from None
        for line in lines:
            status = "holds" if line["ok"] else f"MISMATCH: {line['problem']}"
            self.stdout.write(f"round {line['round']} board {line['board']}: par {status}")
        bad = [line for line in lines if not line["ok"]]
        if bad:
            first = bad[0]
            raise CommandError(f"round {first['round']} board {first['board']}: {first['problem']}")
        self.stdout.write(f"{len(lines)} par(s) verified")
