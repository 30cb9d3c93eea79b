"""One chat turn, as an async stream of events: the service behind ``POST chat/`` and the socket.

A turn: resolve or create the conversation (inside the caller's tenant and user), take the
conversation's turn lease, store the user message, assemble the context window, classify, let
the master agent answer, stream the answer, store it with its metadata, release the lease.

Events are the WebSocket frames of the contract (``ack``, ``thinking``, ``intent``, ``chunk``,
``done``), with the stored message objects attached for the REST adapter.

No model call runs inside a database transaction. When storage fails the user still gets the
reply: what could not be written is handed to a background retry that lands it exactly once
(each message's id is chosen up front and is its idempotency key), and the reply's metadata
says the turn ran degraded.
"""

from __future__ import annotations

import asyncio
import logging
import re
import uuid
from collections.abc import AsyncGenerator, AsyncIterator
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from asgiref.sync import sync_to_async
from django.conf import settings
from django.contrib.auth.models import User
from django.core.exceptions import ObjectDoesNotExist
from django.db import DatabaseError
from django.db.models import Q
from django.utils import timezone

from conversations import services
from conversations.context import assemble_context, to_history
from conversations.master_agent import Reply, Turn, master_agent_respond
from conversations.models import Conversation, Message, Tenant, new_id
from conversations.services import PendingMessage
from conversations.tasks import pending_messages_schedule
from intents.services import agent_refs, aintent_classify, mentions
from intents.types import AgentRef, HistoryTurn, IntentResult

logger = logging.getLogger("omniforge.chat")

TURN_LEASE_S = 60.0  # longer than any turn: LLM timeout x attempts plus backoff
TURN_WAIT_S = 30.0
CHUNK_CHARS = 80
_CHUNK_RE = re.compile(r"\S+\s*|\s+")


class ChatError(Exception):
    """A turn that cannot start: bad input, or a conversation that is not the caller's."""

    def __init__(self, code: str, detail: str, *, status: int = 400) -> None:
        super().__init__(detail)
        self.code = code
        self.detail = detail
        self.status = status


def message_dict(message: Message | PendingMessage, conversation_id: str) -> dict[str, Any]:
    """A message as the API and the socket show it."""
    created = message.created_at
    return {
        "id": message.id,
        "conversation_id": conversation_id,
        "role": message.role,
        "content": message.content,
        "created_at": created.isoformat().replace("+00:00", "Z")
        if isinstance(created, datetime)
        else created,
        "metadata": message.metadata,
    }


def validate_message(content: Any) -> str:
    if not isinstance(content, str):
        raise ChatError("invalid_message", "The message must be a string.")
    if not content.strip():
        raise ChatError("empty_message", "The message is empty.")
    limit = settings.OMNIFORGE_MESSAGE_MAX_CHARS
    if len(content) > limit:
        raise ChatError("message_too_long", f"The message is longer than {limit} characters.")
    return content.strip()


def chunks_of(text: str, size: int = CHUNK_CHARS) -> list[str]:
    """The reply in pieces of about ``size`` characters, split between words."""
    pieces: list[str] = []
    current = ""
    for token in _CHUNK_RE.findall(text):
        if current and len(current) + len(token) > size:
            pieces.append(current)
            current = ""
        current += token
    if current:
        pieces.append(current)
    return pieces or [text]


# --- The turn lease --------------------------------------------------------------------------


def turn_lease_acquire(*, conversation: Conversation, owner: str) -> bool:
    """Take the conversation's turn lease if it is free, expired or already ours."""
    now = timezone.now()
    taken = (
        Conversation.objects.for_tenant(conversation.tenant_id)
        .filter(id=conversation.id)
        .filter(
            Q(turn_lease_until__isnull=True) | Q(turn_lease_until__lt=now) | Q(turn_owner=owner)
        )
        .update(turn_owner=owner, turn_lease_until=now + timedelta(seconds=TURN_LEASE_S))
    )
    return taken == 1


def turn_lease_release(*, conversation: Conversation, owner: str) -> None:
    Conversation.objects.for_tenant(conversation.tenant_id).filter(
        id=conversation.id, turn_owner=owner
    ).update(turn_owner="", turn_lease_until=None)


def _replay(conversation: Conversation, user_message: Message) -> Message | None:
    """The reply stored for a user message, when a client re-sends a message it already sent."""
    return (
        conversation.messages.filter(seq__gt=user_message.seq, role=Message.Role.ASSISTANT)
        .filter(metadata__reply_to=user_message.id)
        .first()
    )


# --- The turn --------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Begun:
    conversation: Conversation
    user_message: Message | PendingMessage
    stored_reply: Message | None  # the reply already stored for a re-sent message
    history: list[HistoryTurn]
    agents: list[AgentRef]


@dataclass
class ChatTurn:
    """One turn. ``open()`` checks everything that can be refused, ``events()`` runs it."""

    tenant: Tenant
    user: User
    role: str
    content: str
    conversation_id: str | None = None
    client_message_id: str | None = None
    offline_only: bool = False
    stop: asyncio.Event = field(default_factory=asyncio.Event)

    conversation: Conversation | None = None
    degraded: list[str] = field(default_factory=list)
    _pending: list[PendingMessage] = field(default_factory=list)
    _owner: str = field(default_factory=lambda: uuid.uuid4().hex)
    _leased: bool = False
    # While the reply streams: what is needed to store it if the stream is closed early.
    _streaming: tuple[Reply, IntentResult, str, list[str]] | None = None

    async def open(self) -> None:
        self.content = validate_message(self.content)
        if self.client_message_id is not None and (
            not isinstance(self.client_message_id, str) or not 0 < len(self.client_message_id) <= 64
        ):
            raise ChatError(
                "invalid_client_message_id", "client_message_id must be 1-64 characters."
            )
        if self.conversation_id:
            try:
                self.conversation = await services.aconversation_get(
                    tenant=self.tenant, user=self.user, conversation_id=self.conversation_id
                )
            except ObjectDoesNotExist:
                raise ChatError("not_found", "Not found.", status=404) from None

    async def events(self) -> AsyncGenerator[dict[str, Any], None]:
        try:
            async for event in self._run():
                yield event
        finally:
            if self._streaming is not None:
                # The client went away mid-reply (the stream was closed or cancelled): what
                # it was sent is stored, marked interrupted, as after a stop.
                reply, intent, user_message_id, sent = self._streaming
                self._streaming = None
                await sync_to_async(self._finish)(
                    "".join(sent), reply, intent, user_message_id, True
                )
            if self._leased and self.conversation is not None:
                await sync_to_async(self._release)()

    async def _run(self) -> AsyncIterator[dict[str, Any]]:
        # Three trips to the database thread per turn: begin, the master agent, finish.
        begun = await self._begin()
        conversation, user_message = begun.conversation, begun.user_message
        yield {
            "type": "ack",
            "conversation_id": conversation.id,
            "message_id": user_message.id,
            "client_message_id": self.client_message_id,
            "user_message": message_dict(user_message, conversation.id),
        }
        if begun.stored_reply is not None:
            async for event in self._replay_events(begun.stored_reply):
                yield event
            return

        yield {"type": "thinking"}
        intent = await aintent_classify(
            tenant=self.tenant,
            message=self.content,
            history=begun.history,
            agents=begun.agents,
            wizard=(conversation.metadata or {}).get("wizard"),
            offline_only=self.offline_only,
        )
        yield {"type": "intent", "intent": intent.to_dict()}

        reply = await self._respond(intent, begun.history, user_message.id)
        sent: list[str] = []
        self._streaming = (reply, intent, user_message.id, sent)
        interrupted = False
        for piece in chunks_of(reply.content):
            if self.stop.is_set():
                interrupted = True
                break
            sent.append(piece)
            yield {"type": "chunk", "content": piece}
            await asyncio.sleep(0)  # let a stop frame or a disconnect arrive between chunks
        self._streaming = None
        content = "".join(sent) if interrupted else reply.content
        assistant = await sync_to_async(self._finish)(
            content, reply, intent, user_message.id, interrupted
        )
        yield {
            "type": "done",
            "message_id": assistant.id,
            "content": content,
            "interrupted": interrupted,
            "conversation_id": conversation.id,
            "user_message_id": user_message.id,
            "assistant_message": message_dict(assistant, conversation.id),
            "intent": intent.to_dict(),
        }

    async def _replay_events(self, reply: Message) -> AsyncIterator[dict[str, Any]]:
        intent = reply.metadata.get("intent") or {}
        yield {"type": "intent", "intent": intent}
        for piece in chunks_of(reply.content):
            yield {"type": "chunk", "content": piece}
        yield {
            "type": "done",
            "message_id": reply.id,
            "content": reply.content,
            "interrupted": bool(reply.metadata.get("interrupted")),
            "conversation_id": reply.conversation_id,
            "user_message_id": reply.metadata.get("reply_to"),
            "assistant_message": message_dict(reply, reply.conversation_id),
            "intent": intent,
            "replayed": True,
        }

    # --- begin: conversation, lease, user message, history, agents (one trip) ---

    async def _begin(self) -> _Begun:
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

    def _begin_sync(self) -> _Begun | None:
        """None while another turn of the conversation holds the lease."""
        self._ensure_conversation()
        assert self.conversation is not None
        if "conversation_create" not in self.degraded and not self._leased:
            try:
                if not turn_lease_acquire(conversation=self.conversation, owner=self._owner):
                    return None
                self._leased = True
            except DatabaseError:
                logger.warning("chat: turn lease unavailable, continuing without it")
                self.degraded.append("turn_lease")
        user_message, fresh = self._store_user_message()
        stored_reply = None
        if not fresh and isinstance(user_message, Message):
            stored_reply = _replay(self.conversation, user_message)
        return _Begun(
            conversation=self.conversation,
            user_message=user_message,
            stored_reply=stored_reply,
            history=self._history(exclude=user_message.id) if stored_reply is None else [],
            agents=self._agents() if stored_reply is None else [],
        )

    def _ensure_conversation(self) -> None:
        if self.conversation is not None:
            return
        try:
            self.conversation = services.conversation_create(tenant=self.tenant, user=self.user)
        except DatabaseError:
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
            content=self.content,
            metadata={},
            client_message_id=self.client_message_id,
            created_at=timezone.now(),
        )
        if "conversation_create" not in self.degraded:
            try:
                added = pending.store(self.conversation)
                return added.message, added.created
            except DatabaseError:
                logger.warning("chat: could not store the user message, will retry", exc_info=True)
                self.degraded.append("user_message")
        self._pending.append(pending)
        return pending, True

    def _history(self, *, exclude: str) -> list[HistoryTurn]:
        assert self.conversation is not None
        if "conversation_create" in self.degraded:
            return []
        try:
            recent = services.message_recent(
                conversation=self.conversation, limit=settings.OMNIFORGE_CONTEXT_MAX_MESSAGES + 1
            )
        except DatabaseError:
            logger.warning("chat: could not read history, classifying without it")
            self.degraded.append("history")
            return []
        window = assemble_context(
            [m for m in recent if m.id != exclude],
            token_budget=settings.OMNIFORGE_CONTEXT_TOKEN_BUDGET,
            max_messages=settings.OMNIFORGE_CONTEXT_MAX_MESSAGES,
        )
        return to_history(window)

    def _agents(self) -> list[AgentRef]:
        try:
            return agent_refs(self.tenant, mentioned=mentions(self.content))
        except DatabaseError:
            logger.warning("chat: could not read the tenant's agents, classifying without them")
            self.degraded.append("agents")
            return []

    def _release(self) -> None:
        assert self.conversation is not None
        try:
            turn_lease_release(conversation=self.conversation, owner=self._owner)
        except DatabaseError:
            # The lease expires by itself; the next turn waits at most TURN_LEASE_S.
            logger.warning("chat: could not release the turn lease", exc_info=True)
        self._leased = False

    async def _respond(
        self, intent: IntentResult, history: list[HistoryTurn], message_id: str
    ) -> Reply:
        assert self.conversation is not None
        turn = Turn(
            tenant=self.tenant,
            user=self.user,
            role=self.role,
            conversation=self.conversation,
            message=self.content,
            message_id=message_id,
            intent=intent,
            history=history,
        )
        try:
            return await sync_to_async(master_agent_respond)(turn)
        except DatabaseError:
            logger.warning("chat: storage refused the master agent's changes", exc_info=True)
            self.degraded.append("action")
            return Reply(
                "I couldn't complete that just now because storage is unavailable. Nothing was "
                "changed; please try again in a moment.",
                decision="storage_unavailable",
            )

    def _finish(
        self, content: str, reply: Reply, intent: IntentResult, reply_to: str, interrupted: bool
    ) -> Message | PendingMessage:
        """Store the reply, or hand the turn's unwritten messages to the retry; free the lease."""
        assert self.conversation is not None
        metadata: dict[str, Any] = {
            **reply.meta,
            "intent": intent.to_dict(),
            "routing": reply.decision,
            "reply_to": reply_to,
        }
        if intent.usage:
            metadata["intent_usage"] = dict(intent.usage)
        if interrupted:
            metadata["interrupted"] = True
        if self.degraded:
            metadata["degraded"] = list(self.degraded)
        pending = PendingMessage(
            id=new_id(),
            role=Message.Role.ASSISTANT,
            content=content,
            metadata=metadata,
            client_message_id=None,
            created_at=timezone.now(),
        )
        if not self._pending:
            try:
                added = pending.store(self.conversation)
                self._release_if_leased()
                return added.message
            except DatabaseError:
                logger.warning("chat: could not store the reply, will retry", exc_info=True)
                self.degraded.append("assistant_message")
        # Written in order after the user message, by the background retry.
        pending.metadata["degraded"] = list(self.degraded)
        self._pending.append(pending)
        pending_messages_schedule(
            tenant_id=self.tenant.pk,
            user_id=self.user.pk,
            conversation_id=self.conversation.id,
            messages=self._pending,
        )
        self._release_if_leased()
        return pending

    def _release_if_leased(self) -> None:
        if self._leased:
            self._release()
