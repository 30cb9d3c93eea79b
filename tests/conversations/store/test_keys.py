"""rotate_encryption_keys: old-key and plaintext rows rewritten under the newest key, resumably."""

from __future__ import annotations

from io import StringIO
from typing import Any

import pytest
from cryptography.fernet import Fernet
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection

from conversations.models import Conversation, Message
from conversations.runs.runtime import runtime_credentials_rotate
from tests.conftest import World
from tests.conversations.chat.test_chat_api import Chat

pytestmark = pytest.mark.django_db
OLD, NEW = Fernet.generate_key().decode(), Fernet.generate_key().decode()


def raw(sql: str) -> list[str]:
    with connection.cursor() as cursor:
        cursor.execute(sql)
        return [str(v) for row in cursor.fetchall() for v in row if v]


def run(*args: str) -> list[str]:
    out = StringIO()
    call_command("rotate_encryption_keys", *args, stdout=out, stderr=StringIO())
    return out.getvalue().splitlines()


def test_rows_under_an_old_key_or_none_end_up_under_the_newest(world: World, settings: Any) -> None:
    Chat(world, world.owner).say("Create an agent that watches Jira for overdue tickets")
    settings.OMNIFORGE_ENCRYPTION_KEYS = [OLD]
    Chat(world, world.owner).say("what can you do?")  # these rows under the old key
    runtime_credentials_rotate(tenant=world.tenant_a)  # its signing secret too
    settings.OMNIFORGE_ENCRYPTION_KEYS = [NEW, OLD]

    dry = run("--dry-run")
    assert dry[0] == "message content to re-encrypt: 4 of 4"
    assert raw("SELECT content FROM conversations_message")[0] == (
        "Create an agent that watches Jira for overdue tickets"
    )  # a dry run changes nothing

    done = run("--batch-size", "3")
    assert done == [
        "message content re-encrypted: 4 of 4",
        "message metadata re-encrypted: 4 of 4",
        "conversation titles re-encrypted: 2 of 2",
        "assistant states re-encrypted: 2 of 2",
        "conversation metadata re-encrypted: 2 of 2",
        "agent descriptions re-encrypted: 0 of 0",
        "agent configs re-encrypted: 0 of 0",
        "skill-session documents re-encrypted: 0 of 0",
        "skill descriptions re-encrypted: 0 of 0",
        "skill definitions re-encrypted: 0 of 0",
        "run summaries re-encrypted: 0 of 0",
        "run progress re-encrypted: 0 of 0",
        "run reasons re-encrypted: 0 of 0",
        "runtime secrets re-encrypted: 1 of 1",
    ]
    # Only the newest key is needed now, and everything reads as before.
    settings.OMNIFORGE_ENCRYPTION_KEYS = [NEW]
    contents = sorted(m.content for m in Message.objects.for_tenant(world.tenant_a))
    assert "what can you do?" in contents
    assert {c.title for c in Conversation.objects.for_tenant(world.tenant_a)} == {
        "Create an agent that watches Jira for overdue tickets", "what can you do?",
    }  # fmt: skip
    assert not [v for v in raw("SELECT content FROM conversations_message") if "Jira" in v]
    # Run again (as after an interruption): nothing is left to do.
    assert run()[0] == "message content re-encrypted: 0 of 4"


def test_without_keys_there_is_nothing_to_rotate_to(world: World) -> None:
    with pytest.raises(CommandError, match="OMNIFORGE_ENCRYPTION_KEYS is unset"):
        run()
