"""Tenants, users and tokens: what the management commands and the admin call."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.core.validators import validate_slug
from django.db import transaction

from conversations.models import Conversation, Membership, Tenant, TranscriptView
from conversations.tenancy.tokens import token_issue as token_issue  # re-exported
from conversations.tenancy.tokens import tokens_revoke as tokens_revoke  # re-exported


@dataclass(frozen=True)
class UserAdded:
    user: User
    created: bool


def tenant_create(*, slug: str, name: str | None = None) -> Tenant:
    """Create the tenant, or return it (renamed when a new name is given)."""
    validate_slug(slug)
    tenant, created = Tenant.objects.get_or_create(slug=slug, defaults={"name": name or slug})
    if not created and name and tenant.name != name:
        tenant.name = name
        tenant.save(update_fields=["name"])
    return tenant


@transaction.atomic
def user_add(
    *, tenant: Tenant, username: str, password: str | None = None, admin: bool = False
) -> UserAdded:
    """Create the user in the tenant, or update the password and role of one already there.

    A user belongs to exactly one tenant: adding a user of another tenant is refused.
    Tenant admins are staff, so they can open the admin, where they see only their tenant.
    """
    user, created = User.objects.get_or_create(username=username)
    # cross-tenant: a user may belong to one tenant only, whichever it is.
    membership = Membership.objects.cross_tenant().filter(user=user).first()
    if membership is not None and membership.tenant_id != tenant.pk:
        raise ValidationError(f"User {username!r} already belongs to another tenant.")
    if password:
        user.set_password(password)
    elif created:
        user.set_unusable_password()
    if admin:
        user.is_staff = True
    user.save()
    role = Membership.Role.ADMIN if admin else Membership.Role.MEMBER
    if membership is None:
        Membership.objects.create(user=user, tenant=tenant, role=role)
    elif admin and membership.role != role:
        membership.role = role
        membership.save(update_fields=["role"])
    return UserAdded(user=user, created=created)


def transcript_view_record(*, conversation: Conversation, viewer: Any) -> TranscriptView:
    return TranscriptView.objects.create(
        tenant_id=conversation.tenant_id,
        conversation_id=conversation.id,
        viewer=viewer,
        viewer_username=viewer.get_username(),
    )
