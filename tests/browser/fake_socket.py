"""The chat socket (/ws/chat/) played by a test through Playwright's WebSocket routing.

Each socket the page opens becomes a ``FakeConnection``: what the page sent is recorded, and the
test sends the server's frames (``ready``, ``ack``, ``chunk`` …) or closes it with a code.
"""

from __future__ import annotations

import itertools
import json
import time
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any
from urllib.parse import parse_qs, urlparse

from playwright.sync_api import Page, WebSocketRoute

Frame = dict[str, Any]
_ids = itertools.count(1)


def now_iso() -> str:
    return datetime.now(UTC).isoformat().replace("+00:00", "Z")


def wait_for(page: Page, condition: Callable[[], Any], what: str, timeout: float = 10) -> Any:
    """Until ``condition()`` is true. Frames reach the test only while Playwright runs, so this
    lets the page's event loop turn in short steps instead of sleeping blind."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        page.wait_for_timeout(25)


def message(
    role: str,
    content: str,
    *,
    conversation_id: str = "C1",
    id: str | None = None,
    intent: Frame | None = None,
    **metadata: Any,
) -> Frame:
    """A stored message as the server sends it."""
    meta = dict(metadata)
    if intent is not None:
        meta["intent"] = intent
    return {
        "id": id or f"M{next(_ids):05d}",
        "conversation_id": conversation_id,
        "role": role,
        "content": content,
        "created_at": now_iso(),
        "metadata": meta,
    }


def intent(action: str = "query_info", confidence: float = 0.98, method: str = "offline") -> Frame:
    return {
        "action_type": action,
        "confidence": confidence,
        "entities": {},
        "reasoning": "",
        "is_ambiguous": False,
        "alternative_action": None,
        "clarifying_question": None,
        "method": method,
        "model": None,
        "latency_ms": 0.4,
    }


class FakeConnection:
    def __init__(self, route: WebSocketRoute) -> None:
        self.route = route
        self.url = route.url
        self.received: list[Frame] = []
        self.closed_by_page = False
        route.on_message(self._received)
        route.on_close(self._closed)

    def _received(self, raw: str | bytes) -> None:
        self.received.append(json.loads(raw))

    def _closed(self, code: int | None, reason: str | None) -> None:
        self.closed_by_page = True

    @property
    def conversation_id(self) -> str | None:
        return parse_qs(urlparse(self.url).query).get("conversation_id", [None])[0]

    @property
    def messages(self) -> list[Frame]:
        return [frame for frame in self.received if frame.get("type") == "message"]

    def send(self, frame: Frame) -> None:
        self.route.send(json.dumps(frame))

    def close(self, code: int, reason: str = "") -> None:
        self.route.close(code=code, reason=reason)

    def ready(
        self,
        history: list[Frame] | None = None,
        state: Frame | None = None,
        conversation_id: str | None = None,
    ) -> None:
        self.send(
            {
                "type": "ready",
                "conversation_id": conversation_id
                if conversation_id is not None
                else self.conversation_id,
                "history": history or [],
                "state": state,
            }
        )

    def ack(self, sent: Frame, conversation_id: str, message_id: str = "U1") -> Frame:
        stored = message("user", sent["content"], conversation_id=conversation_id, id=message_id)
        self.send(
            {
                "type": "ack",
                "conversation_id": conversation_id,
                "message_id": message_id,
                "client_message_id": sent["client_message_id"],
                "message": stored,
            }
        )
        return stored

    def answer(
        self,
        conversation_id: str,
        content: str,
        *,
        chunks: list[str] | None = None,
        message_id: str = "A1",
        turn_intent: Frame | None = None,
        interrupted: bool = False,
        metadata: Frame | None = None,
    ) -> None:
        """thinking, intent, the chunks and done: the rest of a turn after its ack."""
        turn_intent = turn_intent or intent()
        self.send({"type": "thinking"})
        self.send({"type": "intent", "intent": turn_intent})
        for chunk in chunks if chunks is not None else [content]:
            self.send({"type": "chunk", "content": chunk})
        self.done(conversation_id, content, message_id=message_id, turn_intent=turn_intent,
                  interrupted=interrupted, metadata=metadata)  # fmt: skip

    def done(
        self,
        conversation_id: str,
        content: str,
        *,
        message_id: str = "A1",
        turn_intent: Frame | None = None,
        interrupted: bool = False,
        metadata: Frame | None = None,
    ) -> None:
        """`done`; ``metadata`` adds to the stored reply's (``options`` it offered …)."""
        meta: Frame = {"intent": turn_intent or intent(), **(metadata or {})}
        if interrupted:
            meta["interrupted"] = True
        stored = message(
            "assistant", content, conversation_id=conversation_id, id=message_id, **meta
        )
        self.send(
            {
                "type": "done",
                "message_id": message_id,
                "content": content,
                "interrupted": interrupted,
                "conversation_id": conversation_id,
                "message": stored,
            }
        )


class FakeChatServer:
    """Every socket the page opens on /ws/chat/; ``on_connect`` answers each (by default: ready)."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.connections: list[FakeConnection] = []
        self.on_connect: Callable[[FakeConnection], None] | None = lambda conn: conn.ready()
        page.route_web_socket("**/ws/chat/**", self._connect)

    def _connect(self, route: WebSocketRoute) -> None:
        connection = FakeConnection(route)
        self.connections.append(connection)
        if self.on_connect is not None:
            self.on_connect(connection)

    def connection(self, number: int = 1) -> FakeConnection:
        """The ``number``-th socket the page opened (1-based), once it is open."""
        wait_for(self.page, lambda: len(self.connections) >= number, f"socket #{number}")
        return self.connections[number - 1]

    def next_message(self, connection: FakeConnection, index: int = 0) -> Frame:
        """The ``index``-th message frame the page sent on ``connection``."""
        wait_for(self.page, lambda: len(connection.messages) > index, f"message #{index + 1}")
        return connection.messages[index]
