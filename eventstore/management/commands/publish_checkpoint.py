"""``manage.py publish_checkpoint --key FILE --out CHECKPOINTS``: append a signed checkpoint."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from eventstore.signed_checkpoints import CheckpointError, publish


class Command(BaseCommand):
    help = (
        "Append one signed checkpoint (the digest over every stream head, Ed25519-signed, "
        "chained to the previous line) to CHECKPOINTS; run it on a schedule."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--key", required=True, metavar="FILE", help="Ed25519 private key")
        parser.add_argument(
            "--out", required=True, metavar="CHECKPOINTS", help="checkpoint file (appended to)"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            record = publish(Path(options["key"]), Path(options["out"]))
        except CheckpointError as error:
            raise CommandError(str(error)) from None
        self.stdout.write(
            f"checkpoint {record['sequence']}: {record['streams']} streams, "
            f"{record['events']} events, as_of {record['as_of']}, digest {record['digest']}"
        )
