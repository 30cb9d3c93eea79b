"""The chat page against the real consumer: a signed-in page, what its socket received, and
what the database holds, for the live browser tests (nothing here plays the server)."""

from __future__ import annotations

import json
from typing import Any

from playwright.sync_api import BrowserContext, Locator, Page, WebSocket, expect

from conversations.management.commands.seed_demo import DEMO_AGENTS
from conversations.models import Agent, AgentRun, Conversation, Message
from tests.browser.conftest import sign_in
from tests.conftest import World
from tests.live import Server

Frame = dict[str, Any]
PASSWORD = "pw-olivia-1"


class ChatPage:
    """One page of the chat, signed in through the form. ``frames`` are the server's frames its
    chat sockets received and ``sent`` the page's own, in order (recorded by Playwright, not by
    the page)."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.frames: list[Frame] = []
        self.sent: list[Frame] = []  # the page's frames to the server
        self.errors: list[str] = []
        page.on("websocket", self._socket)
        page.on("pageerror", lambda error: self.errors.append(str(error)))

    @classmethod
    def open(cls, context: BrowserContext, server: Server, path: str = "/") -> ChatPage:
        chat = cls(context.new_page())
        sign_in(chat.page, server, "olivia", PASSWORD, path)
        chat.expect_connected()
        return chat

    def _socket(self, socket: WebSocket) -> None:
        if "/ws/chat/" in socket.url:
            socket.on("framereceived", lambda payload: self.frames.append(json.loads(payload)))
            socket.on("framesent", lambda payload: self.sent.append(json.loads(payload)))

    def last(self, kind: str) -> Frame:
        return [frame for frame in self.frames if frame["type"] == kind][-1]

    def types(self, since: int = 0) -> list[str]:
        return [frame["type"] for frame in self.frames[since:] if frame["type"] != "conversation"]

    # --- the page's parts ---

    @property
    def composer(self) -> Locator:
        return self.page.get_by_role("textbox", name="Message the master agent")

    @property
    def answers(self) -> Locator:
        return self.page.locator("#transcript .msg-assistant")

    @property
    def finished_answers(self) -> Locator:
        return self.page.locator("#transcript .msg-assistant[data-message-id]:not([aria-busy])")

    @property
    def mine(self) -> Locator:
        return self.page.locator("#transcript .msg-user")

    @property
    def banner(self) -> Locator:
        return self.page.locator("#banner")

    def row(self, conversation_id: str) -> Locator:
        return self.page.locator(f'.conv[data-id="{conversation_id}"]')

    def expect_connected(self) -> None:
        """The socket said ready: the loading line is gone and no banner shows."""
        expect(self.page.locator("#loading")).to_be_hidden()
        expect(self.banner).to_be_hidden()
        expect(self.page.locator("#chat")).to_have_attribute("data-connection", "ready")

    # --- doing things ---

    def send(self, text: str) -> None:
        self.composer.fill(text)
        self.composer.press("Enter")

    def ask(self, text: str) -> Locator:
        """Send ``text`` and wait for its answer to finish; the answer's element."""
        before = self.finished_answers.count()
        self.send(text)
        expect(self.finished_answers).to_have_count(before + 1, timeout=20_000)
        return self.finished_answers.nth(before)

    @property
    def conversation_id(self) -> str:
        path = self.page.url.split("/c/", 1)[1]
        return path.rstrip("/")


# --- the database, read from the test process --------------------------------------------------


def demo_agents(world: World) -> dict[str, Agent]:
    """The three sample agents of ``seed_demo``, in olivia's tenant."""
    made = {}
    for name, description, config in DEMO_AGENTS:
        made[name] = Agent.objects.create(
            tenant=world.tenant_a,
            name=name,
            description=description,
            config=config,
            created_by=world.owner,
        )
    return made


def messages(world: World, conversation_id: str) -> list[Message]:
    return list(
        Message.objects.for_tenant(world.tenant_a)
        .filter(conversation_id=conversation_id)
        .order_by("seq")
    )


def conversation(world: World, conversation_id: str) -> Conversation:
    return Conversation.objects.for_tenant(world.tenant_a).get(id=conversation_id)


def conversations(world: World) -> list[Conversation]:
    return list(Conversation.objects.for_tenant(world.tenant_a).order_by("created_at"))


def runs(world: World) -> list[AgentRun]:
    return list(AgentRun.objects.for_tenant(world.tenant_a).select_related("agent"))
