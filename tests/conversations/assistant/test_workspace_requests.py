"""Workspace requests and questions through POST chat/: answered by topic, with the values the
message named (an address, a role, a new name) and never the message quoted back."""

from __future__ import annotations

import pytest

from conversations.models import Agent
from tests.conftest import World
from tests.conversations.assistant.chatting import replies

pytestmark = pytest.mark.django_db


def test_how_to_add_a_teammate_in_the_middle_of_a_setup_is_answered_and_the_setup_kept(
    world: World,
) -> None:
    said = replies(
        world,
        "Create an agent that watches our Zendesk queue for urgent tickets",
        "how do I add a teammate?",
    )
    assert said[1].startswith("Tenant admins invite, add and remove people in the admin")
    assert "We're still setting up an agent that watches Zendesk" in said[1]
    assert not Agent.objects.for_tenant(world.tenant_a).exists()


def test_a_workspace_request_names_the_values_not_the_sentence(world: World) -> None:
    (added, renamed) = replies(
        world,
        "add maria@example.com to the workspace as a viewer",
        "and rename the workspace to Acme Corp",
        user=world.admin_a,
    )
    assert added.startswith("Adding or removing people (maria@example.com, as a viewer) is")
    assert "as a tenant admin" in added and "add maria" not in added
    assert renamed.startswith("Changing the workspace (to \u201cAcme Corp\u201d) is")


def test_billing_is_said_to_be_outside_the_console_for_every_role(world: World) -> None:
    for admin in (False, True):
        (reply,) = replies(
            world, "upgrade us to the Business plan please", user=world.admin_a if admin else None
        )
        assert reply.startswith("Billing (the Business plan) isn't part of this workspace's")
        assert ("your tenant's admins" in reply) is not admin


def test_an_answer_in_a_flow_reads_the_agents_the_turn_already_loaded(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The message read on its own (an answer, or a detour?) uses the agents the chat turn
    # loaded for the classifier; it does not load them a second time.
    from conversations.assistant import outcome

    def loaded_again(*args: object, **kwargs: object) -> None:
        raise AssertionError("the tenant's agents were loaded a second time")

    monkeypatch.setattr(outcome, "agent_refs", loaded_again)
    said = replies(
        world,
        "Create a skill that turns a long ticket thread into a five-bullet summary",
        "the whole thread as plain text",
    )
    assert said[1].startswith("Got it.")  # an answer to the skill builder, not a detour
