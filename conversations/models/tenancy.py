"""Tenants, the users in them, and who read which transcript."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone

from conversations.tenancy.managers import TenantManager


class Tenant(models.Model):
    slug = models.SlugField(max_length=63, unique=True)
    name = models.CharField(max_length=200)
    settings = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        ordering = ("slug",)

    def __str__(self) -> str:
        return self.slug


class Membership(models.Model):
    """Ties a user to exactly one tenant, with a role inside it."""

    class Role(models.TextChoices):
        MEMBER = "member", "Member"
        ADMIN = "admin", "Admin"

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="membership"
    )
    tenant = models.ForeignKey(Tenant, on_delete=models.CASCADE, related_name="memberships")
    role = models.CharField(max_length=16, choices=Role.choices, default=Role.MEMBER)
    created_at = models.DateTimeField(default=timezone.now, editable=False)
    # The user's "Agent runs" conversation, where the outcomes of their agents' scheduled runs
    # are told (conversations/runs/telling.py); made on the first such outcome.
    runs_conversation_id = models.CharField(max_length=26, blank=True, default="")

    objects = TenantManager["Membership"]()

    def __str__(self) -> str:
        return f"{self.user} @ {self.tenant_id} ({self.role})"

    @property
    def is_admin(self) -> bool:
        return self.role == self.Role.ADMIN


class TranscriptView(models.Model):
    """Who opened which conversation's transcript in the admin, and when.

    Django's admin log records changes only; reading a user's conversation is an audited act.
    The conversation is kept as a plain id so the record outlives the conversation.
    """

    tenant = models.ForeignKey(Tenant, on_delete=models.CASCADE, related_name="+")
    conversation_id = models.CharField(max_length=26, db_index=True)
    viewer = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    viewer_username = models.CharField(max_length=150)
    viewed_at = models.DateTimeField(default=timezone.now, db_index=True)

    objects = TenantManager["TranscriptView"]()

    class Meta:
        ordering = ("-viewed_at",)

    def __str__(self) -> str:
        return f"{self.viewer_username} viewed {self.conversation_id} at {self.viewed_at}"
