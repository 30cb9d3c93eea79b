"""What the assistant is given for one turn, and what it gives back."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from django.contrib.auth.models import User

from conversations.agents.selectors import agent_refs
from conversations.assistant.effects import Effect
from conversations.assistant.state import AssistantState
from conversations.models import Tenant
from intents.reading.reading import Reading, read
from intents.types import ActionType, AgentRef, HistoryTurn, IntentResult
from intents.understanding import Understanding
from skill_sessions.generate import DefinitionWriter


@dataclass(frozen=True)
class Turn:
    tenant: Tenant
    user: User
    role: str  # the caller's membership role: what they may change, whatever the intent says
    conversation_id: str
    message: str
    message_id: str
    intent: IntentResult
    history: Sequence[HistoryTurn] = ()
    # The tenant's agents as the turn already loaded them for the classifier (None: load them
    # when needed).
    agents: Sequence[AgentRef] | None = None
    # A skill definition the LLM writes for this turn outside its synchronous step.
    definitions: DefinitionWriter = field(default_factory=DefinitionWriter, compare=False)

    @cached_property
    def understanding(self) -> Understanding:
        """The turn understood once, by the engine that classified it (and the offline reading
        under it); every step of the turn decides from this."""
        loaded = self.agents
        return Understanding(
            self.message,
            self.intent,
            agents=lambda: loaded if loaded is not None else agent_refs(self.tenant),
        )

    @property
    def reading(self) -> Reading:
        return self.understanding.reading

    def reading_of(self, kept: str) -> Reading:
        """The reading of a request kept from an earlier turn (the one a list of options was
        about): the turn's own reading, with what the LLM understood, when it is this
        message. The one door through which the policy gets a text read."""
        return self.reading if kept == self.message else read(kept)

    def is_own(self, said: Reading) -> bool:
        """Whether ``said`` is this turn's message (not a request kept from an earlier one,
        nor the part of it after a yes)."""
        return said is self.reading


@dataclass
class Reply:
    content: str
    # What was shown (the numbered list, the options, the agent created), for the audit
    # trail and the classifiers' view of the history; never what drives the next turn.
    meta: dict[str, Any] = field(default_factory=dict)
    decision: str = ""  # the routing decision, for the audit trail


@dataclass(frozen=True)
class Outcome:
    reply: Reply
    state: AssistantState
    effects: tuple[Effect, ...] = ()
    # The action of the flow the message was an answer in (a wizard, a skill session): the
    # turn's intent carries it, so an answer in a flow is never labelled "unknown".
    action: ActionType | None = None
