"""The tenant's agent registry and the runs the chat requests."""

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

    objects = TenantManager["Agent"]()

    class Meta:
        ordering = ("name",)
        constraints = (
            # Also the index behind agent lookups by name (the @name fast path).
            models.UniqueConstraint(fields=("tenant", "name"), name="agent_name_per_tenant"),
        )

    def __str__(self) -> str:
        return self.name

    @property
    def paused(self) -> bool:
        return self.paused_at is not None


class AgentRun(models.Model):
    """A request to run an agent, made from a chat turn (or the API)."""

    class Status(models.TextChoices):
        QUEUED = "queued", "Queued"
        RUNNING = "running", "Running"
        SUCCEEDED = "succeeded", "Succeeded"
        FAILED = "failed", "Failed"

    id = models.CharField(primary_key=True, max_length=26, default=new_id, editable=False)
    tenant = models.ForeignKey(Tenant, on_delete=models.CASCADE, related_name="+", db_index=False)
    agent = models.ForeignKey(Agent, on_delete=models.CASCADE, related_name="runs", db_index=False)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.QUEUED)
    requested_at = models.DateTimeField(default=timezone.now)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    conversation_id = models.CharField(max_length=26, blank=True, default="")
    message_id = models.CharField(max_length=26, blank=True, default="")

    objects = TenantManager["AgentRun"]()

    class Meta:
        indexes = (
            # An agent's last run (query_info details), newest first.
            models.Index(fields=("agent", "-requested_at"), name="agentrun_agent_latest"),
            # Admin changelist per tenant.
            models.Index(fields=("tenant", "-requested_at"), name="agentrun_tenant_latest"),
        )

    def __str__(self) -> str:
        return f"{self.agent_id} {self.status} at {self.requested_at}"
