from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError, CommandParser

from conversations.models import Tenant
from conversations.tenancy.services import user_add


class Command(BaseCommand):
    help = "Add a user to a tenant (idempotent) and print the username."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug", help="the tenant's slug")
        parser.add_argument("username")
        parser.add_argument("--password", help="set this password (default: unusable)")
        parser.add_argument(
            "--admin", action="store_true", help="tenant admin: staff, sees the tenant in the admin"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        tenant = Tenant.objects.filter(slug=options["slug"]).first()
        if tenant is None:
            raise CommandError(f"no tenant {options['slug']!r}; create it with create_tenant")
        try:
            added = user_add(
                tenant=tenant,
                username=options["username"],
                password=options["password"],
                admin=options["admin"],
            )
        except ValidationError as exc:
            raise CommandError(" ".join(exc.messages)) from exc
        self.stdout.write(added.user.get_username())
