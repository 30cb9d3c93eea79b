"""Agent runs: what was asked or came due, where it was handed, and what the runtime reported."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone

from conversations.models.agent import Agent
from conversations.models.conversation import new_id
from conversations.models.fields import EncryptedTextField
from conversations.models.tenancy import Tenant
from conversations.tenancy.managers import TenantManager


class AgentRun(models.Model):
    """One run of an agent: requested from a chat turn or the API, or fired by its schedule.

    queued → dispatched → running → succeeded | failed | timed_out | cancelled; a run with no
    runtime to go to waits (``waiting_for_runtime``) until one is configured. Final states are
    final: a late or repeated report changes nothing.
    """

    class Status(models.TextChoices):
        QUEUED = "queued", "Queued"
        WAITING_FOR_RUNTIME = "waiting_for_runtime", "Waiting for a runtime"
        DISPATCHED = "dispatched", "Dispatched"
        RUNNING = "running", "Running"
        SUCCEEDED = "succeeded", "Succeeded"
        FAILED = "failed", "Failed"
        TIMED_OUT = "timed_out", "Timed out"
        CANCELLED = "cancelled", "Cancelled"

    class Trigger(models.TextChoices):
        SCHEDULE = "schedule", "Schedule"
        CHAT = "chat", "Chat"
        API = "api", "API"

    FINAL = frozenset({Status.SUCCEEDED, Status.FAILED, Status.TIMED_OUT, Status.CANCELLED})
    # Handed over and not heard back from for good: the deadline applies.
    OPEN = frozenset({Status.DISPATCHED, Status.RUNNING})

    id = models.CharField(primary_key=True, max_length=26, default=new_id, editable=False)
    tenant = models.ForeignKey(Tenant, on_delete=models.CASCADE, related_name="+", db_index=False)
    agent = models.ForeignKey(Agent, on_delete=models.CASCADE, related_name="runs", db_index=False)
    status = models.CharField(max_length=24, choices=Status.choices, default=Status.QUEUED)
    trigger = models.CharField(max_length=16, choices=Trigger.choices, default=Trigger.CHAT)
    # The schedule's slot a scheduled run fires for: one run per (agent, slot), whoever fires it.
    slot = models.DateTimeField(null=True, blank=True)
    requested_at = models.DateTimeField(default=timezone.now)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    conversation_id = models.CharField(max_length=26, blank=True, default="")
    message_id = models.CharField(max_length=26, blank=True, default="")
    attempts = models.PositiveSmallIntegerField(default=0)
    dispatched_at = models.DateTimeField(null=True, blank=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    # A handed-over run that reports no final outcome by then has timed out.
    deadline_at = models.DateTimeField(null=True, blank=True)
    # Written by the runtime (or by the product, for a failure to hand over): encrypted like
    # messages, since an outcome may quote what the agent read.
    summary = EncryptedTextField(blank=True, default="")
    progress = EncryptedTextField(blank=True, default="")
    reason = EncryptedTextField(blank=True, default="")
    link = models.URLField(max_length=2000, blank=True, default="")
    # When the outcome was told in a conversation: told once, whoever reaches the end first.
    told_at = models.DateTimeField(null=True, blank=True)

    objects = TenantManager["AgentRun"]()

    class Meta:
        constraints = (
            # A second beat, an overlapping batch or a restarted scheduler cannot fire a slot twice.
            models.UniqueConstraint(
                fields=("agent", "slot"),
                condition=models.Q(slot__isnull=False),
                name="agentrun_one_per_slot",
            ),
        )
        indexes = (
            # An agent's runs, newest first (GET agents/{id}/runs/, "did it work?").
            models.Index(fields=("agent", "-requested_at"), name="agentrun_agent_latest"),
            # The tenant's runs, newest first (GET runs/, the admin changelist).
            models.Index(fields=("tenant", "-requested_at"), name="agentrun_tenant_latest"),
            # The beat's sweeps (runs/services.py): runs not handed on, not heard back from, or
            # left waiting for a runtime, past their deadline.
            models.Index(
                fields=("deadline_at",),
                condition=models.Q(
                    status__in=("queued", "waiting_for_runtime", "dispatched", "running")
                ),
                name="agentrun_open_deadline",
            ),
        )

    def __str__(self) -> str:
        return f"{self.agent_id} {self.status} at {self.requested_at}"

    @property
    def final(self) -> bool:
        return self.status in self.FINAL


class AgentRunEvent(models.Model):
    """A report the runtime made on a run, kept for the audit and to apply each event once."""

    class Type(models.TextChoices):
        STARTED = "started", "Started"
        PROGRESS = "progress", "Progress"
        SUCCEEDED = "succeeded", "Succeeded"
        FAILED = "failed", "Failed"

    tenant = models.ForeignKey(Tenant, on_delete=models.CASCADE, related_name="+", db_index=False)
    run = models.ForeignKey(AgentRun, on_delete=models.CASCADE, related_name="events")
    event_id = models.CharField(max_length=100, blank=True, default="")
    type = models.CharField(max_length=16, choices=Type.choices)
    # Whether it changed the run (a report after the final one is recorded, not applied).
    applied = models.BooleanField(default=True)
    received_at = models.DateTimeField(default=timezone.now)

    objects = TenantManager["AgentRunEvent"]()

    class Meta:
        ordering = ("received_at", "id")
        constraints = (
            # A repeated event_id (a runtime's retry, a storm of duplicates) is applied once.
            models.UniqueConstraint(
                fields=("run", "event_id"),
                condition=~models.Q(event_id=""),
                name="agentrunevent_once",
            ),
        )

    def __str__(self) -> str:
        return f"{self.type} on {self.run_id}"


class RuntimeConnection(models.Model):
    """Where a tenant's runs go, and the credentials of that link.

    The signing secret is kept (encrypted) because every dispatch is signed with it; the
    callback token is kept only as a digest, like API tokens. Both are shown once, when made.
    """

    tenant = models.OneToOneField(Tenant, on_delete=models.CASCADE, related_name="runtime")
    # The tenant's own runtime; empty: the operator's OMNIFORGE_RUNTIME_URL.
    url = models.URLField(max_length=500, blank=True, default="")
    secret = EncryptedTextField(blank=True, default="")
    token_digest = models.CharField(max_length=64, unique=True, null=True, blank=True)
    token_prefix = models.CharField(max_length=8, blank=True, default="")
    rotated_at = models.DateTimeField(null=True, blank=True)

    objects = TenantManager["RuntimeConnection"]()

    def __str__(self) -> str:
        return f"runtime of {self.tenant_id}"
