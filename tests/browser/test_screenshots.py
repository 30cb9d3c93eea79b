"""Screenshots of a real conversation on the live server (the wizard creating a Jira agent, then
"list my agents" with its numbered list, the intent badges shown) on a desktop and a phone, light
and dark. Saved in the test's output directory, and in OMNIFORGE_SCREENSHOT_DIR when it is set:
the ones in docs/screenshots/ come from there.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path

import pytest
from django.utils import timezone
from playwright.sync_api import BrowserContext, Page, expect

from conversations.management.commands.seed_demo import DEMO_AGENTS
from conversations.models import Agent, Conversation
from tests.browser.conftest import DESKTOP, PHONE
from tests.browser.live_page import ChatPage, messages
from tests.conftest import World
from tests.live import Server

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WIZARD = (
    "Create an agent that monitors our Jira board for overdue tickets",
    "The PLATFORM project, past due date, and Slack alerts",
    "Every morning at 9am",
)
TITLE = "Jira overdue tickets monitor"
EARLIER = (
    ("Churn analysis for the board", timedelta(days=1, hours=2)),
    ("Weekly Notion summary", timedelta(days=3)),
    ("Invoice reminders for finance", timedelta(days=5)),
    ("Onboarding checklist agent", timedelta(days=12)),
)


def earlier_conversations(world: World) -> None:
    """A believable sidebar: a few older conversations of the last days."""
    now = timezone.now()
    for title, age in EARLIER:
        conversation = Conversation.objects.create(
            tenant=world.tenant_a, user=world.owner, title=title
        )
        Conversation.objects.for_tenant(world.tenant_a).filter(id=conversation.id).update(
            updated_at=now - age, created_at=now - age
        )


def test_screenshots_of_a_real_conversation(
    new_context: Callable[..., BrowserContext],
    shot: Callable[[Page, str], Path],
    daphne: Server,
    olivia: World,
) -> None:
    for name, description, config in DEMO_AGENTS:
        if name != "jira-overdue-monitor":  # the wizard makes the Jira one
            Agent.objects.create(
                tenant=olivia.tenant_a, name=name, description=description, config=config
            )
    earlier_conversations(olivia)

    chat = ChatPage.open(new_context(), daphne)
    for text in WIZARD:
        chat.ask(text)
    expect(chat.finished_answers.last).to_contain_text("Done! I've created jira-tickets-monitor")
    listing = chat.ask("list my agents")
    expect(listing.locator("li[data-choice]")).to_have_count(3)
    expect(listing.locator("li[data-choice]").nth(1)).to_contain_text("jira-tickets-monitor")
    row = chat.row(chat.conversation_id)
    row.hover()
    row.get_by_role("button", name=re.compile("^Rename")).click()
    row.get_by_role("textbox", name="Conversation title").fill(TITLE)
    row.get_by_role("textbox", name="Conversation title").press("Enter")
    expect(chat.page.get_by_role("heading", level=1)).to_have_text(TITLE)
    path = f"/c/{chat.conversation_id}/"
    assert len(messages(olivia, chat.conversation_id)) == 8
    assert not chat.errors

    for device, scheme in [("desktop", "light"), ("desktop", "dark"), ("phone", "light"),
                           ("phone", "dark")]:  # fmt: skip
        phone = device == "phone"
        context = new_context(
            viewport=PHONE if phone else DESKTOP,
            color_scheme=scheme,
            is_mobile=phone,
            has_touch=phone,
            reduced_motion="reduce",
        )
        context.add_init_script("localStorage.setItem('omniforge.showDetails', '1')")
        seen = ChatPage.open(context, daphne, path)
        page = seen.page
        last = seen.finished_answers.last
        expect(seen.finished_answers).to_have_count(4)
        expect(last.locator("li[data-choice]")).to_have_count(3)
        expect(last.locator(".badge")).to_be_visible()
        expect(page.get_by_role("button", name="Show details")).to_have_attribute(
            "aria-pressed", "true"
        )
        expect(page.locator(".conv")).to_have_count(1 + len(EARLIER))
        expect(page.get_by_role("heading", level=1)).to_have_text(TITLE)
        page.mouse.move(1, (PHONE if phone else DESKTOP)["height"] - 1)  # hovering nothing
        page.evaluate("document.fonts.ready")
        saved = shot(page, f"chat-{device}-{scheme}")
        assert saved.stat().st_size > 10_000
        assert not seen.errors
