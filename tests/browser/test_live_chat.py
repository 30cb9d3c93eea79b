"""The chat page against the real consumer (no socket played by the test): signing in and out,
numbered options, the history after a reload, a new chat, and the sidebar on two devices."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from playwright.sync_api import BrowserContext, expect

from tests.browser.live_page import (
    ChatPage,
    conversation,
    conversations,
    demo_agents,
    messages,
    runs,
)
from tests.conftest import World
from tests.live import Server

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

CHURN = (
    "I need to analyze our customer churn data and put together a presentation for the board "
    "meeting next week"
)


def test_signing_in_through_the_form_opens_the_chat_and_signing_out_ends_it(
    context: BrowserContext, daphne: Server, olivia: World
) -> None:
    chat = ChatPage(context.new_page())
    page = chat.page
    page.goto(f"{daphne.url}/")
    expect(page).to_have_url(f"{daphne.url}/accounts/login/?next=/")
    page.get_by_label("Username").fill("olivia")
    page.get_by_label("Password").fill("pw-olivia-1")
    page.get_by_role("button", name="Sign in").click()

    expect(page).to_have_url(f"{daphne.url}/")
    chat.expect_connected()  # the socket took the session cookie
    assert chat.frames[0] == {"type": "ready", "conversation_id": None, "history": [],
                              "state": None}  # fmt: skip
    expect(page.get_by_role("heading", name="What should we take off your plate?")).to_be_visible()
    expect(page.locator(".account-name")).to_have_text("olivia")
    answer = chat.ask("what can you do?")
    expect(answer).to_contain_text("Here's what I can do")

    page.get_by_role("button", name="Sign out").click()
    expect(page).to_have_url(f"{daphne.url}/accounts/login/")
    expect(page.get_by_role("heading", name="Sign in")).to_be_visible()
    (only,) = conversations(olivia)
    page.goto(f"{daphne.url}/c/{only.id}/")
    expect(page).to_have_url(re.compile(r"/accounts/login/\?next="))
    assert not chat.errors


def test_a_listed_agent_is_picked_by_its_number_and_run(
    context: BrowserContext, daphne: Server, olivia: World
) -> None:
    agents = demo_agents(olivia)
    chat = ChatPage.open(context, daphne)

    listing = chat.ask("list my agents")
    items = listing.locator("li[data-choice]")
    expect(items).to_have_count(3)
    expect(items.nth(1)).to_contain_text("jira-overdue-monitor")
    expect(items.nth(1)).to_have_attribute("role", "button")

    items.nth(1).click()  # answers "2"
    expect(chat.mine.last.locator(".msg-body")).to_have_text("2")
    expect(chat.finished_answers).to_have_count(2)
    # A bare number after a list is not a request yet: the assistant offers what "2" could mean,
    # and the list above is text again (only the latest offer is answered with a number).
    offer = chat.finished_answers.last
    expect(offer).to_contain_text("Run jira-overdue-monitor now")
    expect(items).to_have_count(0)
    assert runs(olivia) == []

    run_it = offer.locator("li[data-choice]").filter(has_text="Run jira-overdue-monitor now")
    number = run_it.get_attribute("data-choice")
    run_it.click()
    expect(chat.finished_answers).to_have_count(3)
    expect(chat.finished_answers.last).to_contain_text("jira-overdue-monitor can't run yet")

    (run,) = runs(olivia)
    assert run.agent_id == agents["jira-overdue-monitor"].id
    assert run.conversation_id == chat.conversation_id
    assert run.requested_by_id == olivia.owner.pk
    user_messages = [m.content for m in messages(olivia, chat.conversation_id) if m.role == "user"]
    assert user_messages == ["list my agents", "2", number]
    assert not chat.errors


def test_an_option_opens_the_wizard_and_a_reload_brings_the_history_back(
    context: BrowserContext, daphne: Server, olivia: World
) -> None:
    demo_agents(olivia)
    chat = ChatPage.open(context, daphne)
    offer = chat.ask(CHURN)
    options = offer.locator("li[data-choice]")
    expect(options.nth(1)).to_contain_text("Create a new agent specifically for this")

    options.nth(1).click()
    wizard = chat.finished_answers.nth(1)
    expect(wizard).to_contain_text("I'll create a new agent that analyzes our customer churn")
    # A one-off job: no schedule is asked for, and a wizard question is not an option.
    expect(wizard).to_contain_text("Where does the data come from")
    expect(wizard.locator("li[data-choice]")).to_have_count(0)
    state = conversation(olivia, chat.conversation_id).assistant_state
    assert state["wizard"]["gathered"]["task"].startswith("analyze our customer churn data")
    assert state["wizard"]["gathered"]["frequency"] == "once"
    assert runs(olivia) == []

    stored = messages(olivia, chat.conversation_id)
    assert [m.role for m in stored] == ["user", "assistant"] * 2
    chat.page.reload()
    chat.expect_connected()
    expect(chat.page.locator("#transcript .msg-body")).to_have_text(
        [re.compile(re.escape(m.content.split("\n")[0])) for m in stored]
    )
    expect(chat.page.locator(".conv-link[aria-current=page]")).to_have_count(1)
    # Where the user left off: the open wizard, what it has, what it asks.
    card = chat.page.get_by_role("region", name="Setting up a new agent")
    expect(card).to_contain_text("Where you left off")
    expect(card.locator("dd")).to_contain_text(["customer churn data"])
    expect(card).to_contain_text("Where does the data come from")
    assert not chat.errors


def test_new_chat_starts_a_second_conversation(
    context: BrowserContext, daphne: Server, olivia: World
) -> None:
    chat = ChatPage.open(context, daphne)
    chat.ask("what can you do?")
    first = chat.conversation_id

    chat.page.get_by_role("button", name="New chat").click()
    expect(chat.page).to_have_url(f"{daphne.url}/")
    expect(chat.page.get_by_role("heading", level=1)).to_have_text("New chat")
    expect(chat.page.locator("#transcript .msg")).to_have_count(0)
    expect(chat.composer).to_be_focused()
    chat.expect_connected()
    chat.ask("list my agents")
    second = chat.conversation_id

    assert second != first
    assert [c.id for c in conversations(olivia)] == [first, second]
    assert messages(olivia, first)[0].content == "what can you do?"
    assert messages(olivia, second)[0].content == "list my agents"
    expect(chat.page.locator(".conv")).to_have_count(2)
    expect(chat.page.locator(".conv-link[aria-current=page]")).to_have_attribute(
        "href", f"/c/{second}/"
    )
    assert not chat.errors


def test_rename_and_delete_in_the_sidebar_reach_the_other_device(
    new_context: Callable[..., BrowserContext], daphne: Server, olivia: World
) -> None:
    laptop = ChatPage.open(new_context(), daphne)
    laptop.ask("what can you do?")
    kept = laptop.conversation_id
    laptop.page.get_by_role("button", name="New chat").click()
    laptop.ask("list my agents")
    chat = laptop.conversation_id
    phone = ChatPage.open(new_context(), daphne, f"/c/{chat}/")
    expect(phone.row(chat).locator(".conv-link")).to_have_text("list my agents")

    row = laptop.row(chat)
    row.hover()
    row.get_by_role("button", name="Rename “list my agents”").click()
    field = row.get_by_role("textbox", name="Conversation title")
    field.fill("Our agents")
    field.press("Enter")
    expect(row.locator(".conv-link")).to_have_text("Our agents")
    # The other device hears it from the socket's `conversation` frame.
    expect(phone.row(chat).locator(".conv-link")).to_have_text("Our agents")
    expect(phone.page.get_by_role("heading", level=1)).to_have_text("Our agents")
    assert conversation(olivia, chat).title == "Our agents"
    renamed = [f for f in phone.frames if f["type"] == "conversation" and f["event"] == "updated"]
    assert renamed[-1]["conversation"]["title"] == "Our agents"

    row.hover()
    row.get_by_role("button", name="Delete “Our agents”").click()
    laptop.page.get_by_role("dialog").get_by_role("button", name="Delete").click()
    expect(row).to_have_count(0)
    expect(laptop.page).to_have_url(f"{daphne.url}/")
    # Open on the other device: it leaves for a blank chat and says why.
    expect(phone.row(chat)).to_have_count(0)
    expect(phone.page).to_have_url(f"{daphne.url}/")
    expect(phone.page.locator("#toast")).to_contain_text("deleted")
    expect(phone.row(kept)).to_have_count(1)
    deleted = [f for f in phone.frames if f["type"] == "conversation" and f["event"] == "deleted"]
    assert [f["conversation"]["id"] for f in deleted] == [chat]
    assert [c.id for c in conversations(olivia)] == [kept]
    assert messages(olivia, chat) == []
    assert not laptop.errors and not phone.errors
