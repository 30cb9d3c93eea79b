"""``cleanup_sessions``: the daily retention run, by hand (the beat task's twin)."""

from __future__ import annotations

import datetime as dt
import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from conversations.models import Tenant
from skill_sessions.retention import retention_run


class Command(BaseCommand):
    help = "Apply the retention policy to skill sessions and conversations; print the counts."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--dry-run", action="store_true", help="count, change nothing")
        parser.add_argument("--tenant", metavar="SLUG", help="only this tenant")
        parser.add_argument(
            "--as-of", metavar="YYYY-MM-DD", help="apply the policy as if today were this date"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        as_of = None
        if options["as_of"]:
            try:
                as_of = dt.date.fromisoformat(options["as_of"])
            except ValueError as exc:
                raise CommandError("--as-of takes a date: YYYY-MM-DD") from exc
        slug = options["tenant"]
        if slug and not Tenant.objects.filter(slug=slug).exists():
            raise CommandError(f"No tenant {slug!r}.")
        # Progress only where someone watches: a terminal on stderr.
        progress = (lambda line: self.stderr.write(line)) if sys.stderr.isatty() else None
        run = retention_run(
            as_of=as_of,
            tenant_slug=slug,
            dry_run=options["dry_run"],
            trigger="command",
            progress=progress,
        )
        counts = run.counts
        prefix = "would be " if options["dry_run"] else ""
        self.stdout.write(
            f"skill sessions {prefix}marked abandoned: {counts['sessions_abandoned']}\n"
            f"completed sessions {prefix}purged: {counts['completed_purged']}\n"
            f"abandoned/deleted/error sessions {prefix}purged: "
            f"{counts['abandoned_deleted_error_purged']}\n"
            f"conversations {prefix}purged: {counts['conversations_purged']}"
        )
