"""``manage.py verify_events [--table ID | --stream ID] [--against CHECKPOINTS]``: audit
the stored history (and, with ``--against``, prove it is what signed checkpoints published)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from eventstore.signed_checkpoints import CheckpointError, verify_against
from eventstore.verification import (
    NoTableStreamResolver,
    find_problems,
    stream_exists,
    table_stream_id,
)


class Command(BaseCommand):
    help = (
        "Re-compute every hash chain (and every check other apps registered, such as deal "
        "commitments); exit non-zero naming the first broken event."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        target = parser.add_mutually_exclusive_group()
        target.add_argument("--table", metavar="ID", help="verify one table's stream only")
        target.add_argument("--stream", metavar="STREAM_ID", help="verify one stream only")
        parser.add_argument(
            "--all-problems",
            action="store_true",
            help="list every problem found, not only the first",
        )
        parser.add_argument(
            "--against",
            metavar="CHECKPOINTS",
            help="also prove that no history published in this signed checkpoint file changed",
        )
        parser.add_argument(
            "--public-key",
            metavar="FILE",
            help="with --against: the publisher's public key (PEM) to pin, instead of the "
            "one in the file's header",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if options["public_key"] and not options["against"]:
            raise CommandError("--public-key goes with --against CHECKPOINTS")
        stream_id = options["stream"]
        if options["table"] is not None:
            try:
                stream_id = table_stream_id(options["table"])
            except NoTableStreamResolver as error:
                raise CommandError(f"cannot resolve --table: {error}", returncode=2) from None
        if stream_id is not None and not stream_exists(stream_id):
            raise CommandError(f"no events for stream {stream_id!r}", returncode=2)

        first = None
        for problem in find_problems(stream_id):
            if first is None:
                first = problem
            if options["all_problems"]:
                self.stderr.write(f"broken: {problem}")
            else:
                break
        if first is not None:
            raise CommandError(f"first broken event: {first}", returncode=1)
        scope = f"stream {stream_id}" if stream_id else "all streams"
        self.stdout.write(self.style.SUCCESS(f"verified {scope}: every check holds"))
        if options["against"]:
            key = Path(options["public_key"]) if options["public_key"] else None
            try:
                checkpoints = verify_against(Path(options["against"]), key)
            except CheckpointError as error:
                raise CommandError(f"checkpoints: {error}", returncode=1) from None
            signer = "the pinned key" if key else "the file header's key (pin with --public-key)"
            self.stdout.write(
                self.style.SUCCESS(
                    f"verified {len(checkpoints)} signed checkpoint(s) with {signer}: "
                    "no published history changed"
                )
            )
