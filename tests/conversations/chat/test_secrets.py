"""A secret typed into the chat is stored as typed (and flagged), and goes nowhere else."""

from __future__ import annotations

import json

import pytest

from conversations.models import Agent, Conversation, Message
from skill_sessions.models import SkillCreationSession
from tests.conftest import World
from tests.conversations.chat.test_chat_api import Chat
from tests.intents.llm_server import Reply, ScriptedLLMServer

pytestmark = pytest.mark.django_db
KEY = "sk-proj-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789"
REQUEST = (
    f"Create an agent that watches Jira for overdue tickets using key {KEY} and alerts #ops "
    "every day at 9am"
)


def test_a_key_in_a_request_reaches_no_agent_title_or_reply(world: World) -> None:
    chat = Chat(world, world.owner)
    data = chat.say(REQUEST)
    reply = data["assistant_message"]["content"]
    assert "your message contained what looks like an OpenAI API key" in reply
    assert KEY not in reply and KEY not in json.dumps(data["intent"])
    agent = Agent.objects.for_tenant(world.tenant_a).get()
    assert KEY not in json.dumps([agent.name, agent.description, agent.config])
    conversation = Conversation.objects.for_tenant(world.tenant_a).get()
    assert KEY not in conversation.title
    assert KEY not in json.dumps(conversation.assistant_state)
    user, answer = Message.objects.for_tenant(world.tenant_a).order_by("seq")
    assert user.content == REQUEST  # as typed: encrypted at rest like every message
    assert user.metadata == {"secrets": ["openai_api_key"]}
    assert KEY not in json.dumps(answer.metadata)
    # The next reply does not repeat the notice.
    assert "looks like" not in chat.reply("list my agents")


def test_no_secret_reaches_the_llm_provider(world: World, llm_server: ScriptedLLMServer) -> None:
    chat = Chat(world, world.owner)
    llm_server.script(Reply.intent("create_agent", 0.9))
    chat.say(f"my password is hunter2hunter and the key is {KEY}")
    llm_server.script(Reply.intent("query_info", 0.9))
    chat.say("what can you do?")  # the first message is now history in the prompt
    assert llm_server.call_count == 2
    for request in llm_server.chat_requests:
        assert KEY not in request.prompt_text and "hunter2hunter" not in request.prompt_text
    assert "[redacted: an OpenAI API key]" in llm_server.chat_requests[-1].prompt_text


def test_a_skill_session_never_holds_the_secret(world: World) -> None:
    client = world.client(world.owner)
    response = client.post(
        "/api/v1/skill-sessions/",
        {"message": f"Create a skill that calls our billing API with token {KEY}"},
        format="json",
    )
    assert response.status_code == 201 and KEY not in response.content.decode()
    row = SkillCreationSession.objects.for_tenant(world.tenant_a).get()
    assert KEY not in row.context and KEY not in row.skill_name
