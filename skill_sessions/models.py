"""Skill-creation sessions (one JSON document each), the skills they create, retention runs."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone

from conversations.models import Tenant, new_id
from conversations.models.fields import EncryptedJSONField, EncryptedTextField
from conversations.tenancy.managers import TenantManager


class SkillCreationSession(models.Model):
    """A skill being built in chat; its whole context is one document (see ``context.py``)."""

    class Status(models.TextChoices):
        ACTIVE = "active", "Active"
        COMPLETED = "completed", "Completed"
        ABANDONED = "abandoned", "Abandoned"
        DELETED = "deleted", "Deleted"
        ERROR = "error", "Error"

    id = models.CharField(primary_key=True, max_length=26, default=new_id, editable=False)
    tenant = models.ForeignKey(Tenant, on_delete=models.CASCADE, related_name="skill_sessions")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="skill_sessions"
    )
    session_id = models.CharField(max_length=64)  # minted by the server, unique per tenant
    conversation_id = models.CharField(max_length=26, blank=True, default="")
    # The context document: JSON, gzip+base64 above a size, encrypted when keys are configured.
    context = EncryptedTextField()
    state = models.CharField(max_length=32)  # denormalized from the context, for queries
    skill_name = models.CharField(max_length=80, blank=True, default="")
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.ACTIVE)
    status_changed_at = models.DateTimeField(default=timezone.now)
    last_activity_at = models.DateTimeField(default=timezone.now)  # a user's last exchange
    version = models.PositiveIntegerField(default=1)  # optimistic concurrency
    created_at = models.DateTimeField(default=timezone.now, editable=False)
    updated_at = models.DateTimeField(default=timezone.now)

    objects = TenantManager()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=("tenant", "session_id"), name="skill_session_unique")
        ]
        indexes = [
            # sessions_page: a member's sessions, newest first (the id breaks ties).
            models.Index(fields=("tenant", "user", "-updated_at", "-id"), name="skill_s_user_page"),
            # sessions_page: a tenant admin's view, the tenant's sessions newest first.
            models.Index(fields=("tenant", "-updated_at", "-id"), name="skill_s_tenant_page"),
            # session_open_in: a user's latest active session; sessions_page with ?status=.
            models.Index(fields=("tenant", "user", "status", "-updated_at"), name="skill_s_user"),
            # retention_run: sessions idle since a date, or in a status since a date.
            models.Index(fields=("status", "last_activity_at"), name="skill_s_idle"),
            models.Index(fields=("status", "status_changed_at"), name="skill_s_expired"),
        ]

    def __str__(self) -> str:
        return f"{self.session_id} ({self.status})"


class Skill(models.Model):
    id = models.CharField(primary_key=True, max_length=26, default=new_id, editable=False)
    tenant = models.ForeignKey(Tenant, on_delete=models.CASCADE, related_name="skills")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    name = models.SlugField(max_length=80)  # plain, like an agent's: unique, listed, searched
    # Encrypted: written from what the user told the skill builder.
    description = EncryptedTextField(blank=True, default="")
    definition = EncryptedJSONField(default=dict)
    session_id = models.CharField(max_length=64, blank=True, default="")
    created_at = models.DateTimeField(default=timezone.now, editable=False)

    objects = TenantManager()

    class Meta:
        ordering = ("name",)
        constraints = [models.UniqueConstraint(fields=("tenant", "name"), name="skill_unique")]

    def __str__(self) -> str:
        return self.name


class RetentionRun(models.Model):
    """One run of the retention policy: when, by what, dry or real, and what it counted."""

    started_at = models.DateTimeField(default=timezone.now)
    finished_at = models.DateTimeField(null=True, blank=True)
    as_of = models.DateField()
    trigger = models.CharField(max_length=32)  # beat, command, admin
    dry_run = models.BooleanField(default=False)
    tenant_slug = models.CharField(max_length=63, blank=True, default="")  # "" = every tenant
    counts = models.JSONField(default=dict)  # totals
    per_tenant = models.JSONField(default=dict)  # {slug: counts}

    class Meta:
        ordering = ("-started_at",)

    def __str__(self) -> str:
        return f"{self.as_of} {'dry run' if self.dry_run else 'run'} ({self.trigger})"
