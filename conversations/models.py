"""Tenants, memberships, conversations and their messages."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from ulid import ULID

from conversations.fields import EncryptedTextField
from conversations.tenancy import TenantManager


def new_id() -> str:
    """An opaque, time-sortable id (a ULID: 48 bits of milliseconds, then randomness)."""
    return str(ULID())


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

    objects = TenantManager["Membership"]()

    def __str__(self) -> str:
        return f"{self.user} @ {self.tenant_id} ({self.role})"

    @property
    def is_admin(self) -> bool:
        return self.role == self.Role.ADMIN


class Conversation(models.Model):
    id = models.CharField(primary_key=True, max_length=26, default=new_id, editable=False)
    # The composite indexes below lead with the tenant and serve its lookups.
    tenant = models.ForeignKey(Tenant, on_delete=models.CASCADE, related_name="+", db_index=False)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="conversations"
    )
    title = models.CharField(max_length=200, blank=True, default="")
    metadata = models.JSONField(default=dict, blank=True)
    # Denormalized: the last sequence number handed out, so it is also the number of messages
    # (messages are never deleted one by one). It is the row every append locks.
    message_count = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(default=timezone.now, editable=False)
    updated_at = models.DateTimeField(default=timezone.now)
    # The turn lease: one chat turn of this conversation at a time, across server processes.
    # Taken and released with single-row compare-and-set UPDATEs (never held in a transaction
    # while a model is called); the expiry frees it when a process dies mid-turn.
    turn_owner = models.CharField(max_length=32, blank=True, default="", editable=False)
    turn_lease_until = models.DateTimeField(null=True, blank=True, editable=False)

    objects = TenantManager["Conversation"]()

    class Meta:
        indexes = (
            # conversation_list: keyset pagination over one user's conversations, newest first.
            models.Index(
                fields=("tenant", "user", "-updated_at", "-id"), name="conversation_list_idx"
            ),
            # Admin changelist and date hierarchy per tenant.
            models.Index(fields=("tenant", "-created_at"), name="conversation_tenant_created"),
        )

    def __str__(self) -> str:
        return self.title or self.id


class Message(models.Model):
    class Role(models.TextChoices):
        USER = "user", "User"
        ASSISTANT = "assistant", "Assistant"
        SYSTEM = "system", "System"

    id = models.CharField(primary_key=True, max_length=26, default=new_id, editable=False)
    # Both foreign keys lead the composite indexes below, which serve their lookups; separate
    # single-column indexes would only slow every append down.
    tenant = models.ForeignKey(Tenant, on_delete=models.CASCADE, related_name="+", db_index=False)
    conversation = models.ForeignKey(
        Conversation, on_delete=models.CASCADE, related_name="messages", db_index=False
    )
    # Gapless per conversation, handed out under the conversation row's lock: the total order.
    seq = models.PositiveIntegerField()
    role = models.CharField(max_length=16, choices=Role.choices)
    content = EncryptedTextField()
    token_count = models.PositiveIntegerField(default=0)
    metadata = models.JSONField(default=dict, blank=True)
    # Idempotency key from the client (or the retrying writer): one message per key.
    client_message_id = models.CharField(max_length=64, null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now, editable=False)

    objects = TenantManager["Message"]()

    class Meta:
        constraints = (
            # Also the index behind message_page and message_recent (conversation, seq range).
            models.UniqueConstraint(
                fields=("conversation", "seq"), name="message_conversation_seq"
            ),
            models.UniqueConstraint(
                fields=("conversation", "client_message_id"),
                condition=models.Q(client_message_id__isnull=False),
                name="message_client_id_once",
            ),
        )
        indexes = (
            # Admin changelist per tenant, newest first.
            models.Index(fields=("tenant", "-created_at"), name="message_tenant_created"),
        )

    def __str__(self) -> str:
        return f"{self.conversation_id}#{self.seq} {self.role}"


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


class Agent(models.Model):
    """An agent of the tenant's registry, which the master agent lists, runs and updates."""

    id = models.CharField(primary_key=True, max_length=26, default=new_id, editable=False)
    tenant = models.ForeignKey(Tenant, on_delete=models.CASCADE, related_name="+")
    name = models.SlugField(max_length=80)
    description = models.CharField(max_length=500, blank=True, default="")
    # {"source", "trigger", "action", "schedule", "destination"} as gathered by the wizard.
    config = models.JSONField(default=dict, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now, editable=False)
    updated_at = models.DateTimeField(default=timezone.now)

    objects = TenantManager["Agent"]()

    class Meta:
        ordering = ("name",)
        constraints = (
            # Also the index behind agent lookups by name (the @name fast path).
            models.UniqueConstraint(fields=("tenant", "name"), name="agent_name_per_tenant"),
        )

    def __str__(self) -> str:
        return self.name


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
