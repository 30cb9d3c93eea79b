"""Who is on the other end of a WebSocket: a browser's session, or a program's API token.

A program sends ``Authorization: Token <key>`` on the handshake (a browser cannot set that
header, so no page of another site can use it). A browser is authenticated by its session
cookie, which every site's page would send along too: a session handshake must therefore come
from an allowed ``Origin`` (cross-site WebSocket hijacking), while a token client without a
browser need not send one. Keys never appear in logs: they only ever travel in a header.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlparse

from channels.db import database_sync_to_async
from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.http.request import validate_host

from conversations.store.outage import TRANSIENT_STORAGE_ERRORS
from conversations.tenancy.tokens import failed_token_allowed, token_user

AUTH_SESSION = "session"
AUTH_TOKEN = "token"  # noqa: S105 - the name of a method, not a secret
# Who it is could not be read: storage is unavailable for now (the consumer says so and closes).
AUTH_UNAVAILABLE = "unavailable"
# A wrong token from an address over the wrong-token throttle (the consumer closes with 4429).
AUTH_THROTTLED = "throttled"


def _header(scope: dict[str, Any], name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key == name:
            return bytes(value).decode("latin-1")
    return None


def origin_allowed(origin: str | None) -> bool:
    """An ``Origin`` of this site: a host in ``ALLOWED_HOSTS``, or in ``CSRF_TRUSTED_ORIGINS``."""
    if not origin:
        return False
    if origin in settings.CSRF_TRUSTED_ORIGINS:
        return True
    host = urlparse(origin).hostname
    return host is not None and validate_host(host, settings.ALLOWED_HOSTS)


@database_sync_to_async
def _token_user(key: str, address: str | None) -> tuple[Any, str | None]:
    """The key's user and the auth method; a wrong key counts against the caller's address."""
    user = token_user(key)
    if user is not None:
        return user, AUTH_TOKEN
    return AnonymousUser(), (None if failed_token_allowed(address) else AUTH_THROTTLED)


@database_sync_to_async
def _session_user(scope: dict[str, Any]) -> Any:
    user = scope.get("user")
    # Channels' AuthMiddleware leaves a lazy user; reading it touches the session store.
    return user if user is not None and user.is_authenticated else AnonymousUser()


class ChatAuthMiddleware:
    """Sets ``scope["user"]`` and ``scope["auth_method"]`` (token, session or None).

    Inside Channels' ``AuthMiddlewareStack``, which has read the session cookie already.
    """

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        scope = dict(scope)
        authorization = _header(scope, b"authorization") or ""
        keyword, _, key = authorization.partition(" ")
        try:
            if keyword.lower() == "token" and key.strip():
                # The client's address, as ClientAddressMiddleware resolved it.
                address = (scope.get("client") or (None,))[0]
                scope["user"], scope["auth_method"] = await _token_user(key.strip(), address)
            else:
                scope["user"] = await _session_user(scope)
                scope["auth_method"] = AUTH_SESSION if scope["user"].is_authenticated else None
        except TRANSIENT_STORAGE_ERRORS:
            scope["user"], scope["auth_method"] = AnonymousUser(), AUTH_UNAVAILABLE
        scope["origin"] = _header(scope, b"origin")
        return await self.app(scope, receive, send)
