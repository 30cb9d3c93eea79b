"""The runtime's door: its callbacks carry a per-tenant bearer token, not a user's token."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from drf_spectacular.extensions import OpenApiAuthenticationExtension
from drf_spectacular.plumbing import build_bearer_security_scheme_object
from rest_framework import exceptions
from rest_framework.authentication import BaseAuthentication, get_authorization_header
from rest_framework.permissions import BasePermission
from rest_framework.request import Request
from rest_framework.throttling import SimpleRateThrottle

from conversations.models.token import token_digest
from conversations.runs.runtime import runtime_tenant_for_token
from conversations.tenancy.tokens import anonymous_throttle, failed_token_allowed

if TYPE_CHECKING:
    from rest_framework.views import APIView

KEYWORD = b"bearer"


@dataclass(frozen=True)
class RuntimeCaller:
    """Who calls back: a tenant's agent runtime (``request.user`` on the events endpoint)."""

    tenant_id: int
    token_digest: str
    is_authenticated: bool = True
    is_anonymous: bool = False


class RuntimeTokenAuthentication(BaseAuthentication):
    """``Authorization: Bearer <runtime token>``; a wrong token is a 401 and is counted
    against the caller's address, like a wrong API token."""

    def authenticate(self, request: Request) -> tuple[RuntimeCaller, None] | None:
        parts = get_authorization_header(request).split()
        if not parts or parts[0].lower() != KEYWORD:
            return None
        if len(parts) != 2:
            raise exceptions.AuthenticationFailed("Give one bearer token.")
        token = parts[1].decode("latin-1")
        tenant_id = runtime_tenant_for_token(token)
        if tenant_id is None:
            if not failed_token_allowed(request.META.get("REMOTE_ADDR")):
                raise exceptions.Throttled()
            raise exceptions.AuthenticationFailed("Invalid runtime token.")
        return RuntimeCaller(tenant_id=tenant_id, token_digest=token_digest(token)), None

    def authenticate_header(self, request: Request) -> str:
        return 'Bearer realm="runtime"'


class IsRuntime(BasePermission):
    message = "Only the tenant's agent runtime reports on runs."

    def has_permission(self, request: Request, view: APIView) -> bool:
        if isinstance(request.user, RuntimeCaller):
            return True
        anonymous_throttle(request)
        raise exceptions.NotAuthenticated()


class RuntimeTokenThrottle(SimpleRateThrottle):
    """Callbacks counted per runtime token (a runtime behind many addresses is one caller)."""

    scope = "runtime"

    def get_cache_key(self, request: Any, view: Any) -> str | None:
        caller = request.user
        if not isinstance(caller, RuntimeCaller):
            return None
        return self.cache_format % {"scope": self.scope, "ident": caller.token_digest}


class RuntimeTokenScheme(OpenApiAuthenticationExtension):
    """The runtime token in the OpenAPI document (defined beside the class it describes, so it
    is registered whenever the view is)."""

    target_class = RuntimeTokenAuthentication
    name = "runtimeToken"

    def get_security_definition(self, auto_schema: Any) -> dict[str, Any]:
        return dict(
            build_bearer_security_scheme_object(
                header_name="Authorization",
                token_prefix="Bearer",  # noqa: S106 - the scheme's name, not a secret
            )
        )
