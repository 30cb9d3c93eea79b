"""Turns that take their time, against the real consumer: the thinking indicator, the answer
streaming in on this device and on another, and Stop.

The LLM tier of this module's server is a scripted OpenAI-compatible server that answers each
classification after a delay, so a turn stays in "thinking" long enough to be seen and stopped.
"""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.db import connections
from playwright.sync_api import BrowserContext, expect

from tests.browser.conftest import PHONE
from tests.browser.live_page import ChatPage, demo_agents, messages, runs
from tests.conftest import World
from tests.intents.llm_server import Reply, ScriptedLLMServer, intent_json, running_server
from tests.live import Server

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

THINKING_S = 2.0  # a turn nobody holds: the tests that look at "thinking" hold the model instead


@pytest.fixture(scope="module")
def llm() -> Iterator[ScriptedLLMServer]:
    with running_server(default=Reply.slow(THINKING_S)) as server:
        yield server


@pytest.fixture(scope="module")
def slow_daphne(
    llm: ScriptedLLMServer, django_db_setup: None, django_db_blocker: Any
) -> Iterator[Server]:
    """A Daphne whose classifications wait THINKING_S on the scripted LLM server."""
    with django_db_blocker.unblock():
        connections.close_all()
        server = Server(
            env={
                "DEBUG": "true",
                "OMNIFORGE_INTENT_API_BASE": llm.base_url,
                "OPENAI_API_KEY": "sk-test-not-a-real-key",
                "OMNIFORGE_INTENT_MODEL": "openai/test-model",
                "OMNIFORGE_INTENT_TIMEOUT_S": "10",
            }
        )
    yield server
    server.stop()


@pytest.fixture
def scripted(llm: ScriptedLLMServer) -> Iterator[ScriptedLLMServer]:
    """The LLM server with an empty script and no requests recorded, for one test."""
    llm.script()
    with llm._lock:
        llm.requests.clear()
    yield llm
    llm.script()


def test_a_message_streams_in_behind_the_thinking_indicator_and_is_stored(
    context: BrowserContext, slow_daphne: Server, olivia: World, scripted: ScriptedLLMServer
) -> None:
    demo_agents(olivia)
    chat = ChatPage.open(context, slow_daphne)
    model_answers = threading.Event()  # the model answers when the test has seen it thinking
    scripted.script(Reply(content=json.dumps(intent_json("query_info")), hold=model_answers))
    chat.send("list my agents")

    answer = chat.answers.last
    expect(chat.mine.last.locator(".msg-body")).to_have_text("list my agents")
    expect(answer.locator(".thinking")).to_be_visible()
    expect(answer).to_have_attribute("aria-busy", "true")
    expect(chat.page.get_by_role("button", name="Stop the answer")).to_be_visible()
    assert chat.finished_answers.count() == 0  # still thinking: the model has not answered

    model_answers.set()
    expect(answer.locator("ol > li")).to_have_count(3, timeout=10_000)
    expect(answer).not_to_have_attribute("aria-busy", "true")
    expect(answer.locator(".thinking")).to_have_count(0)
    expect(chat.page.get_by_role("button", name="Send message")).to_be_visible()
    assert scripted.call_count == 1

    # Over the socket: the turn's frames in the contract's order, the reply in pieces.
    turn = chat.types()[1:]  # after `ready`
    assert turn[:3] == ["ack", "thinking", "intent"]
    assert turn[-1] == "done"
    assert set(turn[3:-1]) == {"chunk"} and len(turn[3:-1]) >= 2
    done = chat.last("done")
    chunks = "".join(f["content"] for f in chat.frames if f["type"] == "chunk")
    assert chunks == done["content"]
    assert done["interrupted"] is False

    user, reply = messages(olivia, chat.conversation_id)
    assert (user.role, user.content) == ("user", "list my agents")
    assert user.client_message_id == chat.last("ack")["client_message_id"]
    assert (reply.id, reply.role, reply.content) == (done["message_id"], "assistant", chunks)
    assert reply.metadata["intent"]["method"] == "llm"
    assert not chat.errors


def test_a_turn_sent_on_one_device_streams_on_the_other(
    new_context: Callable[..., BrowserContext],
    slow_daphne: Server,
    olivia: World,
    scripted: ScriptedLLMServer,
) -> None:
    demo_agents(olivia)
    laptop = ChatPage.open(new_context(), slow_daphne)
    model_answers = threading.Event()  # the second turn's model answers once the phone saw it
    held = Reply(content=json.dumps(intent_json("query_info")), hold=model_answers)
    scripted.script(Reply.intent("query_info"), held)  # the first turn quickly
    laptop.ask("what can you do?")
    conversation_id = laptop.conversation_id
    phone_context = new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    phone = ChatPage.open(phone_context, slow_daphne, f"/c/{conversation_id}/")
    expect(phone.finished_answers).to_have_count(1)
    ready = len(phone.frames)

    laptop.send("list my agents")
    # The phone sees the message, then the answer thinking, then streaming in, then done.
    expect(phone.mine.last.locator(".msg-body")).to_have_text("list my agents")
    expect(phone.answers.last.locator(".thinking")).to_be_visible()
    expect(phone.page.get_by_role("button", name="Stop the answer")).to_be_visible()
    model_answers.set()
    expect(phone.finished_answers).to_have_count(2, timeout=10_000)
    expect(phone.finished_answers.last.locator("ol > li")).to_have_count(3)
    expect(phone.page.get_by_role("button", name="Send message")).to_be_visible()

    turn = phone.types(ready)
    assert turn[:3] == ["ack", "thinking", "intent"] and turn[-1] == "done"
    assert "chunk" in turn
    shown = phone.finished_answers.last.locator(".msg-body").text_content()
    expect(laptop.finished_answers.last.locator(".msg-body")).to_have_text(shown or "")
    expect(phone.mine).to_have_count(2)  # shown once, not once per frame
    assert len(messages(olivia, conversation_id)) == 4
    assert not laptop.errors and not phone.errors


def test_stop_while_thinking_stores_the_reply_marked_interrupted_and_does_nothing(
    context: BrowserContext, slow_daphne: Server, olivia: World, scripted: ScriptedLLMServer
) -> None:
    demo_agents(olivia)
    chat = ChatPage.open(context, slow_daphne)
    run = json.dumps(intent_json("execute_task", 0.95))
    model_answers = threading.Event()  # never before the stop: the model is still thinking
    scripted.script(Reply(content=run, hold=model_answers))
    chat.send("run jira-overdue-monitor")
    answer = chat.answers.last
    expect(answer.locator(".thinking")).to_be_visible()

    chat.page.get_by_role("button", name="Stop the answer").click()
    # "Stopping…" shows only until the server answers, which a cancelled classification lets it
    # do at once (the mocked test_stop_while_thinking_says_so_until_the_stored_reply_comes holds
    # the server back to see it).
    expect(answer.locator(".tag-stopped")).to_have_text("Stopped", timeout=10_000)
    model_answers.set()  # the cancelled call's answer, which nobody waits for any more
    expect(answer).to_have_class(re.compile(r"\bis-interrupted\b"))
    expect(chat.page.get_by_role("button", name="Send message")).to_be_visible()
    assert chat.sent[-1] == {"type": "stop"}

    done = chat.last("done")
    assert done["interrupted"] is True
    user, reply = messages(olivia, chat.conversation_id)
    assert user.content == "run jira-overdue-monitor"
    assert reply.metadata["interrupted"] is True
    assert reply.content == done["content"] == ""
    # Stopped while it was classified: the model call was cancelled, nothing was decided.
    assert reply.metadata["routing"] == "stopped_before_answer"
    assert runs(olivia) == []

    # The conversation goes on.
    scripted.script(Reply.intent("query_info"))
    expect(chat.ask("list my agents").locator("ol > li")).to_have_count(3)
    assert not chat.errors
