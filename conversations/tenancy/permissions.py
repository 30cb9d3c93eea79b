"""The HTTP door: who the caller is and which tenant they act in.

Kept apart from rest_framework.views: DRF imports permission classes while defining APIView.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.contrib.auth.models import User
from rest_framework import exceptions
from rest_framework.permissions import BasePermission
from rest_framework.request import Request

from conversations.models import Membership, Tenant
from conversations.tenancy.tokens import anonymous_throttle

if TYPE_CHECKING:
    from rest_framework.views import APIView


def membership_of(user: Any) -> Membership | None:
    if not getattr(user, "is_authenticated", False):
        return None
    cached = getattr(user, "_omniforge_membership", None)
    if cached is None:
        # cross-tenant: resolving which tenant the caller belongs to is what scopes everything.
        cached = (
            Membership.objects.cross_tenant().select_related("tenant").filter(user=user).first()
        )
        user._omniforge_membership = cached
    return cached


class IsTenantMember(BasePermission):
    """Authenticated and in a tenant; sets ``request.tenant`` and ``request.membership``."""

    message = "Your account does not belong to a tenant."

    def has_permission(self, request: Request, view: APIView) -> bool:
        if not request.user or not request.user.is_authenticated:
            # Throttled by address before it is answered (a 401 costs as much as a 200).
            anonymous_throttle(request)
            raise exceptions.NotAuthenticated()
        membership = membership_of(request.user)
        if membership is None:
            return False
        request.tenant = membership.tenant  # type: ignore[attr-defined]
        request.membership = membership  # type: ignore[attr-defined]
        return True


def request_user(request: Request) -> User:
    """The authenticated caller (views behind IsTenantMember only)."""
    user = request.user
    assert isinstance(user, User)
    return user


def request_tenant(request: Request) -> Tenant:
    tenant: Tenant = request.tenant  # type: ignore[attr-defined]
    return tenant
