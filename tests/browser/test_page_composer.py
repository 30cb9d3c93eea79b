"""The chat page's transcript and composer: opening, Markdown, sending, streaming, safety.

The socket is played by the test (``FakeChatServer``); a live Daphne serves the page.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from conversations.models import Conversation
from tests.browser.fake_socket import (
    FakeChatServer,
    intent,
    message,
)
from tests.browser.helpers import UUID, composer, conversation, open_chat
from tests.conftest import World
from tests.live import Server

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


# --- opening ----------------------------------------------------------------------------------


def test_a_blank_chat_is_ready_to_type_in_and_creates_nothing(
    page: Page, fake: FakeChatServer, daphne: Server, olivia: World
) -> None:
    open_chat(page, daphne)

    assert fake.connection().conversation_id is None
    expect(composer(page)).to_be_focused()
    expect(composer(page)).to_have_attribute("data-max-chars", "16000")
    expect(page.get_by_role("heading", name="What should we take off your plate?")).to_be_visible()
    account = page.get_by_role("complementary", name="Conversations").locator(".account")
    expect(account).to_contain_text("olivia")
    expect(account).to_contain_text("Acme")
    assert not Conversation.objects.for_tenant(olivia.tenant_a).exists()


def test_it_renders_the_history_from_ready_as_markdown(
    page: Page, fake: FakeChatServer, daphne: Server, olivia: World
) -> None:
    chat = conversation(olivia, "Agents overview")
    history = [
        message("user", "list my agents", conversation_id=chat.id),
        message(
            "assistant",
            "Here are your **agents**:\n1. financial-analyzer\n2. jira-overdue-monitor\n\n"
            "Write `@jira-overdue-monitor` to run one.",
            conversation_id=chat.id,
            intent=intent(),
        ),
    ]
    fake.on_connect = lambda conn: conn.ready(history)
    open_chat(page, daphne, f"/c/{chat.id}/")

    assert fake.connection().conversation_id == chat.id
    log = page.get_by_role("log")
    expect(log).to_have_attribute("aria-live", "polite")
    expect(log.locator(".msg")).to_have_count(2)
    expect(log.locator(".msg-user .msg-body")).to_have_text("list my agents")
    answer = log.locator(".msg-assistant")
    expect(answer.locator("strong")).to_have_text("agents")
    expect(answer.locator("ol > li")).to_have_text(["financial-analyzer", "jira-overdue-monitor"])
    expect(answer.locator("code")).to_have_text("@jira-overdue-monitor")
    expect(page.locator(".conv-link[aria-current=page]")).to_have_text("Agents overview")
    expect(page.get_by_role("heading", level=1)).to_have_text("Agents overview")
    expect(page).to_have_title("Agents overview · OmniForge")


# --- the composer -----------------------------------------------------------------------------


def test_enter_sends_and_the_answer_streams_in_until_done(
    page: Page, fake: FakeChatServer, daphne: Server, olivia: World
) -> None:
    open_chat(page, daphne)
    conn = fake.connection()
    box = composer(page)

    box.fill("list my agents")
    box.press("Enter")
    sent = fake.next_message(conn)
    assert sent["content"] == "list my agents"
    assert UUID.match(sent["client_message_id"])
    expect(box).to_have_value("")
    expect(page.locator(".msg-user .msg-body")).to_have_text("list my agents")

    # The first message created the conversation: the URL follows, the socket stays.
    conn.ack(sent, "01NEWCONVERSATION")
    expect(page).to_have_url(f"{daphne.url}/c/01NEWCONVERSATION/")
    expect(page.locator(".conv-link[aria-current=page]")).to_have_text("list my agents")

    conn.send({"type": "thinking"})
    answer = page.locator(".msg-assistant")
    expect(answer).to_have_attribute("aria-busy", "true")
    expect(answer.locator(".thinking")).to_be_visible()
    stop = page.get_by_role("button", name="Stop the answer")
    expect(stop).to_be_visible()

    conn.send({"type": "intent", "intent": intent()})
    conn.send({"type": "chunk", "content": "Here are"})
    conn.send({"type": "chunk", "content": " your agents"})
    expect(answer.locator(".msg-body")).to_have_text("Here are your agents")
    expect(answer).to_have_attribute("aria-busy", "true")

    # `done` is authoritative: its content replaces what streamed.
    conn.done("01NEWCONVERSATION", "Here are your agents:\n1. notion-reporter")
    expect(answer.locator(".msg-body ol > li")).to_have_text(["notion-reporter"])
    expect(answer).not_to_have_attribute("aria-busy", "true")
    expect(stop).to_be_hidden()
    expect(page.get_by_role("button", name="Send message")).to_be_visible()
    assert len(fake.connections) == 1
    assert not conn.closed_by_page


def test_shift_enter_adds_a_line_and_neither_composition_nor_blank_text_sends(
    page: Page, fake: FakeChatServer, daphne: Server, olivia: World
) -> None:
    open_chat(page, daphne)
    conn = fake.connection()
    box = composer(page)

    box.press("Enter")
    box.fill("   ")
    box.press("Enter")
    box.fill("first line")
    box.press("Shift+Enter")
    box.press_sequentially("second line")
    expect(box).to_have_value("first line\nsecond line")
    height_two_lines = box.bounding_box()["height"]  # type: ignore[index]
    box.press("Shift+Enter")
    box.press_sequentially("third")
    assert box.bounding_box()["height"] > height_two_lines  # type: ignore[index]

    # An input method's Enter picks a candidate; it never sends.
    box.dispatch_event("keydown", {"key": "Enter", "isComposing": True})
    box.evaluate(
        """el => el.dispatchEvent(new KeyboardEvent("keydown",
             {key: "Enter", keyCode: 229, bubbles: true, cancelable: true}))"""
    )
    cdp = page.context.new_cdp_session(page)
    cdp.send(
        "Input.imeSetComposition", {"text": "にほんご", "selectionStart": 4, "selectionEnd": 4}
    )
    page.keyboard.press("Enter")
    cdp.send("Input.insertText", {"text": "にほんご"})
    expect(box).to_have_value(re.compile(r"^first line\nsecond line\nthird.*にほんご\s*$", re.S))
    value = box.input_value()

    box.press("Enter")
    sent = fake.next_message(conn)
    assert sent["content"] == value.strip()
    assert len(conn.messages) == 1  # nothing before it


# --- safety -----------------------------------------------------------------------------------


def test_markup_in_messages_renders_no_element_and_runs_nothing(
    page: Page, fake: FakeChatServer, daphne: Server, olivia: World
) -> None:
    dialogs: list[str] = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    payload = (
        "Look: <img src=x onerror=alert(1)> and <script>window.__ran = true; alert(2)</script> "
        "**bold** [bad](javascript:alert(3)) [docs](https://example.com/docs)"
    )
    chat = conversation(olivia, "Mischief")
    history = [
        message("user", payload, conversation_id=chat.id),
        message("assistant", payload, conversation_id=chat.id),
    ]
    fake.on_connect = lambda conn: conn.ready(history)
    open_chat(page, daphne, f"/c/{chat.id}/")
    conn = fake.connection()

    # And streamed: chunk by chunk, then done.
    box = composer(page)
    box.fill(payload)
    box.press("Enter")
    sent = fake.next_message(conn)
    conn.ack(sent, chat.id, "U9")
    conn.answer(chat.id, payload, chunks=[payload[:20], payload[20:45], payload[45:]])

    bodies = page.locator("#transcript .msg-body")
    expect(bodies).to_have_count(4)
    expect(page.locator(".msg-assistant").last).not_to_have_attribute("aria-busy", "true")
    for index in range(4):
        expect(bodies.nth(index).locator("strong")).to_have_text("bold")
        expect(bodies.nth(index)).to_contain_text("<img src=x onerror=alert(1)>")
    expect(page.locator("#transcript .msg-body img")).to_have_count(0)
    expect(page.locator("#transcript script")).to_have_count(0)
    expect(page.locator("#transcript [onerror]")).to_have_count(0)
    expect(page.locator('#transcript a[href^="javascript"]')).to_have_count(0)
    link = bodies.first.get_by_role("link", name="docs")
    expect(link).to_have_attribute("rel", "noopener noreferrer")
    expect(link).to_have_attribute("target", "_blank")
    assert page.evaluate("window.__ran") is None
    assert dialogs == []
