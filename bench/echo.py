"""A bare Channels echo consumer under Daphne: the WebSocket transport's floor for the bench.

``daphne bench.echo:application`` serves ``/echo/``; every text frame comes straight back.
"""

from __future__ import annotations

import os

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django.setup()

from channels.generic.websocket import AsyncWebsocketConsumer  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from django.urls import path  # noqa: E402


class EchoConsumer(AsyncWebsocketConsumer):
    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        await self.send(text_data=text_data)


application = ProtocolTypeRouter({"websocket": URLRouter([path("echo/", EchoConsumer.as_asgi())])})
