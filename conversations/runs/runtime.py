"""Where a tenant's runs go, the credentials of that link, and which addresses it may name.

The operator's ``OMNIFORGE_RUNTIME_URL`` is trusted as written. A tenant admin's own URL is
not: it must be https on a public address, unless its host is listed in
``OMNIFORGE_RUNTIME_ALLOWED_HOSTS``, checked when it is set and again before every dispatch
(the name may resolve elsewhere by then), so a tenant cannot point the server at the network
it runs in. Redirects are never followed (``dispatch``).
"""

from __future__ import annotations

import ipaddress
import secrets
import socket
from dataclasses import dataclass
from urllib.parse import urlsplit

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from conversations.models import RuntimeConnection, Tenant
from conversations.models.token import token_digest

SECRET_BYTES = 32
TOKEN_PREFIX = "ofrt_"  # noqa: S105 - not a secret: tells a runtime token from a user's API token at a glance


@dataclass(frozen=True)
class RuntimeTarget:
    """Where one tenant's dispatches go, and the secret they are signed with."""

    url: str
    secret: str
    # The tenant admin's own URL (checked before each dispatch), not the operator's.
    tenant_owned: bool


@dataclass(frozen=True)
class RuntimeCredentials:
    secret: str
    token: str


def runtime_target(*, tenant_id: int) -> RuntimeTarget | None:
    """The tenant's runtime, or None while runs have nowhere to go (no URL, no credentials)."""
    connection = RuntimeConnection.objects.for_tenant(tenant_id).first()
    if connection is None or not connection.secret:
        return None
    url = connection.url or settings.OMNIFORGE_RUNTIME_URL
    if not url:
        return None
    return RuntimeTarget(url=url, secret=connection.secret, tenant_owned=bool(connection.url))


def runtime_connected(*, tenant_id: int) -> bool:
    return runtime_target(tenant_id=tenant_id) is not None


@transaction.atomic
def runtime_credentials_rotate(*, tenant: Tenant) -> RuntimeCredentials:
    """New signing secret and callback token for the tenant's runtime; earlier ones stop working.

    Both are returned once: the token is stored as a digest, the secret encrypted.
    """
    secret = secrets.token_urlsafe(SECRET_BYTES)
    token = TOKEN_PREFIX + secrets.token_urlsafe(SECRET_BYTES)
    connection, _ = RuntimeConnection.objects.for_tenant(tenant).get_or_create(tenant=tenant)
    connection.secret = secret
    connection.token_digest = token_digest(token)
    connection.token_prefix = token[: len(TOKEN_PREFIX) + 3]
    connection.rotated_at = timezone.now()
    connection.save()
    return RuntimeCredentials(secret=secret, token=token)


def runtime_url_set(*, tenant: Tenant, url: str) -> RuntimeConnection:
    """A tenant admin's own runtime URL ("" goes back to the operator's)."""
    cleaned = runtime_url_clean(url) if url else ""
    connection, _ = RuntimeConnection.objects.for_tenant(tenant).get_or_create(tenant=tenant)
    connection.url = cleaned
    connection.save(update_fields=["url"])
    return connection


def runtime_tenant_for_token(token: str) -> int | None:
    """The tenant a runtime's bearer token belongs to (None: no such token)."""
    if not token.startswith(TOKEN_PREFIX):
        return None
    # cross-tenant: the token is what says which tenant is calling.
    found = (
        RuntimeConnection.objects.cross_tenant()
        .filter(token_digest=token_digest(token))
        .values_list("tenant_id", flat=True)
        .first()
    )
    return found


def _allowed_host(host: str) -> bool:
    return host.lower() in {h.lower() for h in settings.OMNIFORGE_RUNTIME_ALLOWED_HOSTS}


def runtime_url_clean(url: str) -> str:
    """A tenant's runtime URL as it may be stored, or a ValidationError saying why not."""
    parts = urlsplit(url.strip())
    host = parts.hostname or ""
    if parts.scheme not in ("http", "https") or not host:
        raise ValidationError({"url": ["Give a full URL, such as https://runtime.example.com/."]})
    if parts.username or parts.password:
        raise ValidationError({"url": ["The URL must not carry a user name or password."]})
    if _allowed_host(host):
        return parts.geturl()
    if parts.scheme != "https":
        raise ValidationError({"url": ["The runtime URL must use https."]})
    if _literal_private(host) or host.lower() == "localhost":
        raise ValidationError({"url": ["The runtime URL must name a public address."]})
    return parts.geturl()


def _literal_private(host: str) -> bool:
    try:
        return not ipaddress.ip_address(host.strip("[]")).is_global
    except ValueError:
        return False


def runtime_url_refusal(target: RuntimeTarget) -> str | None:
    """Why a dispatch to this target must not be sent now (None: it may)."""
    if not target.tenant_owned:
        return None
    parts = urlsplit(target.url)
    host = parts.hostname or ""
    if _allowed_host(host):
        return None
    if parts.scheme != "https":
        return "The runtime URL must use https."
    try:
        addresses = {
            str(info[4][0])
            for info in socket.getaddrinfo(host, parts.port or 443, type=socket.SOCK_STREAM)
        }
    except OSError:
        return f"The runtime's host {host} could not be resolved."
    for address in addresses:
        if not ipaddress.ip_address(address.split("%")[0]).is_global:
            return f"The runtime's host {host} resolves to an address that is not public."
    return None
