"""The intent result and the inputs every classification tier shares.

``IntentResult.to_dict()`` is exactly the contract's "Intent result" object.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Literal, NotRequired, TypedDict

CLARIFY_BELOW = 0.7


class ActionType(StrEnum):
    CREATE_AGENT = "create_agent"
    CREATE_SKILL = "create_skill"
    EXECUTE_TASK = "execute_task"
    UPDATE_AGENT = "update_agent"
    QUERY_INFO = "query_info"
    MANAGE_PLATFORM = "manage_platform"
    UNKNOWN = "unknown"


ACTION_CHOICES = [(action.value, action.value) for action in ActionType]


class DialogueAct(StrEnum):
    """What a message does in the conversation, as the LLM tier names it (the offline reading
    has its own, finer table in ``intents/reading/acts/``)."""

    AFFIRM = "affirm"
    DENY = "deny"
    CANCEL = "cancel"
    PICK = "pick"
    CORRECTION = "correction"
    BACK_TO_TASK = "back_to_task"
    QUESTION = "question"
    GREETING = "greeting"
    THANKS = "thanks"
    NONE = "none"


class Method(StrEnum):
    FAST_PATH = "fast_path"
    LLM = "llm"
    OFFLINE = "offline"


class ListedOption(TypedDict):
    """One numbered option of a clarifying question the assistant asked."""

    n: int
    action_type: str
    label: str


class TurnMeta(TypedDict, total=False):
    """What an assistant turn stores in ``Message.metadata`` for later turns to resolve.

    Follow-ups ("the second one", "yes, do that", "1") are resolved against the previous
    assistant turn's metadata, never against its prose.
    """

    intent: dict[str, Any]  # IntentResult.to_dict() of the turn that produced this reply
    listed_agents: list[str]  # names, in the order of the numbered list shown
    options: list[ListedOption]  # the numbered options of a clarifying question
    offer: dict[str, Any]  # a yes/no proposal: {"action_type": ..., "entities": {...}}
    wizard: dict[str, Any]  # open wizard: {"kind", "gathered": {...}, "asking": [field, ...]}
    agent_run: str  # the agent this turn ran
    agents_referenced: list[str]


class HistoryTurn(TypedDict):
    role: Literal["user", "assistant", "system"]
    content: str
    metadata: NotRequired[TurnMeta]


@dataclass(frozen=True)
class AgentRef:
    """An agent of the tenant, as the classifiers see it."""

    name: str
    description: str = ""


@dataclass(frozen=True)
class IntentResult:
    action_type: ActionType
    confidence: float
    entities: Mapping[str, str] = field(default_factory=dict)
    reasoning: str = ""
    is_ambiguous: bool = False
    alternative_action: ActionType | None = None
    clarifying_question: str | None = None
    method: Method = Method.OFFLINE
    model: str | None = None
    latency_ms: float = 0.0
    # Not part of the contract's object: token usage, cost and why a tier fell back.
    usage: Mapping[str, Any] | None = field(default=None, compare=False)
    # Not part of the contract's object either: what the LLM tier understood beyond the label
    # (its dialogue act, the item picked, the action asked for apart from an open wizard),
    # validated field by field; see ``intents/understanding.py``.
    understood: Mapping[str, Any] | None = field(default=None, compare=False)

    def to_dict(self) -> dict[str, Any]:
        return {
            "action_type": str(self.action_type),
            "confidence": self.confidence,
            "entities": dict(self.entities),
            "reasoning": self.reasoning,
            "is_ambiguous": self.is_ambiguous,
            "alternative_action": (
                str(self.alternative_action) if self.alternative_action else None
            ),
            "clarifying_question": self.clarifying_question,
            "method": str(self.method),
            "model": self.model,
            "latency_ms": self.latency_ms,
        }
