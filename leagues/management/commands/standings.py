"""``manage.py standings FILE [--tiebreaks a,b] [--format json|table]``: no database."""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from leagues.core.errors import LeagueError

from ._competition_file import read_file


class Command(BaseCommand):
    help = "Standings of a competition file (the export format), without the database."
    requires_system_checks: list[str] = []
    requires_migrations_checks = False

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file")
        parser.add_argument("--tiebreaks", help="comma-separated tie-break order")
        parser.add_argument("--format", choices=("json", "table"), default="table")

    def handle(self, *args: Any, **options: Any) -> None:
        competition = read_file(options["file"])
        tiebreaks = None
        if options["tiebreaks"] is not None:
            tiebreaks = [t for t in options["tiebreaks"].split(",") if t]
        try:
            standings = competition.standings(tiebreaks)
        except LeagueError as error:
            raise CommandError(f"--tiebreaks: {error.message}") from None
        if options["format"] == "json":
            self.stdout.write(json.dumps(standings.as_dict(), indent=2))
            return
        # A column per declared tie-break, so the table shows why tied entrants are
        # ordered as they are; lots (always last) has no value to show.
        shown = [name for name in standings.tiebreaks if name != "lots"]
        width = {name: max(len(name), 6) for name in shown}
        self.stdout.write(
            f"{'#':>3}  {'entrant':<24} {'MP':>4} {'GP':>7} {'diff':>7}"
            + "".join(f" {name:>{width[name]}}" for name in shown)
        )
        for row in standings.rows:
            values = {name: row.tiebreaks.get(name) for name in shown}
            self.stdout.write(
                f"{row.rank:>3}  {row.entrant:<24} {row.match_points:>4} {row.game_points:>7} "
                f"{row.point_differential:>7}"
                + "".join(
                    f" {'-' if values[name] is None else values[name]:>{width[name]}}"
                    for name in shown
                )
                + ("  (withdrawn)" if row.withdrawn else "")
            )
