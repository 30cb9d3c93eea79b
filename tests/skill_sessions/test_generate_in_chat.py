"""A skill's definition written by the LLM from the chat: the slow model call is awaited on the
event loop, outside the worker thread every socket of the process shares for its database work."""

from __future__ import annotations

import asyncio
import json
import statistics
import threading
import time
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.db import connections

from config.asgi import application
from conversations.tenancy.services import token_issue
from skill_sessions.models import Skill
from tests.conftest import World
from tests.conversations.chat.test_chat_api import Chat
from tests.intents.llm_server import RecordedRequest, Reply, ScriptedLLMServer

SLOW_S = 2.0
DEFINITION = json.dumps({
    "instructions": "Read the date in any common format and return it as YYYY-MM-DD.",
    "inputs": [{"name": "text", "description": "a date as people write it"}],
    "outputs": [{"name": "iso_date", "description": "the date in ISO 8601"}],
})  # fmt: skip


def is_definition(request: RecordedRequest) -> bool:
    return "definition of a reusable skill" in request.prompt_text


WRITING = threading.Event()  # the model has been asked for the definition


def answer(request: RecordedRequest) -> Reply:
    if is_definition(request):
        WRITING.set()
        return Reply(content=DEFINITION, delay_s=SLOW_S)
    if "messy dates" in request.prompt_text:  # conversation A, the skill's
        return Reply.intent("create_skill", confidence=0.95)
    return Reply.intent("query_info", confidence=0.95)


async def open_socket(key: str, conversation_id: str | None = None) -> WebsocketCommunicator:
    path = "/ws/chat/" + (f"?conversation_id={conversation_id}" if conversation_id else "")
    socket = WebsocketCommunicator(
        application, path,
        headers=[(b"authorization", f"Token {key}".encode()), (b"origin", b"http://testserver")],
    )  # fmt: skip
    connected, _ = await socket.connect(timeout=5)
    assert connected
    assert (await socket.receive_json_from(timeout=5))["type"] == "ready"
    return socket


async def turn(socket: WebsocketCommunicator, content: str) -> dict[str, Any]:
    await socket.send_json_to({"type": "message", "content": content})
    while (frame := await socket.receive_json_from(timeout=10))["type"] != "done":
        assert frame["type"] != "error", frame
    return frame


@pytest.mark.django_db(transaction=True)
async def test_a_slow_definition_delays_no_other_conversation(
    world: World, llm_server: ScriptedLLMServer, settings: Any
) -> None:
    settings.OMNIFORGE_INTENT_TIMEOUT_S = SLOW_S + 3
    llm_server.default = answer
    WRITING.clear()

    def setup() -> tuple[str, str]:
        chat = Chat(world, world.owner)
        for message in (
            "Create a skill that turns messy dates into ISO 8601",
            "free text like 3rd of March",
            "input: 3rd of March 2024 -> output: 2024-03-03",
        ):
            chat.reply(message)
        return str(chat.conversation_id), token_issue(user=world.owner)

    skill_conversation, key = await sync_to_async(setup)()
    skill = await open_socket(key, skill_conversation)
    other = await open_socket(key)

    async def other_turn_ms() -> float:
        started = time.perf_counter()
        await turn(other, "what can you do?")
        return (time.perf_counter() - started) * 1000

    before = statistics.median([await other_turn_ms() for _ in range(3)])
    await skill.send_json_to({"type": "message", "content": "yes"})
    assert await asyncio.to_thread(WRITING.wait, 10)  # the model is writing the definition now
    during = [await other_turn_ms() for _ in range(3)]
    assert max(during) < before + 100, (before, during)

    while (frame := await skill.receive_json_from(timeout=SLOW_S + 5))["type"] != "done":
        pass
    assert frame["content"].startswith("Done! I've created the skill")
    assert sum(is_definition(request) for request in llm_server.chat_requests) == 1

    def created() -> Skill:
        return Skill.objects.for_tenant(world.tenant_a).get()

    definition = (await sync_to_async(created)()).definition
    assert definition["generated_by"] == "llm"
    assert definition["instructions"].startswith("Read the date in any common format")
    await skill.disconnect()
    await other.disconnect()
    await sync_to_async(connections.close_all)()
