"""The master agent hands "create a skill" to the builder, keyed by the conversation."""

from __future__ import annotations

from typing import Any

import pytest

from conversations.chat.consumers import _ready
from conversations.models import Agent, AgentRun, Conversation
from skill_sessions.models import Skill, SkillCreationSession
from tests.conftest import World
from tests.conversations.chat.test_chat_api import Chat

pytestmark = pytest.mark.django_db


def session_of(chat: Chat) -> SkillCreationSession:
    conversation = Conversation.objects.cross_tenant().get(id=chat.conversation_id)  # test
    return SkillCreationSession.objects.cross_tenant().get(  # test
        session_id=conversation.assistant_state["skill_session"]
    )


def test_a_skill_is_built_in_the_chat_and_then_listed(world: World) -> None:
    chat = Chat(world, world.owner)
    first = chat.reply("Create a skill that extracts the totals from PDF invoices")
    assert "What should it give back" in first or "What does the skill take" in first
    chat.reply("a PDF invoice")
    chat.reply("JSON with total and currency")
    confirm = chat.reply('input: invoice-123.pdf -> output: {"total": 10, "currency": "EUR"}')
    assert confirm.startswith("Here's the skill I'll create:")
    done = chat.reply("yes")
    assert done.startswith("Done! I've created the skill totals-invoices-extractor")
    row = SkillCreationSession.objects.for_tenant(world.tenant_a).get()
    assert (row.status, row.state, row.version) == ("completed", "completed", 5)
    assert row.conversation_id == chat.conversation_id
    skill = Skill.objects.for_tenant(world.tenant_a).get()
    assert skill.session_id == row.session_id and skill.created_by == world.owner
    listed = chat.reply("what skills do I have?")
    assert "1. totals-invoices-extractor" in listed
    conversation = Conversation.objects.for_tenant(world.tenant_a).get()
    assert "skill_session" not in conversation.assistant_state  # closed with the session


def test_cancel_ends_the_session_and_creates_nothing(world: World) -> None:
    chat = Chat(world, world.owner)
    chat.reply("create a skill that cleans up postal addresses")
    assert "stopped building that skill" in chat.reply("cancel")
    assert not Skill.objects.for_tenant(world.tenant_a).exists()
    assert SkillCreationSession.objects.for_tenant(world.tenant_a).get().status == "abandoned"


def test_a_different_request_is_answered_and_the_session_kept(world: World) -> None:
    Agent.objects.create(tenant=world.tenant_a, name="notion-reporter", description="Notion")
    chat = Chat(world, world.owner)
    chat.reply("create a skill that cleans up postal addresses")
    detour = chat.reply("run notion-reporter now, please")
    assert detour.startswith("notion-reporter can't run yet")
    assert "is still open" in detour
    assert AgentRun.objects.for_tenant(world.tenant_a).count() == 1
    # The next answer goes back to the skill.
    answer = chat.reply("a free-text address")
    assert "What should it give back" in answer
    assert session_of(chat).version == 2  # the same session, one answer further


def test_the_page_picks_the_session_up_and_the_user_can_come_back_to_it(world: World) -> None:
    chat = Chat(world, world.owner)
    chat.reply("create a skill that cleans up postal addresses")
    conversation = Conversation.objects.for_tenant(world.tenant_a).get()
    state: dict[str, Any] = _ready(conversation)["state"]
    skill = state["skill_session"]
    assert skill["title"] == "Building a skill"
    assert skill["question"].startswith("What does the skill take as input")
    assert "Does: cleans up postal addresses" in skill["gathered"]

    # The state forgets the session (another flow took over); asking for it brings it back.
    conversation.assistant_state = {"v": 1}
    conversation.save(update_fields=["assistant_state"])
    back = chat.reply("let's finish that skill")
    assert back.startswith("We were building a skill.")
    assert "What does the skill take as input" in back
    assert "What should it give back" in chat.reply("a free-text address")


def test_another_members_session_is_not_picked_up(world: World) -> None:
    mine = Chat(world, world.member)
    mine.reply("create a skill that cleans up postal addresses")
    other = Chat(world, world.owner)
    other.conversation_id = None
    reply = other.reply("let's finish that skill")
    assert not reply.startswith("We were building a skill.")


def test_a_session_save_survives_the_retry_payload_unchanged() -> None:
    # The degraded path keeps a turn's effects as JSON until storage is back.
    import json

    from conversations.assistant.effects import (
        CreateSkill,
        SaveSkillSession,
        effect_from_json,
        effect_to_json,
    )
    from skill_sessions.context import SkillContext

    save = SaveSkillSession("sk_1", SkillContext(purpose="é").to_json(), 3, "01CONV")
    create = CreateSkill("01SKILL", "n", "d", {"inputs": [{"name": "input"}]}, "sk_1")
    for effect in (save, create):
        assert effect_from_json(json.loads(json.dumps(effect_to_json(effect)))) == effect
