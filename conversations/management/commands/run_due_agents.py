from __future__ import annotations

import datetime as dt
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils import timezone

from conversations.runs.scheduler import runs_enqueue_due
from conversations.runs.tasks import runs_tick_once


class Command(BaseCommand):
    help = (
        "Fire the scheduled runs that are due (what the beat does every minute) and print how "
        "many were due and enqueued."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--dry-run", action="store_true", help="count what would fire; change nothing"
        )
        parser.add_argument(
            "--as-of",
            metavar="ISO-DATETIME",
            help="run the scheduler as if it were this moment (UTC unless an offset is given)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        now = timezone.now()
        if options["as_of"]:
            try:
                now = dt.datetime.fromisoformat(options["as_of"])
            except ValueError as exc:
                raise CommandError("--as-of takes an ISO date-time, e.g. 2026-03-29T07:00") from exc
            if timezone.is_naive(now):
                now = now.replace(tzinfo=dt.UTC)
        if options["dry_run"]:
            fired = runs_enqueue_due(now=now, dry_run=True)
            self.stdout.write(
                f"due: {fired.due}\nwould enqueue: {fired.enqueued}\nwould skip: {fired.skipped}"
            )
            return
        counts = runs_tick_once(now=now)
        self.stdout.write(
            f"due: {counts['due']}\nenqueued: {counts['enqueued']}\n"
            f"timed out: {counts['timed_out']}\nhanded on again: {counts['stale']}"
        )
