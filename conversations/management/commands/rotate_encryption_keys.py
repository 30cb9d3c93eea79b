"""``rotate_encryption_keys``: rewrite stored text under the newest key (resumable)."""

from __future__ import annotations

import sys
from typing import Any

from django.core.exceptions import ImproperlyConfigured
from django.core.management.base import BaseCommand, CommandError, CommandParser

from conversations.store.keys import rotate_keys


class Command(BaseCommand):
    help = (
        "Re-encrypt message content and metadata, titles, assistant states and skill sessions with "
        "the first key of OMNIFORGE_ENCRYPTION_KEYS. Safe to interrupt and run again."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--dry-run", action="store_true", help="count, change nothing")
        parser.add_argument("--batch-size", type=int, default=500, metavar="N")

    def handle(self, *args: Any, **options: Any) -> None:
        if options["batch_size"] < 1:
            raise CommandError("--batch-size takes a whole number of at least 1")
        progress = (lambda line: self.stderr.write(line)) if sys.stderr.isatty() else None
        try:
            results = rotate_keys(
                dry_run=options["dry_run"], batch=options["batch_size"], progress=progress
            )
        except ImproperlyConfigured as exc:
            raise CommandError(str(exc)) from exc
        verb = "to re-encrypt" if options["dry_run"] else "re-encrypted"
        for result in results:
            self.stdout.write(f"{result.kind} {verb}: {result.rewritten} of {result.checked}")
