"""One understanding of a turn, from either engine: the intent, and the message's reading
completed with what the LLM tier understood.

The offline reading (``intents/reading``) is always there. With a provider on, the LLM's
structured reply adds what it understood beyond the label, each field validated on its own
(``intents/llm/parsing.py``): its dialogue act becomes acts of the reading, its pick the item
picked, its standalone action the answer to "what does this message ask for, apart from the
open wizard". What the LLM did not say (or said wrongly) is taken from the offline engine.
Deciding code asks the understanding, never the text and never a classifier of its own.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cached_property

from intents.offline.classifier import classify_offline
from intents.reading.acts import Act
from intents.reading.reading import Reading, read
from intents.types import ActionType, AgentRef, DialogueAct, IntentResult, Method

# The LLM's dialogue acts as acts of the reading.
_AS_ACTS: dict[str, frozenset[Act]] = {
    DialogueAct.AFFIRM: frozenset({Act.OPENS_WITH_YES}),
    DialogueAct.DENY: frozenset({Act.OPENS_WITH_NO}),
    DialogueAct.CANCEL: frozenset({Act.STOPS}),
    DialogueAct.BACK_TO_TASK: frozenset({Act.BACK_TO_TASK}),
    DialogueAct.QUESTION: frozenset({Act.OPENS_WITH_QUESTION}),
    DialogueAct.GREETING: frozenset({Act.GREETING}),
    DialogueAct.THANKS: frozenset({Act.THANKS}),
}


@dataclass(frozen=True)
class Understanding:
    message: str = field(repr=False)  # to be stored; nothing decides from it
    intent: IntentResult
    agents: Callable[[], Sequence[AgentRef]] = field(default=tuple, repr=False, compare=False)

    @cached_property
    def reading(self) -> Reading:
        reading = read(self.message)
        understood = self.intent.understood or {}
        told = _AS_ACTS.get(str(understood.get("dialogue_act")), frozenset())
        pick = understood.get("pick")
        fields = tuple(sorted((understood.get("fields") or {}).items()))
        if not told and pick is None and not fields:
            return reading
        return dataclasses.replace(reading, told=told, told_pick=pick, told_details=fields)

    @cached_property
    def alone(self) -> IntentResult:
        """What the message asks for on its own, apart from an open wizard or skill session
        (which the turn's intent leans toward): the LLM's standalone action when it gave one,
        else the offline engine's reading of the message alone."""
        label = (self.intent.understood or {}).get("standalone_action")
        if self.intent.method == Method.LLM and label is not None:
            return IntentResult(
                action_type=ActionType(label),
                confidence=self.intent.confidence,
                entities=self.intent.entities,
                method=Method.LLM,
                model=self.intent.model,
            )
        return classify_offline(self.message, agents=self.agents())
