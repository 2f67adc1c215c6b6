"""``manage.py pair FILE [--seed SEED]``: the next round's pairings of a competition file."""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from leagues.core.commitment import new_seed
from leagues.core.competition import pair_next_round
from leagues.core.errors import LeagueError

from ._competition_file import read_file


class Command(BaseCommand):
    help = "Pair the next round of a competition file (prints the round and its commitment)."
    requires_system_checks: list[str] = []
    requires_migrations_checks = False

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file")
        parser.add_argument("--seed", help="pairing seed (default: a fresh random one)")

    def handle(self, *args: Any, **options: Any) -> None:
        competition = read_file(options["file"])
        seed = options["seed"] or new_seed()
        try:
            paired = pair_next_round(competition, seed)
        except LeagueError as error:
            raise CommandError(f"{options['file']}: {error.message}") from None
        document = {
            **paired.pairing.as_dict(),
            "stage": paired.stage + 1,
            "commitment": paired.commitment,
            "seed": seed,
        }
        self.stdout.write(json.dumps(document, indent=2))
