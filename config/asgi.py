"""ASGI entry point: HTTP through Django, WebSocket through Channels, one process under Daphne."""

import json
import os
import sys
from typing import Any

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
# Django must be set up before anything imports models (the routing below does).
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402

from config.proxies import ClientAddressMiddleware  # noqa: E402
from conversations.chat.auth import ChatAuthMiddleware  # noqa: E402
from conversations.chat.routing import websocket_urlpatterns  # noqa: E402
from intents.apps import announce_llm_tier  # noqa: E402

announce_llm_tier()


def _answer_oversized_requests() -> None:
    """Under Daphne, answer a request line or header block over Twisted's limits with JSON.

    Twisted drops the connection without a word when the request line is longer than 16 KiB,
    and answers a bare 400 when the headers are; an API client deserves a status and a reason.
    The path is unknown at that point, so the answer is the same for every path.
    """
    http = sys.modules.get("twisted.web.http")
    if http is None:  # not running under Daphne
        return

    def answer(channel: Any, status: bytes, detail: str) -> None:
        body = json.dumps({"detail": detail}).encode()
        channel.transport.write(
            b"HTTP/1.1 " + status + b"\r\nContent-Type: application/json\r\n"
            b"Content-Length: " + str(len(body)).encode() + b"\r\nConnection: close\r\n\r\n" + body
        )
        channel.transport.loseConnection()

    def line_too_long(channel: Any, line: bytes) -> None:
        answer(channel, b"414 URI Too Long", "The request line is longer than 16384 bytes.")

    def bad_request(channel: Any) -> None:
        answer(channel, b"400 Bad Request", "The request is malformed or its headers too large.")

    http.HTTPChannel.lineLengthExceeded = line_too_long
    http.HTTPChannel._respondToBadRequestAndDisconnect = bad_request


_answer_oversized_requests()

# The client's address first (behind OMNIFORGE_TRUSTED_PROXIES proxies), for both protocols.
application = ClientAddressMiddleware(
    ProtocolTypeRouter(
        {
            # Static files come from WhiteNoise in the middleware (config/static.py).
            "http": django_asgi_app,
            # Who is calling (a session needs an allowed Origin, a token does not) is decided in
            # ChatAuthMiddleware and the consumer: an unknown path gets a close, never a 500.
            "websocket": AuthMiddlewareStack(ChatAuthMiddleware(URLRouter(websocket_urlpatterns))),
        }
    )
)
