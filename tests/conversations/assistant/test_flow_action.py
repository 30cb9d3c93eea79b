"""An answer inside a flow carries the flow's action: the intent a user sees on an answer to
the skill builder is create_skill, on an answer to the agent setup create_agent, whatever the
words alone would be read as; a detour keeps its own."""

from __future__ import annotations

import pytest

from tests.conftest import World

pytestmark = pytest.mark.django_db
URL = "/api/v1/chat/"


def _intents(world: World, *messages: str) -> list[str]:
    client, labels = world.client(world.owner), []
    body: dict[str, str] = {}
    for message in messages:
        answer = client.post(URL, {**body, "message": message}, format="json").json()
        body = {"conversation_id": answer["conversation_id"]}
        assert answer["assistant_message"]["metadata"]["intent"] == answer["intent"]
        labels.append(answer["intent"]["action_type"])
    return labels


def test_answers_to_the_skill_builder_are_create_skill(world: World) -> None:
    labels = _intents(
        world,
        "Create a skill that turns a long ticket thread into a five-bullet summary",
        "the whole thread as plain text",
        "five bullets in Markdown",
    )
    assert labels == ["create_skill", "create_skill", "create_skill"]


def test_answers_to_the_setup_are_create_agent_and_a_detour_keeps_its_own(world: World) -> None:
    labels = _intents(
        world,
        "Create an agent that watches our Zendesk queue for urgent tickets",
        "how do I add a teammate?",
        "every weekday at 8am",
    )
    assert labels[0] == "create_agent" and labels[2] == "create_agent"
    assert labels[1] != "create_agent"
