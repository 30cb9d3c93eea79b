"""The tenant's agent registry: what each agent does and when it runs."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone

from conversations.models.conversation import new_id
from conversations.models.fields import EncryptedJSONField, EncryptedTextField
from conversations.models.tenancy import Tenant
from conversations.tenancy.managers import TenantManager


class Agent(models.Model):
    """An agent of the tenant's registry, which the master agent lists, runs and updates."""

    id = models.CharField(primary_key=True, max_length=26, default=new_id, editable=False)
    tenant = models.ForeignKey(Tenant, on_delete=models.CASCADE, related_name="+")
    # Plain: the owner's chosen name, unique per tenant, looked up and listed by the database.
    name = models.SlugField(max_length=80)
    # Encrypted: both are written from what a user typed (the API bounds the description to 500).
    description = EncryptedTextField(blank=True, default="")
    # {"source", "trigger", "action", "schedule", "destination"} as gathered by the wizard.
    config = EncryptedJSONField(default=dict, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now, editable=False)
    updated_at = models.DateTimeField(default=timezone.now)
    # When it was paused: a paused agent keeps its configuration and runs only when asked.
    paused_at = models.DateTimeField(null=True, blank=True)
    # {"rrule": "FREQ=…", "timezone": "Europe/Berlin"} (RFC 5545 and an IANA zone), or null for
    # an agent that runs only when asked; services validate it (agents/schedules.py).
    schedule = models.JSONField(null=True, blank=True, default=None)
    # The next slot the scheduler fires (UTC), recomputed by services on every change, pause and
    # resume; null when paused, unscheduled or ended.
    next_run_at = models.DateTimeField(null=True, blank=True)

    objects = TenantManager["Agent"]()

    class Meta:
        ordering = ("name",)
        constraints = (
            # Also the index behind agent lookups by name (the @name fast path).
            models.UniqueConstraint(fields=("tenant", "name"), name="agent_name_per_tenant"),
        )
        indexes = (
            # The scheduler's batches of due agents (runs/scheduler.py), earliest first.
            models.Index(
                fields=("next_run_at",),
                condition=models.Q(next_run_at__isnull=False),
                name="agent_due",
            ),
        )

    def __str__(self) -> str:
        return self.name

    @property
    def paused(self) -> bool:
        return self.paused_at is not None
