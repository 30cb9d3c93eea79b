"""Minting, checking and revoking hashed API tokens (``Authorization: Token <key>``)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.utils import timezone
from rest_framework import exceptions
from rest_framework.authentication import TokenAuthentication
from rest_framework.throttling import SimpleRateThrottle

from conversations.models import ApiToken
from conversations.models.token import token_digest, token_mint

# last_used_at is written at most this often per token: a busy client is not a write per call.
TOUCH_EVERY_S = 60


def token_issue(*, user: Any) -> str:
    """A new key for the user; earlier keys stay valid until revoked. Shown once, never stored."""
    key = token_mint()
    ApiToken.objects.create(user=user, digest=token_digest(key), prefix=key[:8])
    return key


def tokens_revoke(*, user: Any) -> int:
    return ApiToken.objects.filter(user=user, revoked_at__isnull=True).update(
        revoked_at=timezone.now()
    )


def token_user(key: str) -> User | None:
    """The active user a key belongs to, or None (unknown, revoked, or inactive)."""
    if not key or len(key) > 200:
        return None
    token = (
        ApiToken.objects.select_related("user")
        .filter(digest=token_digest(key), revoked_at__isnull=True)
        .first()
    )
    if token is None or not token.user.is_active:
        return None
    now = timezone.now()
    if token.last_used_at is None or (now - token.last_used_at).total_seconds() > TOUCH_EVERY_S:
        ApiToken.objects.filter(pk=token.pk).update(last_used_at=now)
    return token.user


class HashedTokenAuthentication(TokenAuthentication):
    """DRF's ``Token`` header and challenge, checked against hashed keys."""

    def authenticate(self, request: Any) -> tuple[User, None] | None:
        try:
            return super().authenticate(request)
        except exceptions.AuthenticationFailed:
            # Guessing keys from one address is throttled like anonymous traffic, stricter.
            _throttle_or_raise(_FailedTokenThrottle(), request)
            raise

    def authenticate_credentials(self, key: str) -> tuple[User, None]:
        user = token_user(key)
        if user is None:
            raise exceptions.AuthenticationFailed("Invalid token.")
        return user, None


class _AddressThrottle(SimpleRateThrottle):
    """Requests from one address, counted in the shared cache (Redis with several processes)."""

    def get_cache_key(self, request: Any, view: Any) -> str:
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}


class _AnonymousThrottle(_AddressThrottle):
    scope = "anon"


class _FailedTokenThrottle(_AddressThrottle):
    scope = "auth_failures"


def _throttle_or_raise(throttle: SimpleRateThrottle, request: Any) -> None:
    if not throttle.allow_request(request, None):  # type: ignore[arg-type]  # no view here
        raise exceptions.Throttled(wait=throttle.wait())


class _AddressOnly:
    """What a throttle reads of a request, for a caller that is no HTTP request."""

    def __init__(self, address: str | None) -> None:
        self.META = {"REMOTE_ADDR": address}
        self.headers: dict[str, str] = {}  # the address is resolved already: no forwarding


def failed_token_allowed(address: str | None) -> bool:
    """Counts a wrong token from ``address`` (a WebSocket handshake's client); False once the
    address is over ``AUTH_FAILURE_THROTTLE_RATE``. The same counter as the REST API's."""
    return _FailedTokenThrottle().allow_request(_AddressOnly(address), None)  # type: ignore[arg-type]


def anonymous_throttle(request: Any) -> None:
    """A request no authenticator recognized, throttled by its address (``Throttled``)."""
    _throttle_or_raise(_AnonymousThrottle(), request)


class TenantRateThrottle(SimpleRateThrottle):
    """All of a tenant's users together (one tenant cannot starve the others)."""

    scope = "tenant"

    def get_cache_key(self, request: Any, view: Any) -> str | None:
        membership = getattr(request, "membership", None)
        if membership is None:
            return None
        return self.cache_format % {"scope": self.scope, "ident": membership.tenant_id}
