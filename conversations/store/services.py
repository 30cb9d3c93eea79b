"""Writes of conversations and messages; every entry point is tenant-checked.

The HTTP views, the WebSocket consumer and the chat turn call these (and the reads in
``selectors``) and nothing below them. Async callers use the ``a``-prefixed twins, which run
the same code in Django's sync thread.
"""

from __future__ import annotations

import json
import logging
import operator
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from functools import reduce
from typing import Any

from asgiref.sync import sync_to_async
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.core.serializers.json import DjangoJSONEncoder
from django.db import IntegrityError, connection, transaction
from django.db.models import Q
from django.utils import timezone

from conversations.models import Conversation, Message, Tenant, new_id
from conversations.models.fields import encrypt_text
from conversations.store.broadcast import conversation_changed
from conversations.store.plain import plain_words
from conversations.store.selectors import table
from conversations.store.tokens import count_tokens
from intents.redaction import redact

logger = logging.getLogger("omniforge.store")

TITLE_MAX_CHARS = 60


@dataclass(frozen=True)
class AddedMessage:
    message: Message
    created: bool  # False when client_message_id named a message stored earlier


class _AlreadyStored(Exception):
    def __init__(self, message: Message) -> None:
        self.message = message


def title_from_text(text: str) -> str:
    # A title never repeats a secret, nor Markdown's markup ("```python", "**", "# ").
    line = plain_words(redact(text).text)
    if len(line) <= TITLE_MAX_CHARS:
        return line
    return line[: TITLE_MAX_CHARS - 1].rsplit(" ", 1)[0].rstrip(" ,.;:") + "…"


def conversation_create(
    *,
    tenant: Tenant,
    user: User,
    title: str = "",
    metadata: dict[str, Any] | None = None,
) -> Conversation:
    now = timezone.now()
    conversation = Conversation.objects.create(
        tenant=tenant,
        user=user,
        title=title.strip(),
        metadata=metadata or {},
        created_at=now,
        updated_at=now,
    )
    conversation_changed(conversation, "created")
    return conversation


def conversation_update(
    *,
    conversation: Conversation,
    title: str | None = None,
    metadata: dict[str, Any] | None = None,
) -> Conversation:
    fields = ["updated_at"]
    if title is not None:
        conversation.title = title.strip()
        fields.append("title")
    if metadata is not None:
        conversation.metadata = metadata
        fields.append("metadata")
    conversation.updated_at = timezone.now()
    conversation.save(update_fields=fields)
    conversation_changed(conversation, "updated")
    return conversation


def conversation_delete(*, conversation: Conversation) -> None:
    conversation_changed(conversation, "deleted")  # sent once the deletion is committed
    conversation.delete()


def _next_seq(
    conversation: Conversation,
    *,
    now: datetime,
    title: str,
    assistant_state: Mapping[str, Any] | None = None,
    release_lease_of: str | None = None,
) -> int:
    """Bump the conversation's counter and return the new value, in one statement.

    The UPDATE takes the row's write lock (PostgreSQL) or runs inside the IMMEDIATE
    transaction's database lock (SQLite) until commit, so concurrent appenders to one
    conversation queue here and each gets the next number: no gaps, no duplicates.
    RETURNING saves the second round trip a read-back would cost on every message. The
    assistant's new state, when the message is a reply, rides in the same statement, and so
    does the release of the turn lease of the turn that wrote it.
    """
    state_sql, state_params = "", []
    if assistant_state is not None:
        field = Conversation._meta.get_field("assistant_state")
        state_sql = ", assistant_state = %s"
        state_params = [field.get_db_prep_save(dict(assistant_state), connection)]
    if release_lease_of is not None:
        # Both CASEs read the row as it was: only the lease's owner frees it.
        state_sql += (
            ", turn_lease_until = CASE WHEN turn_owner = %s THEN NULL ELSE turn_lease_until END"
            ", turn_owner = CASE WHEN turn_owner = %s THEN '' ELSE turn_owner END"
        )
        state_params += [release_lease_of, release_lease_of]
    sql = (
        f"UPDATE {table(Conversation)} SET message_count = message_count + 1, "  # noqa: S608
        f"updated_at = %s, title = CASE WHEN title = '' THEN %s ELSE title END{state_sql} "
        "WHERE id = %s AND tenant_id = %s RETURNING message_count"
    )
    params = [
        connection.ops.adapt_datetimefield_value(now),
        # Encrypted like the column (an empty title stays empty: "not set yet" stays a compare).
        Conversation._meta.get_field("title").get_db_prep_save(title, connection),
        *state_params,
        conversation.id,
        conversation.tenant_id,
    ]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        row = cursor.fetchone()
    if row is None:
        raise Conversation.DoesNotExist("The conversation was deleted.")
    return int(row[0])


_INSERT_COLUMNS = (
    "id", "tenant_id", "conversation_id", "seq", "role", "content", "token_count", "metadata",
    "reply_to", "intent_action", "intent_method", "author_id", "client_message_id", "created_at",
)  # fmt: skip


def _plain_labels(metadata: Mapping[str, Any]) -> tuple[str, str, str]:
    """What stays readable beside the encrypted metadata: reply_to, intent action and method."""
    intent = metadata.get("intent")
    intent = intent if isinstance(intent, Mapping) else {}
    return (
        str(metadata.get("reply_to") or "")[:26],
        str(intent.get("action_type") or "")[:32],
        str(intent.get("method") or "")[:16],
    )


def _insert_message(message: Message) -> None:
    # The append is the per-turn hot path: a parameterized INSERT costs a third of what
    # Model.save() does (measured in `make bench`), with the same field conversions applied.
    sql = (
        f"INSERT INTO {table(Message)} ({', '.join(_INSERT_COLUMNS)}) "  # noqa: S608
        f"VALUES ({', '.join(['%s'] * len(_INSERT_COLUMNS))})"
    )
    params: list[Any] = [
        message.id,
        message.tenant_id,
        message.conversation_id,
        message.seq,
        message.role,
        encrypt_text(message.content),
        message.token_count,
        encrypt_text(json.dumps(message.metadata, cls=DjangoJSONEncoder)),
        *_plain_labels(message.metadata),
        message.author_id,
        message.client_message_id,
        connection.ops.adapt_datetimefield_value(message.created_at),
    ]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
    message._state.adding = False
    message._state.db = connection.alias


def _idempotency_keys(client_message_id: str | None, message_id: str | None) -> list[Q]:
    keys = []
    if client_message_id is not None:
        keys.append(Q(client_message_id=client_message_id))
    if message_id is not None:
        keys.append(Q(id=message_id))
    return keys


def message_add(
    *,
    conversation: Conversation,
    role: str,
    content: str,
    metadata: dict[str, Any] | None = None,
    client_message_id: str | None = None,
    message_id: str | None = None,
    created_at: datetime | None = None,
    assistant_state: Mapping[str, Any] | None = None,
    release_lease_of: str | None = None,
) -> AddedMessage:
    """Append a message: the next sequence number, the conversation's counters, in one commit.

    Idempotent under ``client_message_id`` (the client's key) and under ``message_id`` (an id
    chosen before a write that may be retried): a key the conversation already has returns the
    stored message (``created=False``) and changes nothing. The same ``client_message_id`` in
    another conversation of the same user is an ``IntegrityError`` (one key, one message per
    user: the chat turn finds that message with ``message_by_client_id``). ``assistant_state``
    replaces the conversation's assistant state in the same statement (a reply and the state
    it leaves).
    """
    if role not in Message.Role.values:
        raise ValidationError(f"Unknown role {role!r}.", code="invalid_role")
    message = Message(
        id=message_id or new_id(),
        tenant_id=conversation.tenant_id,
        conversation=conversation,
        role=role,
        content=content,
        token_count=count_tokens(content),
        metadata=metadata or {},
        author_id=conversation.user_id if role == Message.Role.USER else None,
        client_message_id=client_message_id,
        created_at=created_at or timezone.now(),
    )
    auto_title = title_from_text(content) if role == Message.Role.USER else ""
    try:
        with transaction.atomic():
            message.seq = _next_seq(
                conversation,
                now=message.created_at,
                title=auto_title,
                assistant_state=assistant_state,
                release_lease_of=release_lease_of,
            )
            keys = _idempotency_keys(client_message_id, message_id)
            if keys:
                # Checked after the counter's lock is held, so a concurrent twin has committed.
                existing = conversation.messages.filter(reduce(operator.or_, keys)).first()
                if existing is not None:
                    raise _AlreadyStored(existing)  # rolls the counter back
            _insert_message(message)
    except _AlreadyStored as dup:
        return AddedMessage(message=dup.message, created=False)
    except IntegrityError:
        keys = _idempotency_keys(client_message_id, message_id)
        # A twin with the same key won the race on a backend without the lock above; any
        # other integrity error is the database refusing this message.
        existing = (
            conversation.messages.filter(reduce(operator.or_, keys)).first() if keys else None
        )
        if existing is None:
            raise
        return AddedMessage(message=existing, created=False)
    conversation.message_count = message.seq
    conversation.updated_at = message.created_at
    if assistant_state is not None:
        conversation.assistant_state = dict(assistant_state)
    if auto_title and not conversation.title:
        conversation.title = auto_title
    return AddedMessage(message=message, created=True)


amessage_add = sync_to_async(message_add)


# --- Writes that failed during a chat turn ----------------------------------------------------


@dataclass
class PendingMessage:
    """A message whose write failed; its id, chosen up front, makes the retry idempotent."""

    id: str
    role: str
    content: str
    metadata: dict[str, Any]
    client_message_id: str | None
    created_at: datetime
    assistant_state: dict[str, Any] | None = None  # a reply's: the state it leaves

    def store(
        self, conversation: Conversation, *, release_lease_of: str | None = None
    ) -> AddedMessage:
        """Append it, once: a message with this id already stored is returned instead."""
        return message_add(
            release_lease_of=release_lease_of,
            conversation=conversation,
            role=self.role,
            content=self.content,
            metadata=self.metadata,
            client_message_id=self.client_message_id,
            message_id=self.id,
            created_at=self.created_at,
            assistant_state=self.assistant_state,
        )

    @classmethod
    def of(cls, message: Message | PendingMessage) -> PendingMessage:
        if isinstance(message, PendingMessage):
            return message
        return cls(
            id=message.id,
            role=message.role,
            content=message.content,
            metadata=message.metadata,
            client_message_id=message.client_message_id,
            created_at=message.created_at,
        )

    def to_payload(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "role": self.role,
            "content": self.content,
            "metadata": self.metadata,
            "client_message_id": self.client_message_id,
            "created_at": self.created_at.isoformat(),
            "assistant_state": self.assistant_state,
        }

    @classmethod
    def from_payload(cls, payload: dict[str, Any]) -> PendingMessage:
        return cls(**{**payload, "created_at": datetime.fromisoformat(payload["created_at"])})
