"""The turn's last trip to the database: the reply committed with the assistant's effects
and its new state in one transaction, or handed to the background retry while storage is
unavailable (and remembered under the client's message id, for a re-send); the lease freed.

``TurnFinish`` holds these steps of ``ChatTurn`` (``conversations.chat.turn``).
"""

from __future__ import annotations

import logging
from typing import Any

from django.utils import timezone

from conversations.assistant.effects import Effect
from conversations.assistant.outcome import Outcome
from conversations.assistant.state import AssistantState
from conversations.chat.commit import turn_commit_or_correct, turn_payload
from conversations.chat.pending import PendingTurn, pending_turn_remember
from conversations.chat.turn_base import TurnBase
from conversations.models import Message, new_id
from conversations.store.outage import TRANSIENT_STORAGE_ERRORS
from conversations.store.services import PendingMessage
from conversations.tasks import turn_commit_schedule
from intents.types import IntentResult

logger = logging.getLogger("omniforge.chat")


class TurnFinish(TurnBase):
    """The steps of ``ChatTurn`` after the reply is streamed (a base of it)."""

    # --- the commit ---

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
        reply = self._reply_of(content, outcome, intent, reply_to, interrupted)
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
        return self._hand_to_retry(reply, effects, reply_to)

    def _reply_of(
        self,
        content: str,
        outcome: Outcome,
        intent: IntentResult | None,
        reply_to: str,
        interrupted: bool,
    ) -> PendingMessage:
        """The reply as it is stored: its content, what decided it, and the new state."""
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
        return PendingMessage(
            id=new_id(),
            role=Message.Role.ASSISTANT,
            content=content,
            metadata=metadata,
            client_message_id=None,
            created_at=timezone.now(),
            assistant_state=outcome.state.to_json(),
        )

    def _hand_to_retry(
        self, reply: PendingMessage, effects: tuple[Effect, ...], reply_to: str
    ) -> PendingMessage:
        """What storage refused this turn goes to the background retry; the lease is freed."""
        assert self.conversation is not None
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
