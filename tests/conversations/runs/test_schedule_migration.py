"""Agents' schedules in words become machine schedules with their next run (0013): a paused
agent gets its schedule but no next run; words naming no recurrence leave the agent unscheduled."""

from __future__ import annotations

from datetime import timedelta
from zoneinfo import ZoneInfo

import pytest
from django.core.management import call_command
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

from conversations.agents.schedules import schedule_from_words
from conversations.models import Agent
from conversations.tenancy.services import tenant_create, user_add

pytestmark = pytest.mark.django_db(transaction=True)
BEFORE = [("conversations", "0011_message_client_id_per_user_constraint")]
AFTER = [("conversations", "0013_agent_schedules_from_words")]
WORDS = {
    "weekly-report": "Every Monday at 08:00 (Europe/Berlin)",
    "standup-notes": "Every weekday at 09:00",
    "inbox-sweep": "Every hour",
    "one-off": "Once, right away",
    "on-demand": None,
}
PAUSED = "standup-notes"


def test_schedules_in_words_become_schedules_with_their_next_run() -> None:
    # The tenant and user with today's code, before the schema goes back: their rows survive
    # the way back (today's Membership has columns the old schema does not).
    tenant = tenant_create(slug="acme")
    alice = user_add(tenant=tenant, username="alice", password="pw-alice-1").user
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    OldAgent = executor.loader.project_state(BEFORE).apps.get_model("conversations", "Agent")
    for name, words in WORDS.items():
        config = {"source": "jira"} | ({"schedule": words} if words else {})
        # Through the old model: its config field encrypts the JSON as that schema stored it.
        OldAgent.objects.create(
            tenant_id=tenant.pk, name=name, config=config, created_by_id=alice.pk,
            paused_at=timezone.now() if name == PAUSED else None,
        )  # fmt: skip

    before = timezone.now()
    MigrationExecutor(connection).migrate(AFTER)
    call_command("migrate", verbosity=0)  # and the rest, as a deploy would

    agents = {agent.name: agent for agent in Agent.objects.for_tenant(tenant)}
    assert set(agents) == set(WORDS)
    for name, words in WORDS.items():  # the words stay in the config: the chat shows them
        assert agents[name].config.get("schedule") == words
        assert agents[name].config["source"] == "jira"

    weekly = agents["weekly-report"]
    assert weekly.schedule == schedule_from_words("Every Monday at 08:00 (Europe/Berlin)")
    assert weekly.schedule is not None and weekly.schedule["timezone"] == "Europe/Berlin"
    parts = dict(part.split("=") for part in weekly.schedule["rrule"].split(";"))
    assert (parts["FREQ"], parts["BYDAY"], parts["BYHOUR"]) == ("WEEKLY", "MO", "8")
    assert parts.get("BYMINUTE", "0") == "0"
    assert weekly.next_run_at is not None
    local = weekly.next_run_at.astimezone(ZoneInfo("Europe/Berlin"))
    assert (local.weekday(), local.hour, local.minute) == (0, 8, 0)  # a Monday, 08:00 in Berlin
    assert before < weekly.next_run_at <= before + timedelta(days=7)

    paused = agents[PAUSED]
    assert paused.paused and paused.schedule == schedule_from_words("Every weekday at 09:00")
    assert paused.schedule is not None and paused.next_run_at is None

    hourly = agents["inbox-sweep"]
    assert hourly.schedule == schedule_from_words("Every hour") and hourly.schedule is not None
    assert hourly.next_run_at is not None
    assert before < hourly.next_run_at <= before + timedelta(hours=1)

    for name in ("one-off", "on-demand"):
        assert agents[name].schedule is None and agents[name].next_run_at is None
