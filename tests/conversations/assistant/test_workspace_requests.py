"""Workspace requests and questions through POST chat/: answered by topic, with the values the
message named (an address, a role, a new name) and never the message quoted back."""

from __future__ import annotations

import pytest

from conversations.models import Agent
from tests.conftest import World

pytestmark = pytest.mark.django_db
URL = "/api/v1/chat/"


def _chat(world: World, *messages: str, admin: bool = False) -> list[str]:
    client = world.client(world.admin_a if admin else world.owner)
    body: dict[str, str] = {}
    replies = []
    for message in messages:
        response = client.post(URL, {**body, "message": message}, format="json")
        assert response.status_code == 200, response.content
        body["conversation_id"] = response.json()["conversation_id"]
        replies.append(str(response.json()["assistant_message"]["content"]))
    return replies


def test_how_to_add_a_teammate_in_the_middle_of_a_setup_is_answered_and_the_setup_kept(
    world: World,
) -> None:
    replies = _chat(
        world,
        "Create an agent that watches our Zendesk queue for urgent tickets",
        "how do I add a teammate?",
    )
    assert replies[1].startswith("Tenant admins invite, add and remove people in the admin")
    assert "We're still setting up an agent that watches Zendesk" in replies[1]
    assert not Agent.objects.for_tenant(world.tenant_a).exists()


def test_a_workspace_request_names_the_values_not_the_sentence(world: World) -> None:
    (added, renamed) = _chat(
        world,
        "add maria@example.com to the workspace as a viewer",
        "and rename the workspace to Acme Corp",
        admin=True,
    )
    assert added.startswith("Adding or removing people (maria@example.com, as a viewer) is")
    assert "as a tenant admin" in added and "add maria" not in added
    assert renamed.startswith("Changing the workspace (to \u201cAcme Corp\u201d) is")


def test_billing_is_said_to_be_outside_the_console_for_every_role(world: World) -> None:
    for admin in (False, True):
        (reply,) = _chat(world, "upgrade us to the Business plan please", admin=admin)
        assert reply.startswith("Billing (the Business plan) isn't part of this workspace's")
        assert ("your tenant's admins" in reply) is not admin
