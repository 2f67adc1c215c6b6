"""``manage.py checkpoint_key --out FILE``: a new Ed25519 key for signed checkpoints."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from eventstore.signed_checkpoints import CheckpointError, create_key


class Command(BaseCommand):
    help = (
        "Create the private key that signs checkpoints (FILE, mode 0600) and its public key "
        "(FILE.pub). Keep FILE where only the checkpoint publisher can read it."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--out", required=True, metavar="FILE", help="private key file")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            public = create_key(Path(options["out"]))
        except CheckpointError as error:
            raise CommandError(str(error)) from None
        self.stdout.write(f"private key {options['out']}, public key {public}")
