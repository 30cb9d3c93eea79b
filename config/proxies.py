"""The client's address behind the reverse proxies the operator trusts.

``OMNIFORGE_TRUSTED_PROXIES`` says how many proxies stand in front of the server. Each proxy
appends the address it received the connection from to ``X-Forwarded-For``, so the N-th entry
from the right is the last one a trusted proxy wrote: the client. Everything to its left is
whatever the client chose to send. With 0, forwarded headers are ignored and the TCP peer is
the client.

One rule, three readers: ``ClientAddressMiddleware`` (every HTTP request and WebSocket
handshake under Daphne, whose own ``--proxy-headers`` takes the left-most entry, which the
client writes), DRF's throttles (``NUM_PROXIES``, set from the same setting, applies the same
rule) and django-axes (``axes_client_address``).
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import HttpRequest


def forwarded_client(remote: str | None, forwarded_for: str | None, trusted: int) -> str | None:
    """The client's address: the ``trusted``-th entry from the right of ``forwarded_for``.

    The same rule as DRF's ``SimpleRateThrottle.get_ident`` with ``NUM_PROXIES``, so that the
    throttles and the scope agree: with fewer entries than proxies, the left-most one.
    """
    if trusted <= 0 or not forwarded_for:
        return remote
    hops = forwarded_for.split(",")
    return hops[-min(trusted, len(hops))].strip() or remote


def axes_client_address(request: HttpRequest) -> str | None:
    """``AXES_CLIENT_IP_CALLABLE``: the sign-in lockout counts per client, not per proxy."""
    return forwarded_client(
        request.META.get("REMOTE_ADDR"),
        request.META.get("HTTP_X_FORWARDED_FOR"),
        settings.OMNIFORGE_TRUSTED_PROXIES,
    )


class ClientAddressMiddleware:
    """ASGI: sets ``scope["client"]`` to the client's address for HTTP and WebSocket alike.

    Outermost, so that Django (``REMOTE_ADDR``), the WebSocket limits and the logs all see the
    client. The client's port is not known behind a proxy: it is given as 0.
    """

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        trusted = settings.OMNIFORGE_TRUSTED_PROXIES
        if trusted and scope["type"] in ("http", "websocket"):
            forwarded = ",".join(
                bytes(value).decode("latin-1")
                for key, value in scope.get("headers", ())
                if key == b"x-forwarded-for"
            )
            peer = scope.get("client") or (None, 0)
            client = forwarded_client(peer[0], forwarded, trusted)
            if client is not None and client != peer[0]:
                scope = {**scope, "client": (client, 0)}
        return await self.app(scope, receive, send)
