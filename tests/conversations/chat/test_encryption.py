"""With keys set, what a user typed is not readable in the tables: message content and metadata
(the intent's entities), the title taken from it, the assistant's state (a wizard's gathered
values), skill-session documents."""

from __future__ import annotations

from typing import Any

import pytest
from cryptography.fernet import Fernet
from django.db import connection

from conversations.models import Conversation
from tests.conftest import World
from tests.conversations.chat.test_chat_api import Chat

pytestmark = pytest.mark.django_db
CANARY = "Zebracanary"


def raw(sql: str) -> list[str]:
    with connection.cursor() as cursor:
        cursor.execute(sql)
        return [str(value) for row in cursor.fetchall() for value in row]


def test_a_canary_typed_into_the_chat_is_nowhere_in_plaintext(world: World, settings: Any) -> None:
    settings.OMNIFORGE_ENCRYPTION_KEYS = [Fernet.generate_key().decode()]
    chat = Chat(world, world.owner)
    chat.say(f"Create an agent that watches Jira for {CANARY} tickets")  # a wizard opens
    chat.say(f"create a skill that extracts {CANARY} totals from invoices")
    # A client keeps its user's draft in the conversation's metadata (PATCH).
    patched = chat.client.patch(
        f"/api/v1/conversations/{chat.conversation_id}/",
        {"metadata": {"draft": f"about the {CANARY} tickets"}},
        format="json",
    )
    assert patched.status_code == 200, patched.content
    assert patched.json()["metadata"] == {"draft": f"about the {CANARY} tickets"}
    stored = raw("SELECT title, assistant_state, metadata FROM conversations_conversation")
    stored += raw("SELECT content, metadata FROM conversations_message")
    stored += raw("SELECT context FROM skill_sessions_skillcreationsession")
    # Case-blind: the classifier's entities hold the words normalized.
    assert stored and not [value for value in stored if CANARY.lower() in value.lower()]
    # The labels the admin filters on stay readable beside the encrypted metadata.
    assert raw("SELECT intent_action FROM conversations_message WHERE role = 'assistant'")
    # Read back through the models, everything is as typed.
    conversation = Conversation.objects.for_tenant(world.tenant_a).get()
    assert CANARY in conversation.title
    assert CANARY in str(conversation.assistant_state)


def test_rows_written_before_keys_were_set_still_read(world: World, settings: Any) -> None:
    chat = Chat(world, world.owner)
    chat.say(f"Create an agent that watches Jira for {CANARY} tickets")
    assert any(CANARY in v for v in raw("SELECT title FROM conversations_conversation"))
    settings.OMNIFORGE_ENCRYPTION_KEYS = [Fernet.generate_key().decode()]
    conversation = Conversation.objects.for_tenant(world.tenant_a).get()
    assert CANARY in conversation.title and conversation.assistant_state["wizard"]
    assert "watches Jira" in chat.reply("every day at 9am to #ops")
