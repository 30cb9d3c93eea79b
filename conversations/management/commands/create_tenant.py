from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError, CommandParser

from conversations.tenancy.services import tenant_create


class Command(BaseCommand):
    help = "Create a tenant (idempotent) and print its slug."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug")
        parser.add_argument("--name", help="display name (default: the slug)")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            tenant = tenant_create(slug=options["slug"], name=options["name"])
        except ValidationError as exc:
            raise CommandError(
                f"invalid slug {options['slug']!r}: {' '.join(exc.messages)}"
            ) from exc
        self.stdout.write(tenant.slug)
