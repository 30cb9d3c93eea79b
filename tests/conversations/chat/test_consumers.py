"""``/ws/chat/`` through Channels' WebsocketCommunicator and the project's ASGI application.

The protocol in order, bad frames, who may connect (4401, 4404, the Origin rule), another
tenant, stop, a re-sent ``client_message_id``, a disconnect mid-turn, every socket on a
conversation in step, every socket of a user told about its conversations, frame size and rate.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
import uuid
from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from autobahn.exception import Disconnected
from channels.layers import channel_layers
from channels.testing import WebsocketCommunicator
from django.db import connections
from django.test import Client

from config.asgi import application
from conversations.models import Agent, Conversation, Message
from conversations.store import services
from conversations.tenancy.services import token_issue
from tests.conftest import World
from tests.intents.llm_server import Reply, ScriptedLLMServer

pytestmark = pytest.mark.django_db(transaction=True)
ORIGIN = (b"origin", b"http://testserver")


@pytest.fixture(autouse=True)
def _a_channel_layer_per_test() -> Iterator[None]:
    # Every test runs on an event loop of its own; a Redis layer keeps receive state bound to
    # the loop it first ran on, and would wait forever on a lock held by a closed loop.
    channel_layers.backends.clear()
    yield
    channel_layers.backends.clear()


@pytest.fixture(autouse=True)
async def _every_socket_disconnected(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[None]:
    # Daphne tells a consumer its socket is gone, even after the consumer closed it; a
    # communicator does not. A consumer left running holds a Redis receive that cannot be
    # cancelled once the loop is closing, and the test run would hang there.
    opened: list[WebsocketCommunicator] = []
    connect = WebsocketCommunicator.connect

    async def connect_and_remember(self: WebsocketCommunicator, timeout: float = 1) -> Any:  # noqa: ASYNC109 - the signature it stands in for
        opened.append(self)
        return await connect(self, timeout)

    monkeypatch.setattr(WebsocketCommunicator, "connect", connect_and_remember)
    yield
    for socket in opened:
        # The application may already have finished, or failed as its test expected.
        with contextlib.suppress(Exception):
            await socket.disconnect(timeout=5)


@pytest.fixture(autouse=True)
async def _close_connections() -> AsyncIterator[None]:
    yield
    # The ORM ran on asgiref's shared sync thread: close its connections with the test.
    await sync_to_async(connections.close_all)()


async def token_headers(user: Any) -> list[tuple[bytes, bytes]]:
    key = await sync_to_async(token_issue)(user=user)
    return [(b"authorization", f"Token {key}".encode())]


async def session_headers(user: Any, origin: bytes | None = b"http://testserver") -> list[Any]:
    def login() -> str:
        client = Client()
        client.force_login(user)
        return str(client.cookies["sessionid"].value)

    cookie = await sync_to_async(login)()
    headers = [(b"cookie", f"sessionid={cookie}".encode())]
    if origin is not None:
        headers.append((b"origin", origin))
    return headers


class Socket:
    """A connected client: frames in, frames out."""

    def __init__(self, headers: list[Any], conversation_id: str | None = None) -> None:
        path = "/ws/chat/" + (f"?conversation_id={conversation_id}" if conversation_id else "")
        self.io = WebsocketCommunicator(application, path, headers=headers)
        self.sidebar: list[dict[str, Any]] = []  # conversation frames, set aside by frame()

    async def open(self) -> dict[str, Any]:
        connected, _ = await self.io.connect()
        assert connected
        return await self.frame()

    async def frame(self) -> dict[str, Any]:
        """The next frame of a turn (or ready, or an error)."""
        while True:
            frame = dict(await self.io.receive_json_from(timeout=5))
            if frame["type"] != "conversation":
                return frame
            self.sidebar.append(frame)

    async def conversation_frame(self) -> dict[str, Any]:
        """The next ``conversation`` frame (the sidebar's)."""
        while not self.sidebar:
            frame = dict(await self.io.receive_json_from(timeout=5))
            if frame["type"] == "conversation":
                return frame
        return self.sidebar.pop(0)

    async def say(self, content: str, **extra: Any) -> list[dict[str, Any]]:
        await self.io.send_json_to({"type": "message", "content": content, **extra})
        return await self.until_done()

    async def until_done(self) -> list[dict[str, Any]]:
        frames = [await self.frame()]
        while frames[-1]["type"] not in ("done", "error"):
            frames.append(await self.frame())
        return frames

    async def closed_with(self) -> int:
        output = await self.io.receive_output(timeout=5)
        assert output["type"] == "websocket.close", output
        return int(output.get("code", 1000))


async def stored(conversation_id: str) -> list[Message]:
    def read() -> list[Message]:
        # cross-tenant: the test reads back what the consumer stored.
        conversation = Conversation.objects.cross_tenant().get(id=conversation_id)
        return list(conversation.messages.order_by("seq"))

    return await sync_to_async(read)()


async def settle(conversation_id: str, count: int) -> list[Message]:
    """The conversation once ``count`` messages are stored (a turn may end after its socket)."""
    for _ in range(100):
        rows = await stored(conversation_id)
        if len(rows) >= count:
            return rows
        await asyncio.sleep(0.05)
    raise AssertionError(f"only {len(rows)} of {count} messages were stored")


# --- The protocol ------------------------------------------------------------------------------


async def test_a_turn_is_ready_ack_thinking_intent_chunks_done_in_that_order(world: World) -> None:
    socket = Socket(await token_headers(world.owner))
    ready = await socket.open()
    assert ready == {"type": "ready", "conversation_id": None, "history": [], "state": None}

    frames = await socket.say("what can you do?", client_message_id="tab-1-m1")

    kinds = [f["type"] for f in frames]
    assert kinds[:3] == ["ack", "thinking", "intent"] and kinds[-1] == "done"
    assert set(kinds[3:-1]) == {"chunk"}
    ack, done = frames[0], frames[-1]
    assert (
        ack["client_message_id"] == "tab-1-m1" and ack["message"]["content"] == "what can you do?"
    )
    assert done["content"] == "".join(f["content"] for f in frames if f["type"] == "chunk")
    assert done["interrupted"] is False and done["conversation_id"] == ack["conversation_id"]
    rows = await stored(ack["conversation_id"])
    assert [(m.id, m.role) for m in rows] == [
        (ack["message_id"], "user"),
        (done["message_id"], "assistant"),
    ]
    assert rows[1].content == done["content"]
    await socket.io.disconnect()


async def test_ready_carries_the_history_and_where_the_user_left_off(world: World) -> None:
    headers = await token_headers(world.owner)
    first = Socket(headers)
    await first.open()
    turn = await first.say("Create an agent that monitors our Jira board for overdue tickets")
    conversation_id = turn[0]["conversation_id"]
    await first.io.disconnect()

    again = Socket(headers, conversation_id)
    ready = await again.open()

    assert ready["conversation_id"] == conversation_id
    assert [m["role"] for m in ready["history"]] == ["user", "assistant"]
    wizard = ready["state"]["wizard"]
    assert {"field": "source", "label": "Source", "value": "Jira"} in wizard["gathered"]
    assert "How often should it run" in wizard["question"]
    await again.io.disconnect()


@pytest.mark.parametrize(
    ("raw", "code"),
    [
        ("{nope", "invalid_json"),
        ("[1, 2]", "invalid_frame"),
        ('{"content": "no type"}', "invalid_frame"),
        ('{"type": "dance"}', "unknown_type"),
        ('{"type": "message", "content": ""}', "invalid_message"),
        ('{"type": "message", "content": "   "}', "invalid_message"),
        ('{"type": "message"}', "invalid_message"),
        ('{"type": "message", "content": 42}', "invalid_message"),
        ('{"type": "message", "content": "hi\\u0000there"}', "invalid_message"),
        ('{"type": "message", "content": "hi\\ud800"}', "invalid_message"),
        ('{"type": "message", "content": "' + "x" * 16001 + '"}', "invalid_message"),
        ('{"type": "message", "content": "hi", "client_message_id": ""}', "invalid_message"),
    ],
)
async def test_a_bad_frame_gets_an_error_frame_stores_nothing_and_the_socket_stays_open(
    world: World, raw: str, code: str
) -> None:
    socket = Socket(await token_headers(world.owner))
    await socket.open()
    await socket.io.send_to(text_data=raw)
    error = await socket.frame()
    assert error["type"] == "error" and error["code"] == code and error["detail"]
    assert not await sync_to_async(Message.objects.for_tenant(world.tenant_a).exists)()

    frames = await socket.say("list my agents")  # still open, still answering
    assert frames[-1]["type"] == "done"
    await socket.io.disconnect()


# --- Who may connect ---------------------------------------------------------------------------


@pytest.mark.parametrize("headers", [[], [(b"authorization", b"Token not-a-real-key")], [ORIGIN]])
async def test_an_unauthenticated_socket_is_closed_with_4401(headers: list[Any]) -> None:
    socket = Socket(headers)
    connected, _ = await socket.io.connect()
    assert connected
    assert await socket.closed_with() == 4401


@pytest.mark.parametrize("who", ["member", "outsider"])
async def test_someone_elses_conversation_is_closed_with_4404(world: World, who: str) -> None:
    conversation = await sync_to_async(services.conversation_create)(
        tenant=world.tenant_a, user=world.owner
    )
    socket = Socket(await token_headers(getattr(world, who)), conversation.id)
    await socket.io.connect()
    assert await socket.closed_with() == 4404


@pytest.mark.parametrize("conversation_id", ["01NOSUCHCONVERSATION00000", "../etc", "x" * 40])
async def test_an_unknown_conversation_is_closed_with_4404(
    world: World, conversation_id: str
) -> None:
    socket = Socket(await token_headers(world.owner), conversation_id)
    await socket.io.connect()
    assert await socket.closed_with() == 4404


@pytest.mark.parametrize("path", ["/ws/nope/", "/ws/chat", "/", "/ws/chat/extra/"])
async def test_a_socket_on_any_other_path_is_closed_with_4404(path: str) -> None:
    socket = WebsocketCommunicator(application, path, headers=[ORIGIN])
    connected, _ = await socket.connect()
    assert connected
    output = await socket.receive_output(timeout=5)
    assert (output["type"], output["code"]) == ("websocket.close", 4404)


async def test_a_session_needs_an_allowed_origin_and_a_token_does_not(world: World) -> None:
    for origin in (None, b"https://evil.example", b"null"):
        refused = Socket(await session_headers(world.owner, origin))
        connected, _ = await refused.io.connect()
        assert not connected, origin  # the handshake itself is refused

    browser = Socket(await session_headers(world.owner))
    assert (await browser.open())["type"] == "ready"
    program = Socket(await token_headers(world.owner))
    assert (await program.open())["type"] == "ready"
    await browser.io.disconnect()
    await program.io.disconnect()


async def test_another_tenants_socket_hears_nothing_of_this_one(world: World) -> None:
    mine = Socket(await token_headers(world.owner))
    theirs = Socket(await token_headers(world.outsider))
    await mine.open()
    await theirs.open()
    await mine.say("list my agents")
    assert await theirs.io.receive_nothing(timeout=0.5)
    await mine.io.disconnect()
    await theirs.io.disconnect()


async def test_a_frame_for_a_socket_its_client_is_closing_is_dropped_without_an_error(
    world: World,
) -> None:
    # Daphne raises Disconnected on a send to a socket whose close handshake has begun, before
    # the consumer hears of the disconnect; the frame is for no one, and the consumer goes on.
    closing = False

    async def daphne(scope: dict[str, Any], receive: Any, send: Any) -> None:
        async def send_unless_closing(message: dict[str, Any]) -> None:
            if closing and message["type"] == "websocket.send":
                raise Disconnected("Attempt to send on a closed protocol")
            await send(message)

        await application(scope, receive, send_unless_closing)

    headers = await token_headers(world.owner)
    leaving = WebsocketCommunicator(daphne, "/ws/chat/", headers=headers)
    connected, _ = await leaving.connect()
    assert connected
    assert (await leaving.receive_json_from(timeout=5))["type"] == "ready"
    closing = True
    other = Socket(headers)
    await other.open()
    # The other tab's new conversation is news for every socket of this user.
    assert (await other.say("hello"))[-1]["type"] == "done"
    await asyncio.sleep(0.5)
    assert not leaving.future.done()  # the consumer is still there, not ended by an error
    await leaving.disconnect()  # re-raises anything the application raised
    await other.io.disconnect()


# --- Stop, re-send, disconnect -----------------------------------------------------------------


async def test_stop_ends_the_turn_stores_what_was_sent_and_changes_nothing(
    world: World, llm_server: ScriptedLLMServer
) -> None:
    llm_server.script(Reply.slow(4.0, action_type="create_agent"))
    socket = Socket(await token_headers(world.owner))
    await socket.open()
    await socket.io.send_json_to(
        {"type": "message", "content": "Create an agent that posts a daily Jira digest to #ops"}
    )
    ack = await socket.frame()
    assert (await socket.frame())["type"] == "thinking"
    await socket.io.send_json_to({"type": "stop"})
    stopped_at = time.monotonic()

    frames = await socket.until_done()

    # The model call is cancelled: the turn does not wait for the 4 s classification.
    assert time.monotonic() - stopped_at < 2
    done = frames[-1]
    assert done["type"] == "done" and done["interrupted"] is True
    assert [f["type"] for f in frames] == ["done"]
    sent = "".join(f["content"] for f in frames if f["type"] == "chunk")
    assert done["content"] == sent
    rows = await settle(ack["conversation_id"], 2)
    assert rows[1].metadata["interrupted"] is True and rows[1].content == sent
    assert not await sync_to_async(Agent.objects.for_tenant(world.tenant_a).exists)()
    await socket.io.disconnect()


async def test_a_resent_client_message_id_is_answered_from_storage_not_stored_twice(
    world: World,
) -> None:
    socket = Socket(await token_headers(world.owner))
    await socket.open()
    first = await socket.say("list my agents", client_message_id="tab-1-m9")
    again = await socket.say("list my agents", client_message_id="tab-1-m9")

    assert again[0]["message_id"] == first[0]["message_id"]
    assert again[-1]["message_id"] == first[-1]["message_id"]
    assert again[-1]["content"] == first[-1]["content"]
    assert len(await stored(first[0]["conversation_id"])) == 2
    await socket.io.disconnect()


async def test_a_disconnect_mid_turn_loses_nothing_and_ready_shows_the_whole_turn(
    world: World, llm_server: ScriptedLLMServer
) -> None:
    llm_server.script(Reply.slow(0.8))
    headers = await token_headers(world.owner)
    socket = Socket(headers)
    await socket.open()
    await socket.io.send_json_to({"type": "message", "content": "what can you do?"})
    ack = await socket.frame()
    await socket.io.disconnect()  # gone while the turn waits for its classification

    rows = await settle(ack["conversation_id"], 2)
    assert rows[1].role == "assistant" and "interrupted" not in rows[1].metadata
    back = Socket(headers, ack["conversation_id"])
    ready = await back.open()
    assert [m["id"] for m in ready["history"]] == [rows[0].id, rows[1].id]
    assert ready["history"][1]["content"].startswith("Here's what I can do")
    await back.io.disconnect()


# --- Every socket in step ----------------------------------------------------------------------


async def test_every_socket_on_a_conversation_receives_the_same_turn_in_order(
    world: World,
) -> None:
    headers = await token_headers(world.owner)
    tab_a = Socket(headers)
    await tab_a.open()
    first = await tab_a.say("list my agents")
    conversation_id = first[0]["conversation_id"]
    tab_b = Socket(headers, conversation_id)
    phone = Socket(await session_headers(world.owner), conversation_id)
    await tab_b.open()
    await phone.open()

    sent = await tab_a.say("what can you do?", client_message_id="a-2")
    for other in (tab_b, phone):
        seen = await other.until_done()
        assert seen == sent
    assert seen[0]["message"]["content"] == "what can you do?"
    for socket in (tab_a, tab_b, phone):
        await socket.io.disconnect()


async def test_every_socket_of_a_user_hears_of_created_renamed_and_deleted_conversations(
    world: World,
) -> None:
    sidebar = Socket(await token_headers(world.owner))
    await sidebar.open()
    api = await sync_to_async(world.client)(world.owner)

    created = await sync_to_async(api.post)("/api/v1/conversations/", {}, format="json")
    conversation_id = created.json()["id"]
    frame = await sidebar.conversation_frame()
    assert (frame["type"], frame["event"]) == ("conversation", "created")
    assert frame["conversation"]["id"] == conversation_id

    await sync_to_async(api.patch)(
        f"/api/v1/conversations/{conversation_id}/", {"title": "Q3 plans"}, format="json"
    )
    frame = await sidebar.conversation_frame()
    assert frame["event"] == "updated" and frame["conversation"]["title"] == "Q3 plans"

    await sync_to_async(api.delete)(f"/api/v1/conversations/{conversation_id}/")
    frame = await sidebar.conversation_frame()
    assert frame["event"] == "deleted" and frame["conversation"]["id"] == conversation_id
    await sidebar.io.disconnect()


async def test_a_conversation_started_on_one_socket_appears_on_the_others(world: World) -> None:
    headers = await token_headers(world.owner)
    sidebar, chat = Socket(headers), Socket(headers)
    await sidebar.open()
    await chat.open()
    frames = await chat.say("Hello there, list my agents please")
    conversation_id = frames[0]["conversation_id"]

    events = [await sidebar.conversation_frame(), await sidebar.conversation_frame()]
    assert [(e["event"], e["conversation"]["id"]) for e in events] == [
        ("created", conversation_id),
        ("updated", conversation_id),
    ]
    assert events[1]["conversation"]["title"] == "Hello there, list my agents please"
    for socket in (sidebar, chat):
        await socket.io.disconnect()


# --- Bounds ------------------------------------------------------------------------------------


async def test_a_frame_over_64_kib_closes_the_socket_with_4009(world: World) -> None:
    socket = Socket(await token_headers(world.owner))
    await socket.open()
    await socket.io.send_to(text_data=json.dumps({"type": "message", "content": "x" * 70_000}))
    assert await socket.closed_with() == 4009
    assert not await sync_to_async(Message.objects.for_tenant(world.tenant_a).exists)()


async def test_a_client_sending_too_fast_is_told_then_closed_with_4429(
    world: World, settings: Any
) -> None:
    settings.OMNIFORGE_WS_BURST = 2
    settings.OMNIFORGE_WS_RATE_PER_S = 0.01
    settings.OMNIFORGE_WS_STRIKES = 2
    socket = Socket(await token_headers(world.owner))
    await socket.open()
    for _ in range(2):  # the burst: two bad frames, answered as bad frames
        await socket.io.send_to(text_data="{nope")
        assert (await socket.frame())["code"] == "invalid_json"
    for _ in range(2):
        await socket.io.send_to(text_data="{nope")
        assert (await socket.frame())["code"] == "rate_limited"
    await socket.io.send_to(text_data="{nope")
    assert await socket.closed_with() == 4429


@pytest.mark.parametrize("scope", ["user", "tenant"])
async def test_messages_are_limited_per_account_and_tenant_over_every_socket(
    world: World, settings: Any, monkeypatch: pytest.MonkeyPatch, scope: str
) -> None:
    from conversations.chat import consumers

    window = uuid.uuid4().int  # a minute of this test's own (counters are shared)
    monkeypatch.setattr(consumers, "_minute", lambda: window)
    settings.OMNIFORGE_WS_USER_PER_MIN = 3 if scope == "user" else 100
    settings.OMNIFORGE_WS_TENANT_PER_MIN = 3 if scope == "tenant" else 100
    second_user = world.owner if scope == "user" else world.member
    laptop = Socket(await token_headers(world.owner))
    phone = Socket(await token_headers(second_user))
    await laptop.open()
    await phone.open()
    await laptop.say("what can you do?")
    await phone.say("what can you do?")
    conversation_id = (await laptop.say("list my agents"))[0]["conversation_id"]
    refused = await phone.say("list my agents", client_message_id="phone-4")
    assert [f["type"] for f in refused] == ["error"]
    assert (refused[0]["code"], refused[0]["client_message_id"]) == ("rate_limited", "phone-4")
    # Told, not closed: the socket still works for stop frames and reads.
    await phone.io.send_json_to({"type": "stop"})
    assert len(await stored(conversation_id)) == 4
