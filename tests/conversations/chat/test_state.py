"""The assistant's state is the server's: a client's metadata can never lose or steer it.

Every open state (a wizard, numbered options waiting for a pick, a numbered list of agents)
survives ``PATCH conversations/{id}/`` of the metadata, and both classification tiers and the
classify endpoint decide on the state the server keeps.
"""

from __future__ import annotations

from typing import Any

import pytest

from conversations.models import Agent, AgentRun, Conversation
from tests.conftest import World
from tests.conversations.chat.test_chat_api import Chat, stored
from tests.intents.llm_server import Reply, ScriptedLLMServer

pytestmark = pytest.mark.django_db


@pytest.fixture
def agents(world: World) -> list[Agent]:
    return [
        Agent.objects.create(tenant=world.tenant_a, name=name, description=description)
        for name, description in (
            ("financial-analyzer", "Monthly financial analysis"),
            ("jira-overdue-monitor", "Daily overdue ticket alerts"),
            ("notion-reporter", "Weekly Notion project summaries"),
        )
    ]


def patch_metadata(world: World, chat: Chat, metadata: dict[str, Any]) -> None:
    response = world.client(world.owner).patch(
        f"/api/v1/conversations/{chat.conversation_id}/", {"metadata": metadata}, format="json"
    )
    assert response.status_code == 200
    assert response.json()["metadata"] == metadata


def test_a_patched_metadata_does_not_close_the_open_wizard(world: World) -> None:
    # The reproduction: open the wizard, PATCH the metadata, ask where we were.
    chat = Chat(world, world.owner)
    chat.reply("Create an agent that monitors our Jira board for overdue tickets")
    patch_metadata(world, chat, {"pinned": True})

    recap = chat.reply("where were we?")

    assert "We were setting up a new agent" in recap
    assert "- Source: Jira" in recap
    assert "nothing half-finished" not in recap


def test_the_wizard_finishes_after_a_patch_in_the_middle(world: World) -> None:
    chat = Chat(world, world.owner)
    chat.reply("Create an agent that monitors our Jira board for overdue tickets")
    patch_metadata(world, chat, {})
    chat.reply("The PLATFORM project, past due date, and Slack alerts")
    patch_metadata(world, chat, {"wizard": None, "colour": "green"})
    done = chat.reply("Every morning at 9am")

    assert done.startswith("Done! I've created jira-tickets-monitor, an agent that")
    agent = Agent.objects.for_tenant(world.tenant_a).get()
    assert agent.config["source"] == "jira"
    assert agent.config["schedule"] == "Every day at 09:00 (UTC)"
    conversation = Conversation.objects.for_tenant(world.tenant_a).get()
    assert conversation.metadata == {"wizard": None, "colour": "green"}  # the client's, as sent


def test_offered_options_survive_a_patch_and_a_number_picks_one(
    world: World, agents: list[Agent]
) -> None:
    chat = Chat(world, world.owner)
    asked = chat.say(
        "I need to analyze our customer churn data and put together a presentation for the "
        "board meeting next week"
    )
    assert asked["assistant_message"]["metadata"]["options"]
    patch_metadata(world, chat, {"options": [], "pending": None})

    picked = chat.reply("2")

    assert picked.startswith("I'll create a new agent that analyzes our customer churn data")
    assert "customer churn" in picked


def test_a_listed_agent_is_still_the_second_one_after_a_patch(
    world: World, agents: list[Agent]
) -> None:
    chat = Chat(world, world.owner)
    chat.reply("List my agents")
    patch_metadata(world, chat, {"listed_agents": ["notion-reporter"]})

    ran = chat.reply("run the second one")

    assert ran.startswith("jira-overdue-monitor can't run yet")
    assert AgentRun.objects.for_tenant(world.tenant_a).get().agent.name == "jira-overdue-monitor"


def test_replies_show_what_was_offered_and_the_state_stays_off_them(world: World) -> None:
    chat = Chat(world, world.owner)
    data = chat.say("Create an agent that monitors our Jira board for overdue tickets")
    conversation = Conversation.objects.for_tenant(world.tenant_a).get()
    assert "wizard" not in data["assistant_message"]["metadata"]
    assert conversation.metadata == {}
    assert conversation.assistant_state["wizard"]["gathered"]["source"] == "jira"
    assert stored(data["conversation_id"])[1].metadata["routing"] == "wizard_ask"


def test_the_llm_tier_is_given_the_servers_wizard_not_the_clients(
    world: World, llm_server: ScriptedLLMServer
) -> None:
    chat = Chat(world, world.owner)
    llm_server.script(Reply.intent("create_agent", 0.9, entities={"source": "notion"}))
    chat.reply("I want an agent for our Notion workspace")
    patch_metadata(world, chat, {"wizard": {"kind": "create_agent", "gathered": {"x": "CLIENT"}}})
    llm_server.script(Reply.intent("create_agent", 0.9))

    chat.reply("weekly on mondays")

    prompt = llm_server.chat_requests[-1].prompt_text
    assert "notion" in prompt.lower()
    assert "CLIENT" not in prompt


def test_the_classify_endpoint_decides_as_the_chat_turn_on_the_same_conversation(
    world: World,
) -> None:
    chat = Chat(world, world.owner)
    chat.reply("I want to create an agent for weekly financial reports")
    patch_metadata(world, chat, {})
    classified = world.client(world.owner).post(
        "/api/v1/intents/classify/",
        {"message": "Google Sheets", "conversation_id": chat.conversation_id},
        format="json",
    )
    turn = chat.say("Google Sheets")

    assert classified.status_code == 200
    assert classified.json()["action_type"] == turn["intent"]["action_type"] == "create_agent"
    assert classified.json()["reasoning"] == turn["intent"]["reasoning"]
