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
import logging
from collections.abc import AsyncGenerator, AsyncIterator
from dataclasses import dataclass
from typing import Any

from asgiref.sync import sync_to_async
from django.core.exceptions import ObjectDoesNotExist
from django.db import DatabaseError

from conversations.assistant.outcome import Outcome, Reply
from conversations.chat.answer import TurnAnswer, in_its_flow
from conversations.chat.begin import TURN_WAIT_S, Begun, TurnBeginning
from conversations.chat.finish import TurnFinish
from conversations.chat.frames import (
    ChatError,
    chunks_of,
    message_dict,
    replay_frames,
    storage_refused,
)
from conversations.chat.lease import lease_keep
from conversations.chat.pending import pending_turn_recall
from conversations.models import Conversation, Message
from conversations.store import selectors
from conversations.store.outage import TRANSIENT_STORAGE_ERRORS, UNAVAILABLE
from conversations.store.services import PendingMessage
from intents.redaction import notice
from intents.types import IntentResult

# TURN_WAIT_S is the turn's setting, defined where the turn waits for the lease (begin.py).
__all__ = ["TURN_WAIT_S", "ChatTurn"]

logger = logging.getLogger("omniforge.chat")


@dataclass
class ChatTurn(TurnBeginning, TurnAnswer, TurnFinish):
    """One turn. ``open()`` checks everything that can be refused, ``events()`` runs it."""

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
        yield self._ack(begun)
        if begun.stored_reply is not None:
            for event in replay_frames(begun.stored_reply, conversation.id):
                yield event
            return

        yield {"type": "thinking"}
        intent = await self._classify(begun)
        if intent is None:  # stopped while it was being classified: nothing is decided
            outcome = Outcome(Reply("", decision="stopped_before_answer"), begun.state)
        else:
            outcome = await self._respond(intent, begun)
            intent = in_its_flow(intent, outcome)
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
        yield _done(assistant, conversation.id, user_message.id, intent, interrupted)

    def _ack(self, begun: Begun) -> dict[str, Any]:
        """The first frame: the user message as stored (or as it will be), and whether the
        turn is a re-send answered again from what was stored."""
        conversation, user_message = begun.conversation, begun.user_message
        return {
            "type": "ack",
            "conversation_id": conversation.id,
            "message_id": user_message.id,
            "client_message_id": self.client_message_id,
            "user_message": message_dict(user_message, conversation.id),
            "replayed": begun.stored_reply is not None,
        }


def _done(
    assistant: Message | PendingMessage,
    conversation_id: str,
    user_message_id: str,
    intent: IntentResult | None,
    interrupted: bool,
) -> dict[str, Any]:
    """The last frame: the reply as stored (or as it will be)."""
    return {
        "type": "done",
        "message_id": assistant.id,
        "content": assistant.content,
        "interrupted": interrupted,
        "conversation_id": conversation_id,
        "user_message_id": user_message_id,
        "assistant_message": message_dict(assistant, conversation_id),
        "intent": intent.to_dict() if intent is not None else None,
    }
