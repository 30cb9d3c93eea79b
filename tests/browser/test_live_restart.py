"""The chat page across a server restart, against the real consumer: the offline banner while
the server is down, the reconnect on the same port, and a message typed meanwhile sent once."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from django.db import connections
from playwright.sync_api import BrowserContext, expect

from tests.browser.live_page import ChatPage, demo_agents, messages
from tests.conftest import World
from tests.live import Server

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# The page retries with a backoff of up to 15 s; it is back well within that once the server is.
RECONNECT_MS = 30_000


@pytest.fixture
def restartable(olivia: World) -> Iterator[Server]:
    """A Daphne of this test's own, to stop and start again on the same port."""
    connections.close_all()
    server = Server(env={"DEBUG": "true"})
    yield server
    server.stop()


def test_a_restart_shows_the_banner_and_a_message_typed_meanwhile_is_sent_once(
    context: BrowserContext, restartable: Server, olivia: World
) -> None:
    demo_agents(olivia)
    chat = ChatPage.open(context, restartable)
    chat.ask("list my agents")
    conversation_id = chat.conversation_id

    restartable.stop()
    expect(chat.banner).to_be_visible()
    expect(chat.banner).to_contain_text(re.compile("Connection lost|Reconnecting"))
    expect(chat.page.locator("#chat")).not_to_have_attribute("data-connection", "ready")

    # Typed while the server is down: shown as on its way, and the banner says it will go.
    chat.send("what can you do?")
    waiting = chat.mine.last
    expect(waiting).to_have_class(re.compile(r"\bis-pending\b"))
    expect(waiting.locator(".msg-meta")).to_contain_text("Not sent yet")
    expect(chat.banner).to_contain_text("Your message will be sent then.", timeout=RECONNECT_MS)
    assert len(messages(olivia, conversation_id)) == 2

    restartable.start()
    expect(chat.banner).to_be_hidden(timeout=RECONNECT_MS)
    expect(chat.page).to_have_url(f"{restartable.url}/c/{conversation_id}/")
    # A fresh process: its first turn also loads the classifier (seconds on a busy machine).
    expect(chat.finished_answers).to_have_count(2, timeout=RECONNECT_MS)
    expect(chat.finished_answers.last).to_contain_text("Here's what I can do")
    expect(waiting).not_to_have_class(re.compile(r"\bis-pending\b"))
    expect(chat.mine).to_have_count(2)

    # The next message is answered as usual.
    expect(chat.ask("list my agents").locator("li[data-choice]")).to_have_count(3)

    stored = messages(olivia, conversation_id)
    assert [(m.role, m.content.split("\n")[0]) for m in stored] == [
        ("user", "list my agents"),
        ("assistant", "Here are your agents:"),
        ("user", "what can you do?"),
        ("assistant", "Here's what I can do:"),
        ("user", "list my agents"),
        ("assistant", "Here are your agents:"),
    ]
    # Sent once: stored once, under the id the page gave it before the restart.
    acks = [
        f
        for f in chat.frames
        if f["type"] == "ack" and f["message"]["content"] == stored[2].content
    ]
    assert [f["client_message_id"] for f in acks] == [stored[2].client_message_id]
    assert not chat.errors


def test_a_skill_started_before_a_restart_is_finished_after_it(
    context: BrowserContext, restartable: Server, olivia: World
) -> None:
    from skill_sessions.models import Skill, SkillCreationSession

    chat = ChatPage.open(context, restartable)
    started = chat.ask("Create a skill that turns messy dates into ISO 8601")
    expect(started).to_contain_text("What does the skill take as input")
    chat.ask("free text like 3rd of March")

    restartable.stop()
    expect(chat.banner).to_be_visible()
    restartable.start()
    expect(chat.banner).to_be_hidden(timeout=RECONNECT_MS)

    # A new server process: the session is read back from storage and goes on where it was.
    confirm = chat.ask("input: 3rd of March 2024 -> output: 2024-03-03")
    expect(confirm).to_contain_text("Shall I create it?")
    expect(chat.ask("yes")).to_contain_text("Done! I've created the skill dates-converter")
    session = SkillCreationSession.objects.for_tenant(olivia.tenant_a).get()
    assert (session.status, session.version) == ("completed", 4)
    assert Skill.objects.for_tenant(olivia.tenant_a).get().name == "dates-converter"
    expect(chat.ask("what skills do I have?")).to_contain_text("dates-converter - turns")
    assert not chat.errors
