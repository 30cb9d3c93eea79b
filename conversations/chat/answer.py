"""The turn's decision: the message classified (a stop can cut it short) and the assistant's
answer to it (the assistant only reads; its effects are committed when the turn finishes).

``TurnAnswer`` holds these steps of ``ChatTurn`` (``conversations.chat.turn``).
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from collections.abc import Awaitable
from typing import TypeVar

from asgiref.sync import sync_to_async

from conversations.assistant.outcome import Outcome, Reply, Turn
from conversations.assistant.respond import assistant_respond
from conversations.chat.begin import Begun
from conversations.chat.turn_base import TurnBase
from conversations.store.outage import TRANSIENT_STORAGE_ERRORS
from intents.services import aintent_classify
from intents.types import CLARIFY_BELOW, ActionType, IntentResult

logger = logging.getLogger("omniforge.chat")
_T = TypeVar("_T")


def in_its_flow(intent: IntentResult, outcome: Outcome) -> IntentResult:
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


class TurnAnswer(TurnBase):
    """The steps of ``ChatTurn`` that decide its answer (a base of it)."""

    async def _classify(self, begun: Begun) -> IntentResult | None:
        """The message's intent, or None when ``stop`` comes first."""
        wizard = begun.state.wizard
        return await self._unless_stopped(
            aintent_classify(
                message=self.redacted.text,
                history=begun.history,
                agents=begun.agents,
                # What the assistant has open, from its state: both tiers decide on the same.
                wizard=wizard.to_json() if wizard else {},
                offline_only=self.offline_only,
            )
        )

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

    # --- the assistant (reads only) ---

    async def _respond(self, intent: IntentResult, begun: Begun) -> Outcome:
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
            outcome = await sync_to_async(assistant_respond)(begun.state, turn)
            if not turn.definitions.waiting:
                return outcome
            # The step needs a skill definition from the LLM: written here, on the event loop,
            # not on the worker thread the process's sockets share; then the step runs again.
            await turn.definitions.write()
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
