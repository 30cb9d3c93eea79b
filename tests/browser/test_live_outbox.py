"""The page's outbox across a reload and a new sign-in, against the real consumer: a message typed
while the server is down is kept in the browser, per user and conversation, and sent once (with
its client_message_id) when the server is back; another user signing in never gets it."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from django.db import connections
from playwright.sync_api import BrowserContext, Error, Page, expect

from conversations.models import Message
from tests.browser.live_page import PASSWORD, ChatPage, demo_agents, messages
from tests.conftest import World
from tests.live import Server

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

RECONNECT_MS = 30_000
PREFIX = "omniforge.outbox."


@pytest.fixture
def restartable(olivia: World) -> Iterator[Server]:
    """A Daphne of this test's own, to stop and start again on the same port."""
    connections.close_all()
    server = Server(env={"DEBUG": "true"})
    yield server
    server.stop()


def outboxes(page: Page) -> dict[str, Any]:
    """Every outbox the browser keeps for this site: {key: [{clientMessageId, content}]}."""
    return dict(
        page.evaluate(
            """prefix => Object.fromEntries(Object.keys(localStorage)
                .filter(key => key.startsWith(prefix))
                .map(key => [key, JSON.parse(localStorage.getItem(key))]))""",
            PREFIX,
        )
    )


def write_while_down(chat: ChatPage, server: Server, text: str) -> None:
    server.stop()
    expect(chat.banner).to_be_visible()
    chat.send(text)
    waiting = chat.page.locator("#transcript .msg-user.is-pending")
    expect(waiting).to_have_count(1)
    expect(waiting.locator(".msg-meta")).to_contain_text("Not sent yet")


def stored_with(world: World, client_message_id: str) -> list[Message]:
    return list(
        Message.objects.for_tenant(world.tenant_a).filter(client_message_id=client_message_id)
    )


def sign_in_here(page: Page, username: str, password: str) -> None:
    """On the sign-in page the chat page was sent to."""
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Sign in").click()


def test_a_message_typed_while_the_server_is_down_survives_a_reload_and_is_sent_once(
    context: BrowserContext,
    restartable: Server,
    olivia: World,
    shot: Callable[[Page, str], Path],
) -> None:
    demo_agents(olivia)
    chat = ChatPage.open(context, restartable)
    chat.ask("list my agents")
    conversation_id = chat.conversation_id

    write_while_down(chat, restartable, "what can you do?")
    expect(chat.banner).to_contain_text("Your message will be sent then.", timeout=RECONNECT_MS)
    shot(chat.page, "chat-message-not-sent-yet")
    kept = outboxes(chat.page)
    key = f"{PREFIX}{olivia.owner.pk}.{conversation_id}"
    assert list(kept) == [key]
    [entry] = kept[key]
    assert entry["content"] == "what can you do?"
    client_message_id = entry["clientMessageId"]
    with pytest.raises(Error):
        chat.page.reload()  # the server is down: the browser's error page

    restartable.start()
    chat.page.goto(f"{restartable.url}/c/{conversation_id}/")
    expect(chat.page.locator("#chat")).to_have_attribute("data-connection", "ready")
    expect(chat.finished_answers).to_have_count(2, timeout=RECONNECT_MS)
    expect(chat.finished_answers.last).to_contain_text("Here's what I can do")
    expect(chat.mine).to_have_count(2)
    expect(chat.page.locator(".msg-user.is-pending")).to_have_count(0)
    expect(chat.mine.last).to_contain_text("what can you do?")

    sent = [f for f in chat.sent if f.get("client_message_id") == client_message_id]
    assert [f["type"] for f in sent] == ["message"]
    stored = stored_with(olivia, client_message_id)
    assert [(m.role, m.content, m.conversation_id) for m in stored] == [
        ("user", "what can you do?", conversation_id)
    ]
    assert [m.role for m in messages(olivia, conversation_id)] == ["user", "assistant"] * 2
    assert outboxes(chat.page) == {}
    assert not chat.errors


def test_another_user_signing_in_on_the_browser_never_gets_the_outbox(
    context: BrowserContext, restartable: Server, olivia: World
) -> None:
    chat = ChatPage.open(context, restartable)  # a blank chat
    write_while_down(chat, restartable, "what can you do?")
    [(key, [entry])] = outboxes(chat.page).items()

    # The session ends meanwhile: back up, the page is sent to the sign-in page, and the
    # next person at this browser signs in.
    context.clear_cookies()
    restartable.start()
    expect(chat.page).to_have_url(
        f"{restartable.url}/accounts/login/?next=%2F", timeout=RECONNECT_MS
    )
    sent_before = len(chat.sent)
    sign_in_here(chat.page, "mark", "pw-mark-1")
    expect(chat.page).to_have_url(f"{restartable.url}/")
    chat.expect_connected()
    expect(chat.page.locator("#welcome")).to_be_visible()
    expect(chat.mine).to_have_count(0)
    expect(chat.ask("what can you do?")).to_contain_text("Here's what I can do")
    marks = [f for f in chat.sent[sent_before:] if f["type"] == "message"]
    assert len(marks) == 1 and marks[0]["client_message_id"] != entry["clientMessageId"]
    assert not stored_with(olivia, entry["clientMessageId"])
    assert outboxes(chat.page) == {key: [entry]}  # still olivia's, untouched
    assert key == f"{PREFIX}{olivia.owner.pk}.new"  # hers, for a blank chat

    # Mark signs out; olivia signs in again and her message goes, once.
    chat.page.get_by_role("button", name="Sign out").click()
    expect(chat.page).to_have_url(f"{restartable.url}/accounts/login/")
    chat.page.goto(f"{restartable.url}/accounts/login/?next=/")
    sign_in_here(chat.page, "olivia", PASSWORD)
    expect(chat.finished_answers).to_have_count(1, timeout=RECONNECT_MS)
    expect(chat.finished_answers.last).to_contain_text("Here's what I can do")
    expect(chat.mine).to_have_count(1)
    chat.page.wait_for_url(lambda url: "/c/" in url)
    stored = stored_with(olivia, entry["clientMessageId"])
    assert [(m.role, m.content, m.author_id) for m in stored] == [
        ("user", "what can you do?", olivia.owner.pk)
    ]
    resent = [f for f in chat.sent if f.get("client_message_id") == entry["clientMessageId"]]
    assert len(resent) == 1
    assert outboxes(chat.page) == {}
    assert not chat.errors
