from __future__ import annotations

import os
from typing import Any

from django.core.management.base import BaseCommand
from django.db import transaction

from conversations.models import Agent, Conversation
from conversations.store import services
from conversations.tenancy.services import tenant_create, token_issue, user_add

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
    help = "Load the demo tenant (idempotent) and print how to log in."

    @transaction.atomic
    def handle(self, *args: Any, **options: Any) -> None:
        tenant = tenant_create(slug="demo", name="Demo")
        user = user_add(tenant=tenant, username="demo", password="demo", admin=True).user  # noqa: S106
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
        port = os.environ.get("PORT", "8000")
        token = token_issue(user=user)
        self.stdout.write(
            "Demo tenant 'demo' is ready.\n"
            f"  Admin: http://127.0.0.1:{port}/admin/  user: demo  password: demo\n"
            f"  API:   curl -H 'Authorization: Token {token}' "
            f"http://127.0.0.1:{port}/api/v1/conversations/\n"
            f"  Docs:  http://127.0.0.1:{port}/api/docs/\n"
            f"  Agents: {', '.join(name for name, _, _ in DEMO_AGENTS)}"
        )
