from __future__ import annotations

import itertools
import os
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from django.db import connection, connections

from conversations.models import Conversation, Message
from conversations.store import selectors, services
from conversations.store.tokens import count_tokens
from tests.conftest import World, subprocess_database_url

WORKER = Path(__file__).with_name("append_worker.py")


def new_conversation(world: World) -> Conversation:
    return services.conversation_create(tenant=world.tenant_a, user=world.owner)


def assert_gapless(conversation: Conversation, expected: int) -> list[Message]:
    rows = list(
        Message.objects.for_tenant(conversation.tenant_id)
        .filter(conversation=conversation)
        .order_by("seq")
    )
    assert [m.seq for m in rows] == list(range(1, expected + 1))
    conversation.refresh_from_db()
    assert conversation.message_count == expected
    return rows


@pytest.mark.django_db
def test_messages_get_consecutive_sequence_numbers_and_token_counts(world: World) -> None:
    conversation = new_conversation(world)
    first = services.message_add(
        conversation=conversation, role="user", content="Hello there, agent"
    )
    second = services.message_add(conversation=conversation, role="assistant", content="Hi!")
    assert (first.message.seq, second.message.seq) == (1, 2)
    assert first.created and second.created
    assert first.message.token_count == count_tokens("Hello there, agent") > 0
    assert_gapless(conversation, 2)


@pytest.mark.django_db
def test_the_first_user_message_titles_the_conversation(world: World) -> None:
    conversation = new_conversation(world)
    services.message_add(conversation=conversation, role="assistant", content="Welcome!")
    services.message_add(
        conversation=conversation,
        role="user",
        content="Create an agent that monitors our Jira board for overdue tickets every morning",
    )
    services.message_add(conversation=conversation, role="user", content="second message")
    conversation.refresh_from_db()
    assert conversation.title.startswith("Create an agent that monitors our Jira board")
    assert len(conversation.title) <= services.TITLE_MAX_CHARS
    assert conversation.title.endswith("…")


@pytest.mark.django_db
def test_an_edited_title_is_kept(world: World) -> None:
    conversation = services.conversation_create(
        tenant=world.tenant_a, user=world.owner, title="Mine"
    )
    services.message_add(conversation=conversation, role="user", content="hello")
    conversation.refresh_from_db()
    assert conversation.title == "Mine"


@pytest.mark.django_db
def test_a_client_message_id_is_stored_once(world: World) -> None:
    conversation = new_conversation(world)
    first = services.message_add(
        conversation=conversation, role="user", content="run it", client_message_id="c-1"
    )
    again = services.message_add(
        conversation=conversation, role="user", content="run it", client_message_id="c-1"
    )
    assert first.created and not again.created
    assert again.message.id == first.message.id
    assert_gapless(conversation, 1)


@pytest.mark.django_db
def test_recent_messages_come_oldest_first(world: World) -> None:
    conversation = new_conversation(world)
    for i in range(25):
        services.message_add(conversation=conversation, role="user", content=f"m{i}")
    recent = selectors.message_recent(conversation=conversation, limit=20)
    assert [m.content for m in recent] == [f"m{i}" for i in range(5, 25)]


@pytest.mark.django_db
def test_the_async_entry_points_run_the_same_services(world: World) -> None:
    conversation = new_conversation(world)

    async def turn() -> list[Message]:
        await services.amessage_add(conversation=conversation, role="user", content="async hello")
        return await selectors.amessage_recent(conversation=conversation, limit=5)

    assert [m.content for m in async_to_sync(turn)()] == ["async hello"]


@pytest.mark.django_db
def test_appending_to_a_deleted_conversation_raises_does_not_exist(world: World) -> None:
    conversation = new_conversation(world)
    Conversation.objects.for_tenant(world.tenant_a).filter(id=conversation.id).delete()
    with pytest.raises(Conversation.DoesNotExist):
        services.message_add(conversation=conversation, role="user", content="late")


@pytest.mark.django_db
def test_an_unknown_role_is_refused(world: World) -> None:
    from django.core.exceptions import ValidationError

    with pytest.raises(ValidationError):
        services.message_add(conversation=new_conversation(world), role="robot", content="x")


@pytest.mark.django_db(transaction=True)
def test_threads_appending_at_once_get_gapless_unique_numbers(world: World) -> None:
    conversation = new_conversation(world)
    threads, per_thread, errors = 6, 15, []
    barrier = threading.Barrier(threads)

    def append(label: int) -> None:
        try:
            barrier.wait()
            for i in range(per_thread):
                services.message_add(
                    conversation=conversation, role="user", content=f"t{label}-{i}"
                )
        except Exception as exc:  # pragma: no cover - reported below
            errors.append(exc)
        finally:
            connections.close_all()

    workers = [threading.Thread(target=append, args=(n,)) for n in range(threads)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    assert errors == []
    rows = assert_gapless(conversation, threads * per_thread)
    # Each thread's own messages keep their order within the total order.
    for n in range(threads):
        mine = [m.content for m in rows if m.content.startswith(f"t{n}-")]
        assert mine == [f"t{n}-{i}" for i in range(per_thread)]


@pytest.mark.django_db(transaction=True)
def test_processes_appending_at_once_get_gapless_unique_numbers(
    world: World, tmp_path: Path
) -> None:
    conversation = new_conversation(world)
    processes, per_process = 4, 25
    env = {**os.environ, "DATABASE_URL": subprocess_database_url()}
    go = tmp_path / "go"
    procs = [
        subprocess.Popen(
            [
                sys.executable,
                str(WORKER),
                str(world.tenant_a.pk),
                conversation.id,
                str(per_process),
                str(go),
                f"p{n}",
            ],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for n in range(processes)
    ]
    for proc in procs:  # every interpreter has imported Django and loaded the conversation
        assert proc.stdout is not None and proc.stdout.readline().strip() == "ready"
    go.touch()
    for proc in procs:
        _, stderr = proc.communicate(timeout=120)
        assert proc.returncode == 0, stderr
    rows = assert_gapless(conversation, processes * per_process)
    for n in range(processes):
        mine = [m.content for m in rows if m.content.startswith(f"p{n}-")]
        assert mine == [f"p{n}-{i}" for i in range(per_process)]
    # The appends did interleave (one after another would switch processes - 1 times).
    switches = sum(1 for a, b in itertools.pairwise(rows) if a.content[:2] != b.content[:2])
    assert switches >= processes


@pytest.mark.django_db
def test_message_content_is_encrypted_at_rest_when_keys_are_set(
    world: World, settings: Any
) -> None:
    from cryptography.fernet import Fernet

    old_key, new_key = Fernet.generate_key().decode(), Fernet.generate_key().decode()
    conversation = new_conversation(world)
    services.message_add(conversation=conversation, role="user", content="plain before keys")
    settings.OMNIFORGE_ENCRYPTION_KEYS = [old_key]
    services.message_add(conversation=conversation, role="user", content="my api key is sk-123")
    # Rotation: a new key first, the old one still decrypts.
    settings.OMNIFORGE_ENCRYPTION_KEYS = [new_key, old_key]
    services.message_add(conversation=conversation, role="user", content="after rotation")

    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT content FROM {Message._meta.db_table} WHERE conversation_id = %s ORDER BY seq",
            [conversation.id],
        )
        raw = [row[0] for row in cursor.fetchall()]
    assert raw[0] == "plain before keys"
    assert raw[1].startswith("enc1:") and "sk-123" not in raw[1]
    assert raw[2].startswith("enc1:")
    contents = [m.content for m in selectors.message_recent(conversation=conversation)]
    assert contents == ["plain before keys", "my api key is sk-123", "after rotation"]
