"""One chat turn, as an async stream of events: the service behind ``POST chat/`` and the socket.

A turn: resolve or create the conversation (inside the caller's tenant and user), take the
conversation's turn lease, store the user message, load the assistant's state and the context
window, classify, let the assistant decide, stream the answer, then commit what it decided
(its effects, the reply and the new state, in one transaction) and release the lease.

Events are the WebSocket frames of the contract (``ack``, ``thinking``, ``intent``, ``chunk``,
``done``), with the stored message objects attached for the REST adapter.

No model call runs inside a database transaction. When storage is briefly unavailable the
user still gets the reply: what could not be written is handed to a background retry that
commits it exactly once (every message and effect has an id chosen up front), and the reply's
metadata says the turn ran degraded.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import functools
import logging
import uuid
from collections.abc import AsyncGenerator, AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from asgiref.sync import sync_to_async
from django.contrib.auth.models import User
from django.core.exceptions import ObjectDoesNotExist
from django.db import DatabaseError, IntegrityError
from django.utils import timezone

from conversations.agents.selectors import agent_refs
from conversations.assistant.outcome import Outcome, Reply, Turn
from conversations.assistant.respond import assistant_respond
from conversations.assistant.state import AssistantState
from conversations.chat.commit import turn_commit_or_correct, turn_commit_pending, turn_payload
from conversations.chat.frames import (
    ChatError,
    chunks_of,
    message_dict,
    replay_frames,
    storage_refused,
)
from conversations.chat.lease import lease_expiry, lease_keep
from conversations.chat.pending import (
    PendingTurn,
    backlog_flush,
    pending_turn_recall,
    pending_turn_remember,
)
from conversations.models import Conversation, Message, Tenant, new_id
from conversations.store import selectors, services
from conversations.store.context import conversation_history
from conversations.store.outage import TRANSIENT_STORAGE_ERRORS, UNAVAILABLE
from conversations.store.services import PendingMessage
from conversations.tasks import turn_commit_schedule
from intents.redaction import Redacted, notice, redact
from intents.services import aintent_classify, mentions
from intents.types import CLARIFY_BELOW, ActionType, AgentRef, HistoryTurn, IntentResult

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


def _in_its_flow(intent: IntentResult, outcome: Outcome) -> IntentResult:
    """An answer inside a flow (a wizard, a skill session) carries the flow's action."""
    if outcome.action is None or outcome.action == intent.action_type:
        return intent
    flow = "skill session" if outcome.action == ActionType.CREATE_SKILL else "setup"
    return dataclasses.replace(
        intent,
        action_type=outcome.action,
        is_ambiguous=False,
        alternative_action=None,
        clarifying_question=None,
        confidence=max(intent.confidence, CLARIFY_BELOW),
        reasoning="An answer in the open " + flow + ".",
    )


@dataclass(frozen=True)
class _Begun:
    conversation: Conversation
    user_message: Message | PendingMessage
    stored_reply: Message | PendingMessage | None  # the reply to a re-sent message
    history: list[HistoryTurn]
    agents: list[AgentRef]
    state: AssistantState


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
    # The conversation as the asking socket last saw it: what the turn goes on with when
    # storage cannot be read (a socket already open keeps being answered in an outage).
    known: Conversation | None = None
    stop: asyncio.Event = field(default_factory=asyncio.Event)

    conversation: Conversation | None = None
    degraded: list[str] = field(default_factory=list)
    # This turn's messages that storage refused, in order, for the background retry.
    _unstored: list[PendingMessage] = field(default_factory=list)
    # A turn acknowledged earlier under this client_message_id, not stored yet.
    _recalled: PendingTurn | None = None
    _owner: str = field(default_factory=lambda: uuid.uuid4().hex)
    _leased: bool = False
    _created: bool = False  # this turn created the conversation (for its first message)
    _heartbeat: asyncio.Task[None] | None = None
    _user_message: Message | PendingMessage | None = None
    # While the reply streams: what is needed to store it if the stream is closed early.
    _streaming: tuple[Outcome, AssistantState, IntentResult | None, str, list[str]] | None = None

    @functools.cached_property
    def redacted(self) -> Redacted:
        """The message with any secret replaced: what classification and the assistant see."""
        return redact(self.content)

    async def open(self) -> None:
        """Resolve the conversation; the door has validated the message (ChatRequestSerializer).

        A ``client_message_id`` names one message of the user: sent again, with or without a
        conversation id, it resumes that message's conversation and answers the stored turn
        (a client killed during its first turn never learned the conversation's id); sent
        with another message or into another conversation, it is refused (409).
        """
        if self.client_message_id:
            await self._resume_resent()
        if self.conversation_id:
            try:
                self.conversation = await selectors.aconversation_get(
                    tenant=self.tenant, user=self.user, conversation_id=self.conversation_id
                )
            except ObjectDoesNotExist:
                if self._known_here():
                    # Created in an outage, announced to this socket; the backlog stores it.
                    self.conversation = self.known
                    return
                recalled = self._recalled
                if recalled is None or recalled.conversation_id != self.conversation_id:
                    raise ChatError("not_found", "Not found.", status=404) from None
                # Acknowledged with this id while storage was down; the retry creates it.
            except DatabaseError as exc:
                if not isinstance(exc, TRANSIENT_STORAGE_ERRORS):
                    raise storage_refused(exc) from exc
                if not self._known_here():
                    raise ChatError("unavailable", UNAVAILABLE, status=503) from exc
                logger.warning("chat: storage unavailable, answering on what the socket knows")
                self.conversation = self.known
                self.degraded.append("conversation")

    async def _resume_resent(self) -> None:
        assert self.client_message_id is not None
        self._recalled = await sync_to_async(pending_turn_recall)(
            tenant_id=self.tenant.pk,
            user_id=self.user.pk,
            client_message_id=self.client_message_id,
        )
        if self._recalled is not None:
            sent = self._recalled.user_message
            # Answered while storage was down: _recalled_begun lands it, or replays it.
            self._check_resent(sent.content, self._recalled.conversation_id)
            return
        if self.conversation_id:
            # The conversation is known: storing the message finds a re-send (same
            # conversation) or refuses it (the per-user key constraint), at no extra query.
            return
        try:
            stored = await selectors.amessage_by_client_id(
                tenant=self.tenant, user=self.user, client_message_id=self.client_message_id
            )
        except DatabaseError as exc:
            if not isinstance(exc, TRANSIENT_STORAGE_ERRORS):
                raise storage_refused(exc) from exc
            return  # storage is down: the turn goes on degraded, as any turn does
        if stored is not None:
            self._check_resent(stored.content, stored.conversation_id)
            self.conversation_id = stored.conversation_id

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

    def _known_here(self) -> bool:
        return self.known is not None and self.known.id == self.conversation_id

    async def events(self) -> AsyncGenerator[dict[str, Any], None]:
        try:
            async for event in self._run():
                yield event
        finally:
            if self._streaming is not None:
                # The client went away mid-reply (the stream was closed or cancelled): what
                # it was sent is stored, marked interrupted, as after a stop.
                outcome, state, intent, user_message_id, sent = self._streaming
                self._streaming = None
                await sync_to_async(self._finish)(
                    "".join(sent), outcome, state, intent, user_message_id, True
                )
            if self._heartbeat is not None:
                self._heartbeat.cancel()
            if self._leased and self.conversation is not None:
                await sync_to_async(self._release)()

    async def _run(self) -> AsyncIterator[dict[str, Any]]:
        # Three trips to the database thread per turn: begin, the assistant, finish.
        begun = await self._begin()
        conversation, user_message = begun.conversation, begun.user_message
        self._user_message = user_message
        if self._leased:
            leased = Conversation.objects.for_tenant(self.tenant).filter(id=conversation.id)
            self._heartbeat = asyncio.create_task(lease_keep(leased, owner=self._owner))
        yield {
            "type": "ack",
            "conversation_id": conversation.id,
            "message_id": user_message.id,
            "client_message_id": self.client_message_id,
            "user_message": message_dict(user_message, conversation.id),
            "replayed": begun.stored_reply is not None,
        }
        if begun.stored_reply is not None:
            for event in replay_frames(begun.stored_reply, conversation.id):
                yield event
            return

        yield {"type": "thinking"}
        wizard = begun.state.wizard
        intent = await self._unless_stopped(
            aintent_classify(
                message=self.redacted.text,
                history=begun.history,
                agents=begun.agents,
                # What the assistant has open, from its state: both tiers decide on the same.
                wizard=wizard.to_json() if wizard else {},
                offline_only=self.offline_only,
            )
        )
        if intent is None:  # stopped while it was being classified: nothing is decided
            outcome = Outcome(Reply("", decision="stopped_before_answer"), begun.state)
        else:
            outcome = await self._respond(intent, begun)
            intent = _in_its_flow(intent, outcome)
            yield {"type": "intent", "intent": intent.to_dict()}
            if self.redacted.found:
                # Said once, in the reply to the message that held it.
                outcome.reply.content = f"{outcome.reply.content}\n\n{notice(self.redacted)}"
        sent: list[str] = []
        self._streaming = (outcome, begun.state, intent, user_message.id, sent)
        interrupted = intent is None
        for piece in chunks_of(outcome.reply.content) if intent is not None else ():
            if self.stop.is_set():
                interrupted = True
                break
            sent.append(piece)
            yield {"type": "chunk", "content": piece}
            await asyncio.sleep(0)  # let a stop frame or a disconnect arrive between chunks
        self._streaming = None
        content = "".join(sent) if interrupted else outcome.reply.content
        assistant = await sync_to_async(self._finish)(
            content, outcome, begun.state, intent, user_message.id, interrupted
        )
        if self._heartbeat is not None:
            self._heartbeat.cancel()
        # The lease is released in events()'s finally, once the runner has sent ``done`` to the
        # conversation's group: the next turn's ack then follows this turn's done on every
        # socket.
        yield {
            "type": "done",
            "message_id": assistant.id,
            "content": assistant.content,
            "interrupted": interrupted,
            "conversation_id": conversation.id,
            "user_message_id": user_message.id,
            "assistant_message": message_dict(assistant, conversation.id),
            "intent": intent.to_dict() if intent is not None else None,
        }

    async def _unless_stopped(self, work: Awaitable[_T]) -> _T | None:
        """``work``'s result, or None when ``stop`` comes first (the work is cancelled)."""
        task = asyncio.ensure_future(work)
        stopped = asyncio.ensure_future(self.stop.wait())
        await asyncio.wait({task, stopped}, return_when=asyncio.FIRST_COMPLETED)
        stopped.cancel()
        if task.done():
            return task.result()
        task.cancel()
        return None

    # --- begin: conversation, lease, user message, state, history, agents (one trip) ---

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

    def _recalled_begun(self, recalled: PendingTurn) -> _Begun | None:
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
            return _Begun(
                self.conversation, recalled.user_message, recalled.reply, [], [], AssistantState()
            )
        self.conversation = selectors.conversation_get(
            tenant=self.tenant, user=self.user, conversation_id=recalled.conversation_id
        )
        return None

    def _begin_or_wait(self) -> _Begun | None:
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
        return _Begun(
            conversation=self.conversation,
            user_message=user_message,
            stored_reply=stored_reply,
            history=[] if replaying else self._history(exclude=user_message.id),
            agents=[] if replaying else self._agents(),
            state=AssistantState() if replaying else self._state(),
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

    def _release(self) -> None:
        assert self.conversation is not None
        try:
            Conversation.objects.for_tenant(self.tenant).filter(
                id=self.conversation.id
            ).lease_release(owner=self._owner)
        except DatabaseError:
            # The lease expires by itself; the next turn waits at most one lease.
            logger.warning("chat: could not release the turn lease", exc_info=True)
        self._leased = False

    # --- the assistant (reads only) and the commit ---

    async def _respond(self, intent: IntentResult, begun: _Begun) -> Outcome:
        turn = Turn(
            tenant=self.tenant,
            user=self.user,
            role=self.role,
            conversation_id=begun.conversation.id,
            message=self.redacted.text,  # what follows from it never holds a secret
            message_id=begun.user_message.id,
            intent=intent,
            history=begun.history,
            agents=begun.agents,
        )
        try:
            return await sync_to_async(assistant_respond)(begun.state, turn)
        except TRANSIENT_STORAGE_ERRORS:
            logger.warning("chat: storage unavailable while the assistant read", exc_info=True)
            self.degraded.append("action")
            return Outcome(
                Reply(
                    "I couldn't complete that just now because storage is unavailable. Nothing "
                    "was changed; please try again in a moment.",
                    decision="storage_unavailable",
                ),
                begun.state,
            )

    def _finish(
        self,
        content: str,
        outcome: Outcome,
        state_before: AssistantState,
        intent: IntentResult | None,
        reply_to: str,
        interrupted: bool,
    ) -> Message | PendingMessage:
        """Commit the turn, or hand it to the background retry; free the lease."""
        assert self.conversation is not None
        metadata: dict[str, Any] = {
            **outcome.reply.meta,
            "routing": outcome.reply.decision,
            "reply_to": reply_to,
        }
        if intent is not None:
            metadata["intent"] = intent.to_dict()
        if intent is not None and intent.usage:
            metadata["intent_usage"] = dict(intent.usage)
        if interrupted:
            metadata["interrupted"] = True
        if self.degraded:
            metadata["degraded"] = list(self.degraded)
        reply = PendingMessage(
            id=new_id(),
            role=Message.Role.ASSISTANT,
            content=content,
            metadata=metadata,
            client_message_id=None,
            created_at=timezone.now(),
            assistant_state=outcome.state.to_json(),
        )
        effects = outcome.effects
        if interrupted:
            # Stopped: what was shown is stored, and nothing the reply announced is done.
            effects = ()
            reply.assistant_state = state_before.to_json()
        if not self._unstored:
            try:
                stored = turn_commit_or_correct(
                    tenant=self.tenant,
                    user=self.user,
                    conversation=self.conversation,
                    reply=reply,
                    effects=effects,
                    reply_to=reply_to,
                    state_before=state_before,
                )
                return stored
            except TRANSIENT_STORAGE_ERRORS:
                logger.warning("chat: could not store the reply, will retry", exc_info=True)
                self.degraded.append("assistant_message")
        # Committed in order after the user message, by the background retry.
        reply.metadata["degraded"] = list(self.degraded)
        self._unstored.append(reply)
        payload = turn_payload(self._unstored, effects, reply_to)
        turn_commit_schedule(
            tenant_id=self.tenant.pk,
            user_id=self.user.pk,
            conversation_id=self.conversation.id,
            payload=payload,
        )
        if self.client_message_id and self._user_message is not None:
            pending_turn_remember(
                tenant_id=self.tenant.pk,
                user_id=self.user.pk,
                client_message_id=self.client_message_id,
                turn=PendingTurn(
                    conversation_id=self.conversation.id,
                    user_message=PendingMessage.of(self._user_message),
                    reply=reply,
                    payload=payload,
                ),
            )
        self._release_if_leased()
        return reply

    def _release_if_leased(self) -> None:
        if self._leased:
            self._release()
