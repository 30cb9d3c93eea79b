from __future__ import annotations

import os
from typing import Any

from django.contrib.auth.models import User
from django.core.management.base import BaseCommand
from django.db import transaction

from conversations.models import Agent, Conversation
from conversations.store import services
from conversations.tenancy.services import tenant_create, token_issue, user_add

DEMO_USERNAME = "demo"

DEMO_AGENTS = (
    (
        "notion-reporter",
        "Weekly Notion project summaries",
        {
            "source": "notion",
            "trigger": "project updates",
            "action": "summary",
            "schedule": "weekly monday 09:00",
            "destination": "slack:#team",
        },
    ),
    (
        "jira-overdue-monitor",
        "Daily overdue ticket alerts",
        {
            "source": "jira",
            "trigger": "tickets past due date",
            "action": "alert",
            "schedule": "daily 09:00",
            "destination": "slack:#platform",
        },
    ),
    (
        "financial-analyzer",
        "Monthly financial analysis",
        {
            "source": "google_sheets",
            "trigger": "month end",
            "action": "revenue report",
            "schedule": "monthly 1st 08:00",
            "destination": "email",
        },
    ),
)

DEMO_TRANSCRIPT = (
    ("user", "List my agents"),
    (
        "assistant",
        "Here are your agents:\n1. notion-reporter - Weekly Notion project summaries\n"
        "2. jira-overdue-monitor - Daily overdue ticket alerts\n"
        "3. financial-analyzer - Monthly financial analysis",
    ),
)


class Command(BaseCommand):
    help = (
        "Create the demo tenant and its user demo/demo, with sample agents and a conversation, "
        "when the user is missing. An existing demo user is left alone: its password, its "
        "sessions (whoever is signed in stays signed in) and its data. Prints how to log in."
    )

    @transaction.atomic
    def handle(self, *args: Any, **options: Any) -> None:
        existing = User.objects.filter(username=DEMO_USERNAME).first()
        if existing is None:
            user = _seed()
            status = "Demo tenant 'demo' created."
            login = "user: demo  password: demo"
        else:
            user = existing
            status = (
                "The demo user exists already: its password, sessions and data are left as they "
                "are (whoever is signed in stays signed in)."
            )
            login = "user: demo  password: as it was set (demo unless changed)"
        port = os.environ.get("PORT", "8000")
        token = token_issue(user=user)
        self.stdout.write(
            f"{status}\n"
            f"  Chat:  http://127.0.0.1:{port}/  {login}\n"
            f"  Admin: http://127.0.0.1:{port}/admin/\n"
            f"  API:   curl -H 'Authorization: Token {token}' "
            f"http://127.0.0.1:{port}/api/v1/conversations/\n"
            f"  Docs:  http://127.0.0.1:{port}/api/docs/\n"
            f"  Agents: {', '.join(name for name, _, _ in DEMO_AGENTS)}"
        )


def _seed() -> User:
    """The demo tenant, its admin user, the sample agents and one conversation."""
    tenant = tenant_create(slug="demo", name="Demo")
    user = user_add(tenant=tenant, username=DEMO_USERNAME, password="demo", admin=True).user  # noqa: S106
    for name, description, config in DEMO_AGENTS:
        Agent.objects.for_tenant(tenant).get_or_create(
            tenant=tenant,
            name=name,
            defaults={"description": description, "config": config, "created_by": user},
        )
    if not Conversation.objects.for_tenant(tenant).filter(user=user).exists():
        conversation = services.conversation_create(tenant=tenant, user=user)
        for role, content in DEMO_TRANSCRIPT:
            metadata: dict[str, Any] = {}
            if role == "assistant":
                metadata = {"listed_agents": [name for name, _, _ in DEMO_AGENTS]}
            services.message_add(
                conversation=conversation, role=role, content=content, metadata=metadata
            )
    return user
