"""WebSocket routes."""

from __future__ import annotations

from typing import Any

from channels.generic.websocket import AsyncWebsocketConsumer
from django.urls import path, re_path

from conversations.chat.consumers import NOT_FOUND, ChatConsumer


class NoSuchSocket(AsyncWebsocketConsumer):
    """Any other path: closed with 4404, instead of the router's error (a 500 in the log)."""

    async def connect(self) -> None:
        await self.accept()
        await self.close(code=NOT_FOUND)

    async def receive(self, *args: Any, **kwargs: Any) -> None:
        return None


websocket_urlpatterns = [
    path("ws/chat/", ChatConsumer.as_asgi()),
    re_path(r"", NoSuchSocket.as_asgi()),
]
