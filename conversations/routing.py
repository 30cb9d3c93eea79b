from __future__ import annotations

from typing import Any

# WebSocket routes; the chat consumer (/ws/chat/) is added with the streaming chat.
websocket_urlpatterns: list[Any] = []
