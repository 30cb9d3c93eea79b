"""The product as it runs: real Daphne processes over HTTP, restarted and side by side."""

from __future__ import annotations

import asyncio
import os
import threading

import aiohttp
import pytest
from django.db import connections

from conversations.models import Agent, Conversation
from conversations.store import services
from conversations.tenancy.services import token_issue
from tests.conftest import World
from tests.live import LiveSocket, Server


@pytest.mark.django_db(transaction=True)
def test_a_wizard_resumes_after_the_server_process_restarts(
    world: World, servers: list[Server]
) -> None:
    token = token_issue(user=world.owner)
    connections.close_all()  # the servers must not wait on this process's connection
    first = Server()
    servers.append(first)
    opened = first.chat(token, "I want to create an agent for weekly financial reports", None)
    conversation_id = opened["conversation_id"]
    asked = first.chat(token, "Google Sheets", conversation_id)["assistant_message"]["content"]
    first.stop()

    second = Server()
    servers.append(second)
    recap = second.chat(token, "Sorry, I had to step away. Where were we?", conversation_id)
    content = recap["assistant_message"]["content"]
    assert "- Source: Google Sheets" in content
    assert content.strip().endswith(asked.strip().splitlines()[-1])
    assert (
        Conversation.objects.for_tenant(world.tenant_a).get(id=conversation_id).message_count == 6
    )


@pytest.mark.django_db(transaction=True)
def test_two_server_processes_answer_one_conversation_one_turn_at_a_time(
    world: World, servers: list[Server]
) -> None:
    Agent.objects.create(tenant=world.tenant_a, name="notion-reporter", description="Notion")
    conversation = services.conversation_create(tenant=world.tenant_a, user=world.owner)
    token = token_issue(user=world.owner)
    connections.close_all()
    pair = [Server(), Server()]
    servers.extend(pair)
    barrier = threading.Barrier(2)
    errors: list[BaseException] = []

    def send(server: Server, text: str) -> None:
        try:
            barrier.wait()
            for _ in range(4):
                server.chat(token, text, conversation.id)
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [
        threading.Thread(target=send, args=(pair[0], "list my agents")),
        threading.Thread(target=send, args=(pair[1], "what can you do?")),
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    rows = list(conversation.messages.order_by("seq"))
    assert [m.seq for m in rows] == list(range(1, 17))
    for user, assistant in zip(rows[::2], rows[1::2], strict=True):
        assert (user.role, assistant.role) == ("user", "assistant")
        assert assistant.metadata["reply_to"] == user.id
    assert sorted({m.content for m in rows[::2]}) == ["list my agents", "what can you do?"]


@pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="needs Redis (CI's second run)")
@pytest.mark.django_db(transaction=True)
def test_two_server_processes_stream_the_same_turn_to_sockets_on_each(
    world: World, servers: list[Server]
) -> None:
    conversation = services.conversation_create(tenant=world.tenant_a, user=world.owner)
    token = token_issue(user=world.owner)
    connections.close_all()
    shared = {"REDIS_URL": os.environ["REDIS_URL"], "CHANNEL_LAYER_PREFIX": f"pair-{os.getpid()}"}
    pair = [Server(env=shared), Server(env=shared)]
    servers.extend(pair)

    async def chat() -> None:
        async with aiohttp.ClientSession() as session:
            first, ready = await LiveSocket.open(session, pair[0], token, conversation.id)
            second, _ = await LiveSocket.open(session, pair[1], token, conversation.id)
            assert ready["conversation_id"] == conversation.id
            for speaker, listener, text in (
                (first, second, "list my agents"),
                (second, first, "what can you do?"),
            ):
                said = await speaker.say(text, client_message_id=f"m-{text}")
                heard = await listener.until_done()
                assert [f["type"] for f in said][:3] == ["ack", "thinking", "intent"]
                assert heard == said  # the same frames, in the same order, across processes
            await first.ws.close()
            await second.ws.close()

    asyncio.run(chat())
    rows = list(conversation.messages.order_by("seq"))
    assert [m.role for m in rows] == ["user", "assistant"] * 2


@pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="needs Redis (CI's second run)")
@pytest.mark.django_db(transaction=True)
def test_an_idle_socket_on_the_redis_layer_stays_open_and_answers(
    world: World, servers: list[Server]
) -> None:
    # Regression: with redis-py 8's default socket timeout, the channel layer's blocking
    # receive timed out after 5 idle seconds and killed every consumer.
    token = token_issue(user=world.owner)
    connections.close_all()
    server = Server(env={"REDIS_URL": os.environ["REDIS_URL"], "CHANNEL_LAYER_PREFIX": "idle"})
    servers.append(server)

    async def chat() -> None:
        async with aiohttp.ClientSession() as session:
            socket, _ = await LiveSocket.open(session, server, token)
            await asyncio.sleep(7)
            frames = await socket.say("list my agents")
            assert frames[-1]["type"] == "done"
            await socket.ws.close()

    asyncio.run(chat())
    assert "Timeout reading" not in server.log()
