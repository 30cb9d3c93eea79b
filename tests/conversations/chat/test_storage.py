"""The chat turn when storage misbehaves: refusals, outages, dead turns and slow ones.

A permanent refusal (the data) is a clear error with nothing acknowledged; a transient one
(storage unavailable) still answers, and every acknowledged message lands exactly once under
the ids it was given, whatever the client re-sends meanwhile. The turn lease frees a dead
turn's conversation within seconds and never lets a slow live turn be overtaken.
"""

from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.db import connection, connections
from django.test import AsyncClient
from django.utils import timezone

from conversations.assistant.effects import CreateAgent
from conversations.chat.commit import turn_payload
from conversations.models import Agent, Conversation, Message, new_id
from conversations.store import services
from conversations.store.services import PendingMessage
from conversations.tasks import turn_commit_retry
from conversations.tenancy.services import token_issue
from tests.conftest import World
from tests.conversations.chat.test_chat_api import DEMO_AGENTS, Chat, stored
from tests.intents.llm_server import Reply, ScriptedLLMServer

URL = "/api/v1/chat/"


@pytest.fixture
def agents(world: World) -> list[Agent]:
    return [
        Agent.objects.create(tenant=world.tenant_a, name=name, description=description)
        for name, description in DEMO_AGENTS
    ]


class WriteLock:
    """Another database session holding the write lock on the conversation tables for a while."""

    def __init__(self) -> None:
        self.released = threading.Event()
        self._thread: threading.Thread | None = None

    def hold(self, seconds: float) -> None:
        ready = threading.Event()
        params = connection.settings_dict

        def run() -> None:
            if connection.vendor == "sqlite":
                db = sqlite3.connect(params["NAME"], isolation_level=None)
                db.execute("BEGIN EXCLUSIVE")
                ready.set()
                time.sleep(seconds)
                db.execute("COMMIT")
                db.close()
            else:
                import psycopg

                with psycopg.connect(
                    host=params.get("HOST") or "127.0.0.1", port=params.get("PORT") or 5432,
                    user=params["USER"], password=params.get("PASSWORD") or None,
                    dbname=params["NAME"],
                ) as db:  # fmt: skip
                    db.execute(
                        "LOCK TABLE conversations_conversation, conversations_message "
                        "IN EXCLUSIVE MODE"
                    )
                    ready.set()
                    time.sleep(seconds)
            self.released.set()

        self._thread = threading.Thread(target=run, daemon=True)
        self._thread.start()
        assert ready.wait(10)


@pytest.fixture
def short_write_wait() -> Iterator[None]:
    """This connection gives up on a locked write after 0.3 s instead of waiting its turn."""
    with connection.cursor() as cursor:
        if connection.vendor == "sqlite":
            cursor.execute("PRAGMA busy_timeout = 300")
        else:
            cursor.execute("SET lock_timeout = '300ms'")
    yield
    with connection.cursor() as cursor:
        if connection.vendor == "sqlite":
            timeout_ms = int(connection.settings_dict["OPTIONS"]["timeout"] * 1000)
            cursor.execute(f"PRAGMA busy_timeout = {timeout_ms}")
        else:
            cursor.execute("RESET lock_timeout")


@pytest.mark.django_db(transaction=True)
def test_a_reply_is_delivered_while_storage_is_unavailable_and_lands_once_afterwards(
    world: World, agents: Any, settings: Any, short_write_wait: None
) -> None:
    settings.REDIS_URL = ""  # the embedded mode's in-process retry
    conversation = services.conversation_create(tenant=world.tenant_a, user=world.owner)
    chat = Chat(world, world.owner)
    chat.conversation_id = conversation.id
    chat.say("what can you do?")  # load the classifier and tokenizer before the clock matters
    lock = WriteLock()
    lock.hold(seconds=3)

    data = chat.say("list my agents")

    assert not lock.released.is_set(), "the reply must not wait for storage"
    assert data["assistant_message"]["content"].startswith("Here are your agents:")
    assert "user_message" in data["assistant_message"]["metadata"]["degraded"]
    assert lock.released.wait(10)
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline and len(stored(conversation.id)) < 4:
        time.sleep(0.2)
    rows = stored(conversation.id)[2:]
    assert [(m.id, m.role) for m in rows] == [
        (data["user_message"]["id"], "user"),
        (data["assistant_message"]["id"], "assistant"),
    ]
    assert rows[1].metadata["degraded"]
    time.sleep(0.5)
    assert len(stored(conversation.id)) == 4  # exactly once


@pytest.mark.django_db(transaction=True)
def test_turns_answered_in_one_outage_land_in_the_order_they_were_answered(
    world: World, agents: Any, settings: Any, short_write_wait: None
) -> None:
    # Each turn's retry waits a random backoff, so without the conversation's backlog the
    # later turns could land first, or after the turn answered once storage was back.
    settings.REDIS_URL = ""
    conversation = services.conversation_create(tenant=world.tenant_a, user=world.owner)
    chat = Chat(world, world.owner)
    chat.conversation_id = conversation.id
    chat.say("what can you do?")
    lock = WriteLock()
    lock.hold(seconds=3)
    answered = []
    for n, text in enumerate(["list my agents", "hello", "what can you do?", "thanks"]):
        data = chat.say(text, client_message_id=f"outage-{n}")
        assert data["assistant_message"]["metadata"]["degraded"]
        answered += [data["user_message"]["id"], data["assistant_message"]["id"]]
    assert lock.released.wait(10)
    data = chat.say("list my agents")  # storage is back: stored after the four, not before
    answered += [data["user_message"]["id"], data["assistant_message"]["id"]]
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline and len(stored(conversation.id)) < 12:
        time.sleep(0.2)
    time.sleep(0.5)
    rows = stored(conversation.id)
    assert [m.id for m in rows[2:]] == answered  # each once, in the order answered
    assert [m.seq for m in rows] == list(range(1, 13))


@pytest.mark.django_db(transaction=True)
def test_the_celery_retry_task_commits_a_turn_exactly_once(world: World) -> None:
    conversation_id = "01JC0NVERSAT10NCREATEDLATER"[:26]
    user, reply = (
        PendingMessage(
            id=new_id(), role=role, content=text, metadata={}, client_message_id=None,
            created_at=timezone.now(), assistant_state=state,
        )
        for role, text, state in [
            ("user", "hello", None),
            ("assistant", "Done! I've created weekly-digest.", {"v": 1, "last_agent": "w-d"}),
        ]
    )  # fmt: skip
    created = CreateAgent(new_id(), "weekly-digest", "A weekly digest", {"source": "notion"})
    payload = turn_payload([user, reply], [created], reply_to=user.id)
    args = (world.tenant_a.pk, world.owner.pk, conversation_id, payload)

    assert turn_commit_retry.apply(args=args).get() == 2
    assert turn_commit_retry.apply(args=args).get() == 0

    rows = stored(conversation_id)
    assert [(m.seq, m.content) for m in rows] == [(1, "hello"), (2, reply.content)]
    conversation = Conversation.objects.for_tenant(world.tenant_a).get(id=conversation_id)
    assert conversation.user == world.owner
    assert conversation.assistant_state == {"v": 1, "last_agent": "w-d"}
    agent = Agent.objects.for_tenant(world.tenant_a).get()
    assert (agent.id, agent.name, agent.created_by) == (
        created.agent_id,
        "weekly-digest",
        world.owner,
    )


# --- A permanent refusal: a clear error, nothing acknowledged --------------------------------


@pytest.fixture
def refusing_trigger() -> Iterator[None]:
    """The database itself refuses any message holding "refuse-me" (a real trigger)."""
    with connection.cursor() as cursor:
        if connection.vendor == "sqlite":
            cursor.execute(
                "CREATE TRIGGER refuse_me BEFORE INSERT ON conversations_message "
                "WHEN NEW.content LIKE '%refuse-me%' "
                "BEGIN SELECT RAISE(ABORT, 'refused by a trigger'); END"
            )
        else:
            cursor.execute(
                "CREATE FUNCTION refuse_me() RETURNS trigger AS $$ BEGIN "
                "IF NEW.content LIKE '%refuse-me%' THEN "
                "RAISE EXCEPTION 'refused by a trigger' USING ERRCODE = '22000'; END IF; "
                "RETURN NEW; END $$ LANGUAGE plpgsql"
            )
            cursor.execute(
                "CREATE TRIGGER refuse_me BEFORE INSERT ON conversations_message "
                "FOR EACH ROW EXECUTE FUNCTION refuse_me()"
            )
    yield
    with connection.cursor() as cursor:
        cursor.execute(
            "DROP TRIGGER refuse_me"
            + ("" if connection.vendor == "sqlite" else " ON conversations_message")
        )
        if connection.vendor != "sqlite":
            cursor.execute("DROP FUNCTION refuse_me()")


@pytest.mark.django_db(transaction=True)
def test_a_message_storage_refuses_for_good_is_a_clear_error_and_nothing_is_acknowledged(
    world: World, refusing_trigger: None
) -> None:
    client = world.client(world.owner)
    body = {"message": "please refuse-me", "client_message_id": "tab-1-msg-1"}

    first = client.post(URL, body, format="json")
    again = client.post(URL, body, format="json")

    for response in (first, again):
        assert response.status_code == 422
        assert response.json() == {"detail": "The message could not be stored."}
    assert not Conversation.objects.for_tenant(world.tenant_a).exists()
    assert not Message.objects.for_tenant(world.tenant_a).exists()
    # The conversation is usable for everything else.
    assert Chat(world, world.owner).say("list my agents")["assistant_message"]["content"]


@pytest.mark.django_db(transaction=True)
def test_a_refused_message_in_an_existing_conversation_leaves_it_as_it_was(
    world: World, refusing_trigger: None
) -> None:
    chat = Chat(world, world.owner)
    chat.say("what can you do?")
    response = world.client(world.owner).post(
        URL, {"message": "refuse-me", "conversation_id": chat.conversation_id}, format="json"
    )
    assert response.status_code == 422
    assert stored(chat.conversation_id or "")[0].content == "what can you do?"
    assert len(stored(chat.conversation_id or "")) == 2
    assert chat.say("list my agents")["user_message"]["content"] == "list my agents"


@pytest.mark.django_db(transaction=True)
async def test_the_sse_door_reports_a_refusal_as_an_error_event(
    world: World, refusing_trigger: None
) -> None:
    token = await sync_to_async(token_issue)(user=world.owner)
    response = await AsyncClient().post(
        URL, {"message": "refuse-me"}, content_type="application/json",
        headers={"Authorization": f"Token {token}", "Accept": "text/event-stream"},
    )  # fmt: skip
    raw = b"".join([part async for part in response.streaming_content]).decode()
    await sync_to_async(connections.close_all)()
    assert raw.startswith("event: error")
    assert '"storage_refused"' in raw


# --- A transient outage: acknowledged once, the same ids on every re-send ---------------------


@pytest.mark.django_db(transaction=True)
def test_a_resent_message_acknowledged_during_an_outage_keeps_its_ids(
    world: World, agents: Any, settings: Any, short_write_wait: None
) -> None:
    settings.REDIS_URL = ""  # the embedded mode's in-process retry
    chat = Chat(world, world.owner)
    chat.say("hello")
    lock = WriteLock()
    lock.hold(seconds=3)

    first = chat.say("list my agents", client_message_id="tab-1-msg-7")
    during = chat.say("list my agents", client_message_id="tab-1-msg-7")

    assert not lock.released.is_set()
    assert first["assistant_message"]["metadata"]["degraded"]
    for key in ("user_message", "assistant_message"):
        assert during[key]["id"] == first[key]["id"]
    assert during["assistant_message"]["content"] == first["assistant_message"]["content"]

    assert lock.released.wait(10)
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline and len(stored(chat.conversation_id or "")) < 4:
        time.sleep(0.2)
    after = chat.say("list my agents", client_message_id="tab-1-msg-7")
    rows = stored(chat.conversation_id or "")
    assert [m.id for m in rows[2:]] == [
        first["user_message"]["id"],
        first["assistant_message"]["id"],
    ]
    assert after["assistant_message"]["id"] == first["assistant_message"]["id"]
    assert len(rows) == 4  # stored exactly once


# --- The turn lease: a dead turn frees its conversation, a slow one is never overtaken --------


@pytest.mark.django_db(transaction=True)
def test_resending_a_message_whose_turn_died_with_its_server_completes_that_turn_once(
    world: World, agents: Any
) -> None:
    conversation = services.conversation_create(tenant=world.tenant_a, user=world.owner)
    user_message = services.message_add(
        conversation=conversation, role="user", content="list my agents",
        client_message_id="tab-2-msg-1",
    ).message  # fmt: skip
    # What a process killed mid-turn leaves behind: its lease, expiring in a moment.
    Conversation.objects.for_tenant(world.tenant_a).filter(id=conversation.id).update(
        turn_owner="a-dead-process",
        turn_lease_until=timezone.now() + timezone.timedelta(seconds=1.5),
    )
    chat = Chat(world, world.owner)
    chat.conversation_id = conversation.id

    started = time.monotonic()
    completed = chat.say("list my agents", client_message_id="tab-2-msg-1")
    waited = time.monotonic() - started
    replayed = chat.say("list my agents", client_message_id="tab-2-msg-1")

    assert 1.0 < waited < 6
    assert completed["user_message"]["id"] == user_message.id
    assert completed["assistant_message"]["content"].startswith("Here are your agents:")
    assert replayed["assistant_message"]["id"] == completed["assistant_message"]["id"]
    rows = stored(conversation.id)
    assert [(m.role, m.seq) for m in rows] == [("user", 1), ("assistant", 2)]
    assert rows[1].metadata["reply_to"] == user_message.id


@pytest.mark.django_db(transaction=True)
def test_a_turn_slower_than_the_lease_is_never_overtaken_by_the_next_message(
    world: World, agents: Any, settings: Any, llm_server: ScriptedLLMServer
) -> None:
    settings.OMNIFORGE_TURN_LEASE_S = 2.0
    settings.OMNIFORGE_INTENT_TIMEOUT_S = 10
    llm_server.script(Reply.slow(6.5), Reply.intent("query_info", 0.95))
    conversation = services.conversation_create(tenant=world.tenant_a, user=world.owner)
    results: dict[str, tuple[float, float, dict[str, Any]]] = {}

    def send(key: str, text: str, delay: float) -> None:
        try:
            time.sleep(delay)
            chat = Chat(world, world.owner)
            chat.conversation_id = conversation.id
            started = time.monotonic()
            data = chat.say(text)
            results[key] = (started, time.monotonic(), data)
        finally:
            connections.close_all()

    slow = threading.Thread(target=send, args=("slow", "list my agents", 0))
    quick = threading.Thread(target=send, args=("quick", "what can you do?", 0.8))
    slow.start()
    quick.start()
    slow.join()
    quick.join()

    slow_started, slow_done, _ = results["slow"]
    _, _, quick_data = results["quick"]
    assert slow_done - slow_started > 3 * settings.OMNIFORGE_TURN_LEASE_S  # longer than the lease
    rows = stored(conversation.id)
    # The quick turn waited for the slow one's reply: stored after it. (When each client got
    # its answer back is not the order: the slow one's response can still be on its way.)
    assert rows[1].created_at <= rows[2].created_at
    assert [(m.role, m.content) for m in rows[::2]] == [
        ("user", "list my agents"),
        ("user", "what can you do?"),
    ]
    for user, assistant in zip(rows[::2], rows[1::2], strict=True):
        assert assistant.metadata["reply_to"] == user.id
    assert quick_data["user_message"]["id"] == rows[2].id
