"""The chat page's connection: reconnecting, refused messages, close codes, other tabs.

The socket is played by the test (``FakeChatServer``); a live Daphne serves the page.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from tests.browser.fake_socket import (
    FakeChatServer,
    message,
    wait_for,
)
from tests.browser.helpers import composer, conversation, open_chat
from tests.conftest import World
from tests.live import Server

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


# --- reconnecting -----------------------------------------------------------------------------


def test_it_reconnects_and_resends_unacknowledged_messages_once(
    page: Page, fake: FakeChatServer, daphne: Server, olivia: World
) -> None:
    # Only the first socket gets its `ready` at once; the test answers the later ones.
    fake.on_connect = lambda conn: conn.ready() if len(fake.connections) == 1 else None
    open_chat(page, daphne)
    first = fake.connection(1)
    box = composer(page)
    box.fill("Create an agent that monitors our Jira board")
    box.press("Enter")
    sent = fake.next_message(first)

    first.close(1012, "server restart")  # before the ack: the message was never stored
    banner = page.locator("#banner")
    expect(banner).to_be_visible()
    expect(banner).to_contain_text("Reconnecting")
    second = fake.connection(2)
    assert second.conversation_id is None
    expect(banner).to_be_visible()  # until the server says ready
    assert second.messages == []

    second.ready()
    resent = fake.next_message(second)
    assert resent == sent  # the same client_message_id, the same text
    expect(banner).to_be_hidden()
    expect(page.locator(".msg-user")).to_have_count(1)
    user_1 = second.ack(resent, "01RECONNECT", "U1")
    second.answer("01RECONNECT", "Which schedule?", message_id="A1")
    expect(page.locator(".msg-assistant .msg-body")).to_have_text("Which schedule?")

    # Stored, but the ack was lost with the socket: the history has it, the re-send is answered
    # with the stored turn, and it is shown once.
    box.fill("weekly please")
    box.press("Enter")
    sent_2 = fake.next_message(second, 1)
    second.close(1012, "server restart")
    third = fake.connection(3)
    assert third.conversation_id == "01RECONNECT"
    user_2 = message("user", "weekly please", conversation_id="01RECONNECT", id="U2")
    assistant_1 = message("assistant", "Which schedule?", conversation_id="01RECONNECT", id="A1")
    third.ready([user_1, assistant_1, user_2])
    resent_2 = fake.next_message(third)
    assert resent_2["client_message_id"] == sent_2["client_message_id"]
    third.ack(resent_2, "01RECONNECT", "U2")
    third.answer("01RECONNECT", "Weekly it is.", message_id="A2")

    expect(page.locator(".msg-assistant")).to_have_count(2)
    expect(page.locator(".msg-user .msg-body")).to_have_text(
        ["Create an agent that monitors our Jira board", "weekly please"]
    )
    expect(banner).to_be_hidden()


def test_a_refused_message_is_marked_and_retried_with_its_client_message_id(
    page: Page, fake: FakeChatServer, daphne: Server, olivia: World
) -> None:
    open_chat(page, daphne)
    conn = fake.connection()
    composer(page).fill("one more thing")
    composer(page).press("Enter")
    sent = fake.next_message(conn)
    conn.send({"type": "error", "code": "rate_limited", "detail": "Slow down."})

    mine = page.locator(".msg-user")
    expect(mine).to_have_class(re.compile(r"\bis-failed\b"))
    expect(mine.locator(".msg-meta")).to_contain_text("Not sent")
    expect(page.locator("#toast")).to_contain_text("too quickly")
    expect(page.get_by_role("button", name="Send message")).to_be_visible()

    mine.get_by_role("button", name="Retry").click()
    assert fake.next_message(conn, 1) == sent
    expect(mine).not_to_have_class(re.compile(r"\bis-failed\b"))
    # A refusal that names its message (the server read it) is about that one.
    conn.send({"type": "error", "code": "unavailable", "detail": "Storage is unavailable.",
               "client_message_id": sent["client_message_id"]})  # fmt: skip
    expect(mine).to_have_class(re.compile(r"\bis-failed\b"))
    expect(page.locator("#toast")).to_contain_text("Storage is unavailable.")

    mine.get_by_role("button", name="Retry").click()
    assert fake.next_message(conn, 2) == sent
    conn.ack(sent, "01RETRIED")
    expect(mine).not_to_have_class(re.compile(r"\bis-failed\b"))
    expect(mine.locator(".msg-meta")).to_be_hidden()


def test_close_4404_opens_a_blank_chat(
    page: Page, fake: FakeChatServer, daphne: Server, olivia: World
) -> None:
    chat = conversation(olivia, "Gone soon")
    fake.on_connect = lambda conn: (
        conn.close(4404, "not yours") if conn.conversation_id else conn.ready()
    )
    open_chat(page, daphne, f"/c/{chat.id}/")

    expect(page).to_have_url(f"{daphne.url}/")
    expect(page.locator("#toast")).to_contain_text("not available")
    assert fake.connection(2).conversation_id is None
    expect(page.get_by_role("heading", name="What should we take off your plate?")).to_be_visible()
    expect(page.get_by_role("heading", level=1)).to_have_text("New chat")


def test_close_4401_leads_to_the_sign_in_page_with_next(
    page: Page, context: BrowserContext, fake: FakeChatServer, daphne: Server, olivia: World
) -> None:
    open_chat(page, daphne)
    first = fake.connection()
    context.clear_cookies()  # the session ended elsewhere
    fake.on_connect = lambda conn: conn.close(4401, "not authenticated")
    first.close(1012)

    expect(page).to_have_url(f"{daphne.url}/accounts/login/?next=%2F")
    expect(page.get_by_role("heading", name="Sign in")).to_be_visible()


def test_a_turn_sent_from_another_tab_shows_up(
    page: Page, fake: FakeChatServer, daphne: Server, olivia: World
) -> None:
    chat = conversation(olivia, "Shared")
    open_chat(page, daphne, f"/c/{chat.id}/")
    conn = fake.connection()
    conn.ack({"content": "sent from my phone", "client_message_id": "other-tab"}, chat.id, "U5")
    conn.answer(
        chat.id, "Answered everywhere.", chunks=["Answered ", "everywhere."], message_id="A5"
    )

    expect(page.locator(".msg-user .msg-body")).to_have_text("sent from my phone")
    expect(page.locator(".msg-assistant .msg-body")).to_have_text("Answered everywhere.")


# --- the outbox kept in the browser ------------------------------------------------------------


def test_a_reload_keeps_an_unacknowledged_message_and_its_replayed_turn_shows_once(
    page: Page, fake: FakeChatServer, daphne: Server, olivia: World
) -> None:
    chat = conversation(olivia, "Weekly report")
    key = f"omniforge.outbox.{olivia.owner.pk}.{chat.id}"
    fake.on_connect = None  # the server is slow to say ready: the test answers each socket
    open_chat(page, daphne, f"/c/{chat.id}/")
    fake.connection(1).ready()
    box = composer(page)
    box.fill("weekly please")
    box.press("Enter")
    sent = fake.next_message(fake.connection(1))
    stored = page.evaluate("key => JSON.parse(localStorage.getItem(key))", key)
    assert stored == [{"clientMessageId": sent["client_message_id"], "content": "weekly please"}]

    # The server stored it, but the page went away before the ack (a reload).
    page.reload()
    second = fake.connection(2)
    mine = page.locator(".msg-user")
    expect(mine).to_have_count(1)
    expect(mine).to_have_class("msg msg-user is-pending")
    expect(mine.locator(".msg-meta")).to_have_text("Not sent yet · sends when connected")
    assert second.messages == []

    user = message("user", "weekly please", conversation_id=chat.id, id="U2")
    reply = message("assistant", "Weekly it is.", conversation_id=chat.id, id="A2")
    second.ready([user, reply])
    resent = fake.next_message(second)
    assert resent == sent  # once, with the id it was written with
    expect(page.locator(".msg-user.is-pending .msg-meta")).to_have_text("Sending…")
    # The server answers the re-send from the stored turn: its ack, then the turn again.
    second.ack(resent, chat.id, "U2")
    second.answer(chat.id, "Weekly it is.", message_id="A2")

    expect(page.locator(".msg-assistant .msg-body")).to_have_text(["Weekly it is."])
    expect(page.locator(".msg-user .msg-body")).to_have_text(["weekly please"])
    expect(page.locator(".msg.is-pending")).to_have_count(0)
    assert page.evaluate("key => localStorage.getItem(key)", key) is None
    assert len(second.messages) == 1


def test_the_messages_kept_for_a_deleted_conversation_are_forgotten(
    page: Page, fake: FakeChatServer, daphne: Server, olivia: World
) -> None:
    gone = conversation(olivia, "Deleted elsewhere")
    key = f"omniforge.outbox.{olivia.owner.pk}.{gone.id}"
    open_chat(page, daphne)
    kept = [{"clientMessageId": "kept-1", "content": "typed before it was deleted"}]
    page.evaluate("([key, kept]) => localStorage.setItem(key, JSON.stringify(kept))", [key, kept])

    fake.connection().send(
        {"type": "conversation", "event": "deleted", "conversation": {"id": gone.id}}
    )

    wait_for(
        page, lambda: page.evaluate("key => localStorage.getItem(key) === null", key), "forgotten"
    )
