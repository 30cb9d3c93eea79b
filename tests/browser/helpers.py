"""Small helpers of the chat page's tests where the socket is played by the test."""

from __future__ import annotations

import re

from playwright.sync_api import Locator, Page

from conversations.models import Conversation
from tests.browser.conftest import sign_in
from tests.conftest import World
from tests.live import Server

UUID = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$")


def conversation(world: World, title: str = "") -> Conversation:
    """One of olivia's conversations, committed (the server reads it from another process)."""
    return Conversation.objects.create(tenant=world.tenant_a, user=world.owner, title=title)


def stored(world: World, conversation_id: str) -> Conversation | None:
    return Conversation.objects.for_tenant(world.tenant_a).filter(id=conversation_id).first()


def composer(page: Page) -> Locator:
    return page.get_by_role("textbox", name="Message the master agent")


def open_chat(page: Page, daphne: Server, path: str = "/") -> None:
    sign_in(page, daphne, "olivia", "pw-olivia-1", path)
