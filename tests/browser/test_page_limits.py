"""The page's limits said plainly: a long paste, earlier messages, emoji in the page's fonts.

The socket is played by the test (``FakeChatServer``); a live Daphne serves the page and the
REST API it loads earlier messages from.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from conversations.chat.consumers import HISTORY_ON_CONNECT
from conversations.chat.frames import message_dict
from conversations.models import Message
from conversations.store.services import message_add
from tests.browser.fake_socket import FakeChatServer
from tests.browser.helpers import composer, conversation, open_chat
from tests.conftest import World
from tests.live import Server

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
LIMIT = 16_000


def test_a_paste_over_the_limit_is_kept_whole_and_not_sent_until_shorter(
    page: Page, fake: FakeChatServer, daphne: Server, olivia: World
) -> None:
    fake.on_connect = lambda conn: conn.ready()
    open_chat(page, daphne)
    box = composer(page)
    box.fill("x" * (LIMIT + 4_000))
    expect(box).to_have_value("x" * (LIMIT + 4_000))  # never cut
    counter = page.locator("#composer-counter")
    expect(counter).to_have_text("4,000 characters over the limit of 16,000: shorten it to send")
    expect(page.get_by_role("button", name="Send message")).to_be_disabled()
    box.press("Enter")
    expect(box).to_have_attribute("aria-invalid", "true")
    box.fill("x" * LIMIT)
    expect(counter).to_have_text("0 characters left")
    expect(page.get_by_role("button", name="Send message")).to_be_enabled()
    box.press("Enter")
    expect(box).to_have_value("")
    assert [len(frame["content"]) for frame in fake.connection().messages] == [LIMIT]


def _stored(world: World, count: int) -> tuple[str, list[Message]]:
    chat = conversation(world, "Long talk")
    for n in range(count):
        message_add(conversation=chat, role="user" if n % 2 == 0 else "assistant",
                    content=f"message {n + 1}")  # fmt: skip
    return chat.id, list(chat.messages.order_by("seq"))


def test_a_whole_history_offers_no_earlier_messages_whatever_the_counts(
    page: Page, fake: FakeChatServer, daphne: Server, olivia: World
) -> None:
    chat_id, messages = _stored(olivia, 4)
    # One message is still on its way to this page: the sidebar counts four, three are shown.
    history = [message_dict(m, chat_id) for m in messages[:3]]
    fake.on_connect = lambda conn: conn.ready(history, conversation_id=chat_id)
    open_chat(page, daphne, f"/c/{chat_id}/")
    expect(page.get_by_role("log").locator(".msg")).to_have_count(3)
    expect(page.locator(".conv-link[aria-current=page]")).to_have_text("Long talk")
    expect(page.get_by_role("button", name="Show earlier messages")).to_be_hidden()


def test_a_history_cut_at_the_limit_loads_the_earlier_messages(
    page: Page, fake: FakeChatServer, daphne: Server, olivia: World
) -> None:
    chat_id, messages = _stored(olivia, HISTORY_ON_CONNECT + 7)
    history = [message_dict(m, chat_id) for m in messages[-HISTORY_ON_CONNECT:]]
    fake.on_connect = lambda conn: conn.ready(history, conversation_id=chat_id)
    open_chat(page, daphne, f"/c/{chat_id}/")
    log = page.get_by_role("log")
    expect(log.locator(".msg")).to_have_count(HISTORY_ON_CONNECT)
    earlier = page.get_by_role("button", name="Show earlier messages")
    earlier.click()
    expect(log.locator(".msg")).to_have_count(HISTORY_ON_CONNECT + 7)
    expect(log.locator(".msg-body").first).to_have_text("message 1")
    expect(earlier).to_be_hidden()


def test_emoji_render_in_colour_not_as_empty_boxes(
    page: Page, fake: FakeChatServer, daphne: Server, olivia: World
) -> None:
    fake.on_connect = lambda conn: conn.ready()
    open_chat(page, daphne)
    title = page.get_by_role("heading", name="What should we take off your plate?")
    expect(title).to_be_visible()
    # Drawn in the title's own font stack: a colour emoji font paints coloured pixels; a font
    # without the glyph paints a grey box (or nothing).
    coloured = title.evaluate(
        """(el) => {
          const canvas = document.createElement("canvas");
          canvas.width = canvas.height = 64;
          const ctx = canvas.getContext("2d");
          ctx.font = getComputedStyle(el).font;
          ctx.textBaseline = "top";
          ctx.fillText("\\u{1F680}", 4, 4);
          const data = ctx.getImageData(0, 0, 64, 64).data;
          let count = 0;
          for (let i = 0; i < data.length; i += 4) {
            const [r, g, b, a] = [data[i], data[i + 1], data[i + 2], data[i + 3]];
            if (a > 0 && (Math.abs(r - g) > 40 || Math.abs(g - b) > 40)) count += 1;
          }
          return count;
        }"""
    )
    assert coloured > 20, coloured
