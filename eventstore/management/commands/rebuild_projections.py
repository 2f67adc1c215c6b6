"""``manage.py rebuild_projections [--name N]``: drop projections and replay the whole log."""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from eventstore.models import Event
from eventstore.subscriptions import get_projection, rebuild, registered_projections

BATCH = 5000


class Command(BaseCommand):
    help = "Drop and rebuild projections (all registered ones, or --name N) from the event log."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--name", action="append", help="only this projection (repeatable)")
        parser.add_argument("--batch-size", type=int, default=BATCH)

    def handle(self, *args: Any, **options: Any) -> None:
        batch = options["batch_size"]
        if batch < 1:
            raise CommandError("--batch-size must be at least 1.")
        if options["name"]:
            try:
                projections = [get_projection(name) for name in options["name"]]
            except KeyError as error:
                raise CommandError(str(error.args[0])) from None
        else:
            projections = registered_projections()
        if not projections:
            raise CommandError("No projection is registered.")
        total = Event.objects.count()
        console = Console(file=self.stdout, force_terminal=self.stdout.isatty())
        for projection in projections:
            started = time.perf_counter()
            with Progress(
                TextColumn(f"[bold]{projection.name}"),
                BarColumn(),
                MofNCompleteColumn(),
                TimeRemainingColumn(),
                console=console,
                transient=not console.is_terminal,
            ) as bar:
                task = bar.add_task("events", total=total)

                def advance(count: int, bar: Progress = bar, task: Any = task) -> None:
                    bar.update(task, advance=count)

                handled = rebuild(projection, batch_size=batch, progress=advance)
            seconds = time.perf_counter() - started
            rate = handled / seconds if seconds > 0 else 0.0
            self.stdout.write(
                f"{projection.name}: {handled} events in {seconds:.2f} s ({rate:,.0f} events/s)"
            )
