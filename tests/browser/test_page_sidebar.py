"""The chat page's sidebar, and signing in and out.

The socket is played by the test (``FakeChatServer``); a live Daphne serves the page.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from tests.browser.conftest import PHONE
from tests.browser.fake_socket import (
    FakeChatServer,
    FakeConnection,
    message,
    now_iso,
    wait_for,
)
from tests.browser.helpers import composer, conversation, open_chat, stored
from tests.conftest import World
from tests.live import Server

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


# --- the sidebar ------------------------------------------------------------------------------


def test_conversation_frames_keep_the_sidebar_true(
    page: Page, fake: FakeChatServer, daphne: Server, olivia: World
) -> None:
    older = conversation(olivia, "Older chat")
    open_chat(page, daphne)
    conn = fake.connection()
    rows = page.locator(".conv")
    expect(rows).to_have_count(1)

    now = now_iso()
    created = {"id": "01FRAMES", "title": "", "created_at": now, "updated_at": now,
               "message_count": 1, "metadata": {}}  # fmt: skip
    conn.send({"type": "conversation", "event": "created", "conversation": created})
    expect(rows.locator(".conv-link")).to_have_text(["New conversation", "Older chat"])

    renamed = {**created, "title": "Quarterly board report"}
    conn.send({"type": "conversation", "event": "updated", "conversation": renamed})
    expect(rows.locator(".conv-link")).to_have_text(["Quarterly board report", "Older chat"])

    conn.send({"type": "conversation", "event": "deleted", "conversation": {"id": "01FRAMES"}})
    expect(rows.locator(".conv-link")).to_have_text(["Older chat"])
    assert stored(olivia, older.id) is not None


def test_a_deleted_frame_for_the_open_conversation_leads_to_a_blank_chat(
    page: Page, fake: FakeChatServer, daphne: Server, olivia: World
) -> None:
    chat = conversation(olivia, "Deleted on my phone")
    open_chat(page, daphne, f"/c/{chat.id}/")
    conn = fake.connection()
    conn.send({"type": "conversation", "event": "deleted", "conversation": {"id": chat.id}})

    expect(page).to_have_url(f"{daphne.url}/")
    expect(page.locator("#toast")).to_contain_text("deleted")
    expect(page.locator(".conv")).to_have_count(0)
    assert fake.connection(2).conversation_id is None


def test_rename_and_delete_in_the_sidebar_go_through_the_api(
    page: Page, fake: FakeChatServer, daphne: Server, olivia: World
) -> None:
    chat = conversation(olivia, "Churn analysis")
    other = conversation(olivia, "Jira monitor")
    open_chat(page, daphne, f"/c/{chat.id}/")
    fake.connection()
    row = page.locator(f'.conv[data-id="{chat.id}"]')

    row.hover()
    row.get_by_role("button", name="Rename “Churn analysis”").click()
    field = row.get_by_role("textbox", name="Conversation title")
    expect(field).to_be_focused()
    field.fill("Board deck: churn")
    with page.expect_response(lambda r: r.request.method == "PATCH") as patched:
        field.press("Enter")
    assert patched.value.status == 200
    expect(row.locator(".conv-link")).to_have_text("Board deck: churn")
    expect(page.get_by_role("heading", level=1)).to_have_text("Board deck: churn")
    assert stored(olivia, chat.id).title == "Board deck: churn"  # type: ignore[union-attr]

    # Cancelling deletes nothing.
    other_row = page.locator(f'.conv[data-id="{other.id}"]')
    other_row.hover()
    other_row.get_by_role("button", name="Delete “Jira monitor”").click()
    page.get_by_role("dialog").get_by_role("button", name="Cancel").click()
    expect(page.get_by_role("dialog")).to_be_hidden()

    row.hover()
    row.get_by_role("button", name="Delete “Board deck: churn”").click()
    dialog = page.get_by_role("dialog")
    expect(dialog).to_contain_text("Board deck: churn")
    with page.expect_response(lambda r: r.request.method == "DELETE") as deleted:
        dialog.get_by_role("button", name="Delete").click()
    assert deleted.value.status == 204
    expect(row).to_have_count(0)
    expect(page).to_have_url(f"{daphne.url}/")  # it was open: now a blank chat
    assert stored(olivia, chat.id) is None
    assert stored(olivia, other.id) is not None


def test_switching_conversations_keeps_the_page_and_the_back_button_works(
    page: Page, fake: FakeChatServer, daphne: Server, olivia: World
) -> None:
    alpha = conversation(olivia, "Alpha")
    beta = conversation(olivia, "Beta")

    def ready(conn: FakeConnection) -> None:
        cid = conn.conversation_id
        conn.ready([message("user", f"hello from {cid}", conversation_id=cid)] if cid else [])

    fake.on_connect = ready
    open_chat(page, daphne)
    page.evaluate("window.__samePage = true")
    log = page.get_by_role("log")

    page.get_by_role("link", name="Alpha").click()
    expect(page).to_have_url(f"{daphne.url}/c/{alpha.id}/")
    expect(log).to_contain_text(f"hello from {alpha.id}")
    assert fake.connection(2).conversation_id == alpha.id
    wait_for(page, lambda: fake.connections[0].closed_by_page, "the blank chat's socket to close")

    page.get_by_role("link", name="Beta").click()
    expect(page).to_have_url(f"{daphne.url}/c/{beta.id}/")
    expect(log).to_contain_text(f"hello from {beta.id}")
    expect(page.locator(".conv-link[aria-current=page]")).to_have_text("Beta")

    page.get_by_role("button", name="New chat").click()
    expect(page).to_have_url(f"{daphne.url}/")
    expect(composer(page)).to_be_focused()
    assert fake.connection(4).conversation_id is None

    page.go_back()
    expect(page).to_have_url(f"{daphne.url}/c/{beta.id}/")
    expect(log).to_contain_text(f"hello from {beta.id}")
    page.go_back()
    expect(page).to_have_url(f"{daphne.url}/c/{alpha.id}/")
    expect(log).to_contain_text(f"hello from {alpha.id}")
    assert fake.connection(6).conversation_id == alpha.id
    page.go_back()
    expect(page).to_have_url(f"{daphne.url}/")
    expect(page.get_by_role("heading", name="What should we take off your plate?")).to_be_visible()
    assert page.evaluate("window.__samePage") is True


def test_on_a_phone_the_sidebar_is_a_drawer(
    new_context: Callable[..., BrowserContext], daphne: Server, olivia: World
) -> None:
    chat = conversation(olivia, "From the phone")
    page = new_context(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
    FakeChatServer(page)
    open_chat(page, daphne)

    drawer = page.get_by_role("complementary", name="Conversations")
    menu = page.get_by_role("button", name="Open conversations")
    expect(drawer).to_be_hidden()
    expect(menu).to_have_attribute("aria-expanded", "false")
    menu.click()
    expect(drawer).to_be_visible()
    expect(menu).to_have_attribute("aria-expanded", "true")
    drawer.get_by_role("link", name="From the phone").click()
    expect(drawer).to_be_hidden()
    expect(page).to_have_url(f"{daphne.url}/c/{chat.id}/")


# --- signing in and out -----------------------------------------------------------------------


def test_the_sign_in_page_shows_errors_and_keeps_next(
    page: Page, fake: FakeChatServer, daphne: Server, olivia: World
) -> None:
    chat = conversation(olivia, "Deep link")
    page.goto(f"{daphne.url}/c/{chat.id}/")
    expect(page).to_have_url(f"{daphne.url}/accounts/login/?next=/c/{chat.id}/")
    expect(page.get_by_role("heading", name="Sign in")).to_be_visible()
    expect(page.locator(".login-brand")).to_have_text("OmniForge")

    page.get_by_label("Username").fill("olivia")
    page.get_by_label("Password").fill("wrong password")
    page.get_by_role("button", name="Sign in").click()
    expect(page.get_by_role("alert")).to_contain_text("correct username and password")
    expect(page.get_by_label("Username")).to_have_value("olivia")
    expect(page.get_by_label("Username")).to_have_attribute("aria-invalid", "true")

    page.get_by_label("Password").fill("pw-olivia-1")
    page.get_by_role("button", name="Sign in").click()
    expect(page).to_have_url(f"{daphne.url}/c/{chat.id}/")
    assert fake.connection().conversation_id == chat.id


def test_signing_out_posts_the_form_and_ends_the_session(
    page: Page, fake: FakeChatServer, daphne: Server, olivia: World
) -> None:
    open_chat(page, daphne)
    page.get_by_role("button", name="Sign out").click()
    expect(page).to_have_url(re.compile(r"/accounts/login/$"))
    page.goto(f"{daphne.url}/")
    expect(page).to_have_url(f"{daphne.url}/accounts/login/?next=/")
