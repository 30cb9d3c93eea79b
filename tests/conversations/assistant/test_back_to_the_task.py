"""Coming back to what was being set up, through POST chat/: "where were we?" after a duplicate
warning, "let's get back to the setup" after a detour, and "create it anyway" as an
instruction (never a detail of the agent)."""

from __future__ import annotations

import pytest

from conversations.models import Agent
from tests.conftest import World
from tests.conversations.assistant.chatting import replies

pytestmark = pytest.mark.django_db
REQUEST = (
    "Create an agent that watches Jira for overdue tickets and posts them to #eng every weekday "
    "at 9am"
)


def test_where_were_we_after_a_duplicate_warning_shows_it_and_anyway_creates_it_plainly(
    world: World,
) -> None:
    said = replies(world, REQUEST, REQUEST, "where were we?", "create it anyway")
    assert said[1].startswith("You already have an agent that does this: jira-tickets-monitor")
    assert "- Source: Jira\n" in said[1]  # the tool as the product spells it
    assert said[2].startswith("No problem! We were setting up a new agent.")
    assert "I pointed out that jira-tickets-monitor already does this" in said[2]
    assert said[3].startswith("Done! I've created jira-tickets-monitor-2")
    second = Agent.objects.for_tenant(world.tenant_a).get(name="jira-tickets-monitor-2")
    assert "details" not in second.config  # "create it anyway" is no detail of the agent


def test_back_to_the_setup_after_a_detour_recaps_it(world: World) -> None:
    said = replies(
        world,
        "Create an agent that watches our Zendesk queue for urgent tickets",
        "how do I add a teammate?",
        "ok, let's get back to the setup",
    )
    assert said[2].startswith("No problem! We were setting up a new agent.")
    assert "- Source: Zendesk" in said[2] and "I was asking:" in said[2]
    assert "get back" not in said[2]


def test_back_to_the_setup_with_details_gives_them_to_it(world: World) -> None:
    said = replies(
        world,
        "Create an agent that watches our Zendesk queue for urgent tickets",
        "how do I add a teammate?",
        "back to it: post them to #support-urgent every weekday at 8am",
    )
    assert said[2].startswith("Done! I've created")
    (agent,) = Agent.objects.for_tenant(world.tenant_a)
    assert "#support-urgent" in str(agent.config) and "back to it" not in str(agent.config)
