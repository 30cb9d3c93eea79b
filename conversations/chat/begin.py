"""The turn's first trip to the database: the conversation, the turn lease, the user message
and what the assistant reads (its state, the history, the agents).

``TurnBeginning`` holds these steps of ``ChatTurn`` (``conversations.chat.turn``), with their
degraded paths: while storage is unavailable the turn goes on without what it could not read,
and what it could not write waits for the background retry.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

from asgiref.sync import sync_to_async
from django.db import DatabaseError, IntegrityError
from django.utils import timezone

from conversations.agents.selectors import agent_refs
from conversations.assistant.state import AssistantState
from conversations.chat.commit import turn_commit_pending
from conversations.chat.frames import ChatError, storage_refused
from conversations.chat.lease import lease_expiry
from conversations.chat.pending import PendingTurn, backlog_flush
from conversations.chat.turn_base import TurnBase
from conversations.models import Conversation, Message, new_id
from conversations.store import selectors, services
from conversations.store.context import conversation_history
from conversations.store.outage import TRANSIENT_STORAGE_ERRORS
from conversations.store.services import PendingMessage
from intents.services import mentions
from intents.types import AgentRef, HistoryTurn

logger = logging.getLogger("omniforge.chat")
_T = TypeVar("_T")

# How long a second message of a conversation waits for the turn before it is refused (409).
TURN_WAIT_S = 30.0


def _replay(conversation: Conversation, user_message: Message) -> Message | None:
    """The reply stored for a user message, when a client re-sends a message it already sent."""
    return (
        conversation.messages.filter(seq__gt=user_message.seq, role=Message.Role.ASSISTANT)
        .filter(reply_to=user_message.id)
        .first()
    )


@dataclass(frozen=True)
class Begun:
    """What the first trip brings back for the rest of the turn."""

    conversation: Conversation
    user_message: Message | PendingMessage
    stored_reply: Message | PendingMessage | None  # the reply to a re-sent message
    history: list[HistoryTurn]
    agents: list[AgentRef]
    state: AssistantState


class TurnBeginning(TurnBase):
    """The steps of ``ChatTurn`` before the assistant runs (a base of it)."""

    # --- begin: conversation, lease, user message, state, history, agents (one trip) ---

    async def _begin(self) -> Begun:
        waited, delay = 0.0, 0.01
        while True:
            begun = await sync_to_async(self._begin_sync)()
            if begun is not None:
                return begun
            if waited >= TURN_WAIT_S:
                raise ChatError(
                    "busy",
                    "Another message of this conversation is still being answered.",
                    status=409,
                )
            await asyncio.sleep(delay)
            waited += delay
            delay = min(delay * 2, 0.2)

    def _begin_sync(self) -> Begun | None:
        """None while another turn of the conversation holds the lease."""
        creating = self.conversation is None and self._recalled is None
        try:
            return self._begin_or_wait()
        except DatabaseError as exc:
            # Transient errors were handled where they happened (the degraded path). A
            # conversation made for a first message that can never be stored goes too: a
            # conversation exists from its first message.
            if creating and self.conversation is not None and self.conversation.pk:
                with contextlib.suppress(DatabaseError):
                    services.conversation_delete(conversation=self.conversation)
                self.conversation = None
            raise storage_refused(exc) from exc

    def _recalled_begun(self, recalled: PendingTurn) -> Begun | None:
        """A re-sent message acknowledged while storage was down: land it, or answer it again.

        Stored now (exactly once: each message keeps the id it was given), the turn is then
        replayed from the database like any re-send; while storage is still unavailable, it
        is replayed from what was remembered, with the same ids.
        """
        try:
            backlog_flush(recalled.conversation_id)  # what was answered before it, first
            turn_commit_pending(
                tenant_id=self.tenant.pk,
                user_id=self.user.pk,
                conversation_id=recalled.conversation_id,
                payload=recalled.payload,
            )
        except TRANSIENT_STORAGE_ERRORS:
            if self.conversation is None:
                now = timezone.now()
                self.conversation = Conversation(
                    id=recalled.conversation_id, tenant=self.tenant, user=self.user,
                    created_at=now, updated_at=now,
                )  # fmt: skip
            return Begun(
                self.conversation, recalled.user_message, recalled.reply, [], [], AssistantState()
            )
        self.conversation = selectors.conversation_get(
            tenant=self.tenant, user=self.user, conversation_id=recalled.conversation_id
        )
        return None

    def _begin_or_wait(self) -> Begun | None:
        if self._recalled is not None:
            recalled, self._recalled = self._recalled, None
            begun = self._recalled_begun(recalled)
            if begun is not None:
                return begun
        if self.conversation is not None and not self._unwritable():
            self._flush_backlog(self.conversation.id)
        self._ensure_conversation()
        assert self.conversation is not None
        if not self._unwritable() and not self._leased:
            leased = Conversation.objects.for_tenant(self.tenant).filter(id=self.conversation.id)
            try:
                if not leased.lease_acquire(
                    owner=self._owner, now=timezone.now(), until=lease_expiry()
                ):
                    return None
                self._leased = True
            except TRANSIENT_STORAGE_ERRORS:
                logger.warning("chat: turn lease unavailable, continuing without it")
                self.degraded.append("turn_lease")
        try:
            user_message, fresh = self._store_user_message()
        except IntegrityError:
            twin = self._twin()
            if twin is None:
                raise
            # A twin request with the same client_message_id stored it first, in a
            # conversation of its own: this turn becomes a re-send of it (next time round).
            self._leave_for(twin)
            self._check_resent(twin.content, twin.conversation_id)
            return None
        stored_reply = None
        if not fresh and isinstance(user_message, Message):
            self._check_resent(user_message.content, self.conversation.id)
            stored_reply = _replay(self.conversation, user_message)
        replaying = stored_reply is not None
        return Begun(
            conversation=self.conversation,
            user_message=user_message,
            stored_reply=stored_reply,
            history=[] if replaying else self._history(exclude=user_message.id),
            agents=[] if replaying else self._agents(),
            state=AssistantState() if replaying else self._state(),
        )

    def _check_resent(self, content: str, conversation_id: str) -> None:
        """A re-send must be the same message, in the same conversation (or in none)."""
        if content != self.content:
            raise ChatError(
                "client_message_id_reused",
                "This client_message_id was already used for another message.",
                status=409,
            )
        if self.conversation_id not in (None, conversation_id):
            raise ChatError(
                "client_message_id_reused",
                "This client_message_id was already used in another conversation.",
                status=409,
            )

    def _twin(self) -> Message | None:
        if not self.client_message_id:
            return None
        return selectors.message_by_client_id(
            tenant=self.tenant, user=self.user, client_message_id=self.client_message_id
        )

    def _leave_for(self, twin: Message) -> None:
        """Give up this turn's conversation for the twin's: release it, or delete it when this
        turn created it for the message (it holds nothing else)."""
        assert self.conversation is not None
        if self._created:
            services.conversation_delete(conversation=self.conversation)
            self._created = False
        elif self._leased:
            self._release()
        self._leased = False
        self.conversation = twin.conversation

    def _flush_backlog(self, conversation_id: str) -> None:
        """Store the conversation's turns answered in an outage first, so this one follows
        them; while that fails, this turn's messages join them (in order) instead."""
        try:
            backlog_flush(conversation_id)
        except TRANSIENT_STORAGE_ERRORS:
            logger.warning("chat: earlier turns are still waiting for storage")
            self.degraded.append("backlog")

    def _unwritable(self) -> bool:
        """Storage failed this turn once already: its messages go to the background retry
        without trying again (each try can wait for the pool's timeout)."""
        return bool(self.degraded)

    def _ensure_conversation(self) -> None:
        if self.conversation is not None:
            return
        try:
            self.conversation = services.conversation_create(tenant=self.tenant, user=self.user)
            self._created = True
        except TRANSIENT_STORAGE_ERRORS:
            logger.warning("chat: could not create the conversation, continuing", exc_info=True)
            self.degraded.append("conversation_create")
            now = timezone.now()
            # Not saved: the background retry creates it with this id before the messages.
            self.conversation = Conversation(
                id=new_id(), tenant=self.tenant, user=self.user, created_at=now, updated_at=now
            )

    def _store_user_message(self) -> tuple[Message | PendingMessage, bool]:
        assert self.conversation is not None
        pending = PendingMessage(
            id=new_id(),
            role=Message.Role.USER,
            content=self.content,  # as typed: encrypted at rest like every message
            # Flagged, never repeated: what kind of secret it held, not the secret.
            metadata={"secrets": list(self.redacted.kinds)} if self.redacted.found else {},
            client_message_id=self.client_message_id,
            created_at=timezone.now(),
        )
        if not self._unwritable():
            try:
                added = pending.store(self.conversation)
                return added.message, added.created
            except TRANSIENT_STORAGE_ERRORS:
                logger.warning("chat: could not store the user message, will retry", exc_info=True)
        if "user_message" not in self.degraded and "conversation_create" not in self.degraded:
            self.degraded.append("user_message")  # not stored yet: the retry stores it
        self._unstored.append(pending)
        return pending, True

    def _read(self, part: str, read: Callable[[], _T], without: _T) -> _T:
        """A read the turn can do without while storage is unavailable (it says so)."""
        if self._unwritable():
            return without
        try:
            return read()
        except TRANSIENT_STORAGE_ERRORS:
            logger.warning("chat: could not read the %s, answering without it", part)
            self.degraded.append(part)
            return without

    def _state(self) -> AssistantState:
        """The assistant's state as the lease holder sees it (read after taking the lease)."""
        assert self.conversation is not None
        conversation = self.conversation
        stored = self._read(
            "state",
            lambda: selectors.conversation_assistant_state(conversation=conversation),
            conversation.assistant_state,
        )
        return AssistantState.from_json(stored)

    def _history(self, *, exclude: str) -> list[HistoryTurn]:
        assert self.conversation is not None
        conversation = self.conversation
        return self._read(
            "history", lambda: conversation_history(conversation, exclude=exclude), []
        )

    def _agents(self) -> list[AgentRef]:
        return self._read(
            "agents", lambda: agent_refs(self.tenant, mentioned=mentions(self.content)), []
        )
