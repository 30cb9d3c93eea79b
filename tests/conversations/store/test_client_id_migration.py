"""Keys become per user: existing user messages get their author, and a key a user had sent in
several conversations keeps naming the first message only."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from conversations.models import Message
from conversations.tenancy.services import tenant_create, user_add

pytestmark = pytest.mark.django_db(transaction=True)
BEFORE = [("conversations", "0009_agent_paused_at")]
AFTER = [("conversations", "0011_message_client_id_per_user_constraint")]


def test_existing_messages_get_their_author_and_a_reused_key_names_the_first_message() -> None:
    # The tenant and user with today's code, before the schema goes back: their rows survive
    # the way back (today's Membership has columns the old schema does not).
    tenant = tenant_create(slug="acme")
    alice = user_add(tenant=tenant, username="alice", password="pw-alice-1").user
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    old_apps = executor.loader.project_state(BEFORE).apps
    OldConversation = old_apps.get_model("conversations", "Conversation")
    OldMessage = old_apps.get_model("conversations", "Message")
    ids = []
    for n, (role, key) in enumerate([("user", "k-1"), ("assistant", None), ("user", "k-1")]):
        conversation = OldConversation.objects.create(
            id=f"C{n}", tenant_id=tenant.pk, user_id=alice.pk
        )
        OldMessage.objects.create(
            id=f"M{n}", tenant_id=tenant.pk, conversation=conversation, seq=1, role=role,
            content="list my agents", client_message_id=key,
        )  # fmt: skip
        ids.append(f"M{n}")

    MigrationExecutor(connection).migrate(AFTER)
    call_command("migrate", verbosity=0)  # and the rest, as a deploy would

    rows = {m.id: m for m in Message.objects.for_tenant(tenant)}
    assert rows["M0"].author_id == alice.pk and rows["M0"].client_message_id == "k-1"
    assert rows["M1"].author_id is None
    assert rows["M2"].author_id == alice.pk and rows["M2"].client_message_id is None
