"""Conversations and their messages."""

from __future__ import annotations

from datetime import datetime
from typing import Any, cast

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from ulid import ULID

from conversations.models.fields import EncryptedJSONField, EncryptedTextField
from conversations.models.tenancy import Tenant
from conversations.tenancy.managers import TenantManager, TenantQuerySet


def new_id() -> str:
    """An opaque, time-sortable id (a ULID: 48 bits of milliseconds, then randomness)."""
    return str(ULID())


class ConversationQuerySet(TenantQuerySet["Conversation"]):
    """The turn lease: one chat turn of a conversation at a time, across server processes.

    Taken, renewed and released with single-row compare-and-set UPDATEs, never held in a
    transaction while a model is called. It is short and the turn holding it renews it while
    it runs, so a process killed mid-turn frees the conversation within one lease.
    """

    def lease_acquire(self, *, owner: str, now: datetime, until: datetime) -> bool:
        """Take the lease if it is free, expired or already ``owner``'s."""
        free = Q(turn_lease_until__isnull=True) | Q(turn_lease_until__lt=now) | Q(turn_owner=owner)
        return self.filter(free).update(turn_owner=owner, turn_lease_until=until) == 1

    def lease_renew(self, *, owner: str, until: datetime) -> bool:
        """Extend ``owner``'s lease; False when it is no longer theirs."""
        return self.filter(turn_owner=owner).update(turn_lease_until=until) == 1

    def lease_release(self, *, owner: str) -> None:
        self.filter(turn_owner=owner).update(turn_owner="", turn_lease_until=None)


class ConversationManager(TenantManager["Conversation"]):
    queryset_class = ConversationQuerySet

    def for_tenant(self, tenant: Tenant | int) -> ConversationQuerySet:
        return cast(ConversationQuerySet, super().for_tenant(tenant))


class Conversation(models.Model):
    id = models.CharField(primary_key=True, max_length=26, default=new_id, editable=False)
    # The composite indexes below lead with the tenant and serve its lookups.
    tenant = models.ForeignKey(Tenant, on_delete=models.CASCADE, related_name="+", db_index=False)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="conversations"
    )
    # Encrypted: taken from the first message by default (the API bounds it to 200 characters).
    title = EncryptedTextField(blank=True, default="")
    # The client's own data (PATCH conversations/{id}/ replaces it); nothing here drives a reply.
    # Encrypted: a client may keep what its user typed here (a draft, a note).
    metadata = EncryptedJSONField(default=dict, blank=True)
    # The assistant's state (conversations.assistant.state): the open wizard, the options last
    # offered. The server's alone: written only by the chat turn, with the reply it goes with.
    assistant_state = EncryptedJSONField(default=dict, blank=True, editable=False)
    # Denormalized: the last sequence number handed out, so it is also the number of messages
    # (messages are never deleted one by one). It is the row every append locks.
    message_count = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(default=timezone.now, editable=False)
    updated_at = models.DateTimeField(default=timezone.now)
    # The turn lease (ConversationQuerySet): who is answering this conversation, until when.
    turn_owner = models.CharField(max_length=32, blank=True, default="", editable=False)
    turn_lease_until = models.DateTimeField(null=True, blank=True, editable=False)

    objects = ConversationManager()

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
    # Encrypted: it can quote what the user typed (the intent's entities, what a reply showed).
    metadata = EncryptedJSONField(default=dict, blank=True)
    # Plain copies of the labels the metadata holds, for lookups the database must answer:
    # the reply to a user message (a re-send), and the admin's filters on the intent.
    reply_to = models.CharField(max_length=26, blank=True, default="")
    intent_action = models.CharField(max_length=32, blank=True, default="")
    intent_method = models.CharField(max_length=16, blank=True, default="")
    # Who wrote it: the conversation's user for a user message, null for the assistant's. It
    # scopes client_message_id: a client's key names one message of that user, whichever
    # conversation (a first message re-sent has no conversation id to be re-sent with).
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="+",
        db_index=False,  # the constraint below leads with it and serves its lookups
        editable=False,
    )
    # Idempotency key from the client: one message per user and key.
    client_message_id = models.CharField(max_length=64, null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now, editable=False)

    objects = TenantManager["Message"]()

    class Meta:
        constraints = (
            # Also the index behind message_page and message_recent (conversation, seq range).
            models.UniqueConstraint(
                fields=("conversation", "seq"), name="message_conversation_seq"
            ),
            # Also the index behind message_by_client_id (a re-sent message, any conversation).
            models.UniqueConstraint(
                fields=("author", "client_message_id"),
                condition=models.Q(client_message_id__isnull=False),
                name="message_client_id_per_user",
            ),
        )
        indexes = (
            # Admin changelist per tenant, newest first.
            models.Index(fields=("tenant", "-created_at"), name="message_tenant_created"),
        )

    def __str__(self) -> str:
        return f"{self.conversation_id}#{self.seq} {self.role}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        # The plain labels follow the metadata (the hot path's INSERT sets them itself).
        intent = self.metadata.get("intent") if isinstance(self.metadata, dict) else None
        intent = intent if isinstance(intent, dict) else {}
        self.reply_to = str((self.metadata or {}).get("reply_to") or "")[:26]
        self.intent_action = str(intent.get("action_type") or "")[:32]
        self.intent_method = str(intent.get("method") or "")[:16]
        super().save(*args, **kwargs)
