from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from conversations.models import Tenant
from conversations.runs.runtime import runtime_credentials_rotate
from conversations.runs.services import runs_release_waiting


class Command(BaseCommand):
    help = (
        "Mint new credentials for the tenant's agent runtime and print them once, as one JSON "
        'line {"secret", "token"}: the signing secret of dispatches and the bearer token of '
        "callbacks. Earlier ones stop working."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug")

    def handle(self, *args: Any, **options: Any) -> None:
        tenant = Tenant.objects.filter(slug=options["slug"]).first()
        if tenant is None:
            raise CommandError(f"no tenant {options['slug']!r}")
        credentials = runtime_credentials_rotate(tenant=tenant)
        # Runs that waited for a runtime go now, if the tenant has somewhere to send them.
        runs_release_waiting(tenant_id=tenant.pk)
        self.stdout.write(json.dumps({"secret": credentials.secret, "token": credentials.token}))
