"""``manage.py verify_pairings COMPETITION``: re-derive every closed round from the events.

A round whose pairing the organiser overrode reads ``manual (by X: reason)``: the
pairing played is theirs, not the engine's; the computed one it replaced is still
re-derived, and a mismatch there fails as for any round."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from leagues.core.errors import LeagueError
from leagues.selectors.verification import verify_competition


class Command(BaseCommand):
    help = "Re-derive every round of a competition from its stored events; exit 1 on a mismatch."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("competition")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            checks = verify_competition(options["competition"])
        except LeagueError as error:
            raise CommandError(error.message) from None
        bad = [check for check in checks if not check["ok"]]
        for check in checks:
            status = "ok" if check["ok"] else f"MISMATCH: {check['problem']}"
            manual = check.get("manual")
            if manual is not None:
                status = f"manual (by {manual['by']}: {manual['reason']})" + (
                    "" if check["ok"] else f"; the computed pairing: MISMATCH: {check['problem']}"
                )
            self.stdout.write(f"round {check['round']}: {status}")
        if bad:
            raise CommandError(f"round {bad[0]['round']} does not match its commitment and seed")
        self.stdout.write(f"{len(checks)} round(s) verified")
