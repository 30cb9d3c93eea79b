"""The chat page's answers: numbered choices, where you left off, Stop, a failed turn, details.

The socket is played by the test (``FakeChatServer``); a live Daphne serves the page.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.browser.fake_socket import (
    FakeChatServer,
    intent,
    message,
    wait_for,
)
from tests.browser.helpers import composer, conversation, open_chat
from tests.conftest import World
from tests.live import Server

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


# --- answering with a number ------------------------------------------------------------------


def test_the_numbered_items_of_the_latest_offer_answer_with_their_number(
    page: Page, fake: FakeChatServer, daphne: Server, olivia: World
) -> None:
    chat = conversation(olivia, "Churn analysis")
    offered = [{"n": n, "action_type": "execute_task", "label": "…"} for n in (1, 2, 3)]
    history = [
        message("user", "what can you do?", conversation_id=chat.id),
        message(
            "assistant",
            "Here's what I can do:\n1. Create an agent\n2. Run one of your agents",
            conversation_id=chat.id,
            intent=intent(),
        ),
        message("user", "I need to analyze our customer churn data", conversation_id=chat.id),
        message(
            "assistant",
            "I found your financial-analyzer agent, but I'm not sure it does this. "
            "Would you like me to:\n1. Run financial-analyzer anyway\n"
            "2. Create a new agent specifically for this\n3. Show all your agents\n"
            "Reply with a number, or tell me more.",
            conversation_id=chat.id,
            intent=intent("execute_task", 0.91),
            options=offered,
        ),
    ]
    fake.on_connect = lambda conn: conn.ready(history)
    open_chat(page, daphne, f"/c/{chat.id}/")
    conn = fake.connection()

    # A list that offers nothing (help, a wizard's questions) is text.
    help_items = page.locator(".msg-assistant").first.locator("ol > li")
    expect(help_items).to_have_count(2)
    expect(
        page.locator(".msg-assistant").first.locator("[data-choice], [role=button]")
    ).to_have_count(0)
    offer = page.locator(".msg-assistant").nth(1)
    items = offer.locator("li[data-choice]")
    expect(items).to_have_count(3)
    # A line after the list is a paragraph of its own, not part of the last item.
    expect(items.nth(2)).to_have_text("Show all your agents")
    expect(offer.locator(".msg-body > p").last).to_have_text(
        "Reply with a number, or tell me more."
    )
    expect(items.nth(0)).to_have_attribute("role", "button")
    expect(items.nth(0)).to_have_attribute("tabindex", "0")
    items.nth(1).click()
    sent = fake.next_message(conn)
    assert sent["content"] == "2"

    conn.ack(sent, chat.id, "U2")
    conn.answer(
        chat.id,
        "Which one?\n1. Yes\n2. No",
        message_id="A2",
        metadata={"options": offered[:2]},
    )
    expect(page.locator(".msg-assistant")).to_have_count(3)
    # The server remembers only what it offered last: the older offer is text again.
    expect(items).to_have_count(0)
    expect(offer.locator("ol > li").first).not_to_have_attribute("role", "button")
    latest = page.locator(".msg-assistant").last.locator("li[data-choice]")
    expect(latest).to_have_count(2)

    latest.nth(1).focus()
    page.keyboard.press("Enter")
    assert fake.next_message(conn, 1)["content"] == "2"


def test_where_you_left_off_shows_the_open_wizard_and_its_options(
    page: Page, fake: FakeChatServer, daphne: Server, olivia: World
) -> None:
    chat = conversation(olivia, "Jira monitor")
    state = {
        "wizard": {
            "kind": "create_agent",
            "title": "Setting up a new agent",
            "gathered": [
                {"field": "source", "label": "Source", "value": "Jira"},
                {"field": "task", "label": "Watches", "value": "overdue tickets"},
            ],
            "question": "How often should it run: hourly, every morning at a set time, or weekly?",
        },
        "options": [{"n": 1, "label": "Hourly"}, {"n": 2, "label": "Every morning at 9:00"}],
    }
    history = [
        message("user", "Create an agent that monitors Jira", conversation_id=chat.id),
        message("assistant", "I'll help you create an agent for that.", conversation_id=chat.id),
    ]
    fake.on_connect = lambda conn: conn.ready(history, state)
    open_chat(page, daphne, f"/c/{chat.id}/")
    conn = fake.connection()

    card = page.get_by_role("region", name="Setting up a new agent")
    expect(card).to_contain_text("Where you left off")
    expect(card.locator("dt")).to_have_text(["Source", "Watches"])
    expect(card.locator("dd")).to_have_text(["Jira", "overdue tickets"])
    expect(card).to_contain_text("How often should it run")
    card.get_by_role("button", name=re.compile("Every morning")).click()
    assert fake.next_message(conn)["content"] == "2"
    expect(card).to_be_hidden()


# --- stop, details ----------------------------------------------------------------------------


def test_stop_sends_stop_and_the_answer_is_marked_stopped(
    page: Page, fake: FakeChatServer, daphne: Server, olivia: World
) -> None:
    open_chat(page, daphne)
    conn = fake.connection()
    composer(page).fill("Write the quarterly report")
    composer(page).press("Enter")
    sent = fake.next_message(conn)
    conn.ack(sent, "01STOPPED")
    conn.send({"type": "thinking"})
    conn.send({"type": "chunk", "content": "The first part of the report"})
    answer = page.locator(".msg-assistant")
    expect(answer.locator(".msg-body")).to_have_text("The first part of the report")

    page.get_by_role("button", name="Stop the answer").click()
    wait_for(page, lambda: {"type": "stop"} in conn.received, "the stop frame")
    conn.done("01STOPPED", "The first part of the report", interrupted=True)

    expect(answer.locator(".tag-stopped")).to_have_text("Stopped")
    expect(answer).to_have_class(re.compile(r"\bis-interrupted\b"))
    expect(page.get_by_role("button", name="Stop the answer")).to_be_hidden()


def test_stop_while_thinking_says_so_until_the_stored_reply_comes(
    page: Page, fake: FakeChatServer, daphne: Server, olivia: World
) -> None:
    open_chat(page, daphne)
    conn = fake.connection()
    composer(page).fill("Write the quarterly report")
    composer(page).press("Enter")
    conn.ack(fake.next_message(conn), "01STOPPED")
    conn.send({"type": "thinking"})
    answer = page.locator(".msg-assistant")
    expect(answer.locator(".thinking")).to_contain_text("Thinking")

    page.get_by_role("button", name="Stop the answer").click()
    expect(answer.locator(".thinking")).to_contain_text("Stopping")
    wait_for(page, lambda: {"type": "stop"} in conn.received, "the stop frame")
    conn.send({"type": "intent", "intent": intent()})
    conn.done("01STOPPED", "", interrupted=True)  # nothing was sent before the stop
    expect(answer.locator(".tag-stopped")).to_have_text("Stopped")
    expect(answer.locator(".thinking")).to_have_count(0)
    expect(page.get_by_role("button", name="Send message")).to_be_visible()


def test_a_turn_that_fails_midway_is_marked_and_the_composer_comes_back(
    page: Page, fake: FakeChatServer, daphne: Server, olivia: World
) -> None:
    open_chat(page, daphne)
    conn = fake.connection()
    composer(page).fill("Write the quarterly report")
    composer(page).press("Enter")
    conn.ack(fake.next_message(conn), "01FAILED")
    conn.send({"type": "thinking"})
    conn.send({"type": "chunk", "content": "The first part"})
    answer = page.locator(".msg-assistant")
    expect(answer.locator(".msg-body")).to_have_text("The first part")

    conn.send({"type": "error", "code": "server_error", "detail": "Something went wrong."})
    expect(answer.locator(".tag-stopped")).to_have_text("Failed")
    expect(answer).not_to_have_attribute("aria-busy", "true")
    expect(page.locator("#toast")).to_contain_text("Something went wrong.")
    expect(page.locator(".msg-user")).not_to_have_class(re.compile(r"\bis-failed\b"))
    expect(page.get_by_role("button", name="Send message")).to_be_visible()
    composer(page).fill("try again")
    composer(page).press("Enter")
    assert fake.next_message(conn, 1)["content"] == "try again"


def test_the_details_switch_shows_the_badge_and_is_remembered(
    page: Page, fake: FakeChatServer, daphne: Server, olivia: World
) -> None:
    chat = conversation(olivia, "Details")
    history = [
        message("user", "@jira-overdue-monitor run now", conversation_id=chat.id),
        message(
            "assistant",
            "Running jira-overdue-monitor now.",
            conversation_id=chat.id,
            intent=intent("execute_task", 0.9, "fast_path"),
        ),
    ]
    fake.on_connect = lambda conn: conn.ready(history)
    open_chat(page, daphne, f"/c/{chat.id}/")

    badge = page.locator(".msg-assistant .badge")
    switch = page.get_by_role("button", name="Show details")
    expect(badge).to_be_hidden()
    expect(switch).to_have_attribute("aria-pressed", "false")
    switch.click()
    expect(switch).to_have_attribute("aria-pressed", "true")
    expect(badge).to_be_visible()
    expect(badge.locator(".badge-intent")).to_have_text("execute_task")
    expect(badge.locator(".badge-confidence")).to_have_text("0.90")
    expect(badge.locator(".badge-method")).to_have_text("Fast path")

    page.reload()
    expect(page.get_by_role("button", name="Show details")).to_have_attribute(
        "aria-pressed", "true"
    )
    expect(page.locator(".msg-assistant .badge")).to_be_visible()
