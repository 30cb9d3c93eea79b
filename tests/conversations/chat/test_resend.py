"""A ``client_message_id`` names one message of its user, on every door.

A client killed during its first turn never learned the conversation's id: it re-sends the
message with its ``client_message_id`` alone, and gets the stored turn back, once, on REST,
Server-Sent Events and the socket. The same id with another message, or into another
conversation, is refused (409, or an error frame) and stores nothing.
"""

from __future__ import annotations

import json
import threading
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.db import connections
from django.test import AsyncClient

from config.asgi import application
from conversations.models import Conversation, Message
from conversations.store import services
from conversations.tenancy.services import token_issue
from tests.conftest import World
from tests.live import Server

URL = "/api/v1/chat/"


def rows(world: World) -> tuple[int, int]:
    """(conversations, messages) of tenant A."""
    return (
        Conversation.objects.for_tenant(world.tenant_a).count(),
        Message.objects.for_tenant(world.tenant_a).count(),
    )


@pytest.mark.django_db
def test_a_first_message_resent_without_a_conversation_answers_the_stored_turn(
    world: World,
) -> None:
    client = world.client(world.owner)
    body = {"message": "list my agents", "client_message_id": "first-1"}
    first = client.post(URL, body, format="json").json()
    again = client.post(URL, body, format="json")
    assert again.status_code == 200
    assert again.json()["conversation_id"] == first["conversation_id"]
    assert again.json()["user_message"]["id"] == first["user_message"]["id"]
    assert again.json()["assistant_message"]["id"] == first["assistant_message"]["id"]
    assert rows(world) == (1, 2)
    # Re-sent with the conversation id it now knows: the same turn again.
    with_id = client.post(
        URL, {**body, "conversation_id": first["conversation_id"]}, format="json"
    ).json()
    assert with_id["assistant_message"]["id"] == first["assistant_message"]["id"]
    assert rows(world) == (1, 2)


@pytest.mark.django_db
def test_a_client_message_id_sent_with_another_message_is_a_409_and_stores_nothing(
    world: World,
) -> None:
    client = world.client(world.owner)
    first = client.post(
        URL, {"message": "list my agents", "client_message_id": "k-1"}, format="json"
    ).json()
    for body in (
        {"message": "what can you do?", "client_message_id": "k-1"},
        {
            "message": "what can you do?",
            "client_message_id": "k-1",
            "conversation_id": first["conversation_id"],
        },
    ):
        response = client.post(URL, body, format="json")
        assert response.status_code == 409, response.content
        assert "client_message_id" in response.json()["detail"]
    assert rows(world) == (1, 2)


@pytest.mark.django_db
def test_a_client_message_id_resent_into_another_conversation_is_a_409(world: World) -> None:
    client = world.client(world.owner)
    client.post(URL, {"message": "list my agents", "client_message_id": "k-2"}, format="json")
    other = services.conversation_create(tenant=world.tenant_a, user=world.owner)
    response = client.post(
        URL,
        {"message": "list my agents", "client_message_id": "k-2", "conversation_id": other.id},
        format="json",
    )
    assert response.status_code == 409
    assert other.messages.count() == 0


@pytest.mark.django_db
def test_another_user_may_use_the_same_client_message_id(world: World) -> None:
    body = {"message": "list my agents", "client_message_id": "shared-1"}
    mine = world.client(world.owner).post(URL, body, format="json").json()
    theirs = world.client(world.member).post(URL, body, format="json")
    assert theirs.status_code == 200
    assert theirs.json()["conversation_id"] != mine["conversation_id"]


@pytest.mark.django_db(transaction=True)
async def test_a_first_message_resent_over_server_sent_events_replays_the_stored_turn(
    world: World,
) -> None:
    token = await sync_to_async(token_issue)(user=world.owner)
    headers = {"Authorization": f"Token {token}", "Accept": "text/event-stream"}
    body = {"message": "list my agents", "client_message_id": "sse-1"}

    async def stream() -> dict[str, Any]:
        response = await AsyncClient().post(
            URL, body, content_type="application/json", headers=headers
        )
        assert response.status_code == 200
        raw = b"".join([part async for part in response.streaming_content]).decode()
        last = raw.strip().split("\n\n")[-1]
        assert last.startswith("event: done"), raw
        return dict(json.loads(last.split("\n")[1][6:]))

    first, again = await stream(), await stream()
    counted = await sync_to_async(rows)(world)
    await sync_to_async(connections.close_all)()
    assert again == first
    assert counted == (1, 2)


@pytest.mark.django_db(transaction=True)
async def test_a_first_message_resent_on_a_new_socket_replays_the_stored_turn(
    world: World,
) -> None:
    token = await sync_to_async(token_issue)(user=world.owner)
    headers = [(b"authorization", f"Token {token}".encode())]
    frame = {"type": "message", "content": "list my agents", "client_message_id": "ws-1"}

    async def send_on_a_new_socket(payload: dict[str, Any]) -> list[dict[str, Any]]:
        socket = WebsocketCommunicator(application, "/ws/chat/", headers=headers)
        connected, _ = await socket.connect()
        assert connected
        assert (await socket.receive_json_from(timeout=5))["type"] == "ready"
        await socket.send_json_to(payload)
        frames = []
        while not frames or frames[-1]["type"] not in ("done", "error"):
            got = await socket.receive_json_from(timeout=10)
            if got["type"] != "conversation":
                frames.append(got)
        await socket.disconnect()
        return frames

    first = await send_on_a_new_socket(frame)
    again = await send_on_a_new_socket(frame)
    assert again[0]["type"] == "ack" and again[0]["message_id"] == first[0]["message_id"]
    assert again[-1]["message_id"] == first[-1]["message_id"]
    assert await sync_to_async(rows)(world) == (1, 2)
    refused = await send_on_a_new_socket({**frame, "content": "what can you do?"})
    assert refused == [
        {
            "type": "error",
            "code": "client_message_id_reused",
            "detail": "This client_message_id was already used for another message.",
            "client_message_id": "ws-1",
        }
    ]
    counted = await sync_to_async(rows)(world)
    await sync_to_async(connections.close_all)()
    assert counted == (1, 2)


def _at_once(server: Server, token: str, body: dict[str, Any]) -> list[tuple[int, bytes]]:
    """The same request from four threads released together: (status, body) of each."""
    answers: list[tuple[int, bytes]] = []
    start = threading.Barrier(4)

    def send() -> None:
        start.wait()
        status, _, raw = server.request("POST", URL, token=token, body=body)
        answers.append((status, raw))

    threads = [threading.Thread(target=send) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return answers


@pytest.mark.django_db(transaction=True)
def test_twin_first_messages_sent_at_once_store_one_turn(
    world: World, servers: list[Server]
) -> None:
    token = token_issue(user=world.owner)
    connections.close_all()
    server = Server()
    servers.append(server)
    for attempt in range(5):
        answers = _at_once(
            server, token, {"message": "list my agents", "client_message_id": f"twin-{attempt}"}
        )
        assert [status for status, _ in answers] == [200] * 4, answers
        turns = {json.loads(raw)["assistant_message"]["id"] for _, raw in answers}
        assert len(turns) == 1, "twins answered with different turns"
    assert rows(world) == (5, 10)
