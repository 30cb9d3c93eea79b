"""A reply that narrows ("only the …", "just the …") says which things count: in an open setup
it is a detail of what the agent works on, never a detour; right after a creation it changes
the agent just made."""

from __future__ import annotations

import pytest

from conversations.models import Agent
from tests.conftest import World
from tests.conversations.assistant.chatting import replies


@pytest.mark.django_db
def test_a_restriction_in_an_open_setup_is_a_detail_of_it(world: World) -> None:
    _, narrowed, created = replies(
        world,
        "create an agent that watches Jira for overdue tickets",
        "only issues in the BILLING project that are marked Critical",
        "post them to #billing-alerts every morning at 9",
    )
    assert "Billing" not in narrowed and "What should it do with what it finds" in narrowed
    assert created.startswith("Done!")
    (agent,) = Agent.objects.for_tenant(world.tenant_a)
    assert agent.config["details"] == "only issues in the BILLING project that are marked Critical"
    assert agent.config["destination"] == "Slack #billing-alerts"


@pytest.mark.django_db
def test_a_restriction_right_after_a_creation_changes_that_agent(world: World) -> None:
    _, changed = replies(
        world,
        "create an agent called desk-feed that posts new Zendesk tickets to #support every "
        "morning at 9",
        "wait, only the tickets from enterprise customers",
    )
    assert changed.startswith("Updated desk-feed:")
    assert "only the tickets from enterprise customers" in changed
    agent = Agent.objects.for_tenant(world.tenant_a).get(name="desk-feed")
    assert agent.config["details"] == "only the tickets from enterprise customers"
