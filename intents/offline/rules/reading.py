"""What a rule reads (one message, read once) and what it decides."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache, wraps
from typing import TYPE_CHECKING, Any, Generic, TypeVar, overload

from intents.offline.context import (
    Context,
    is_affirmation,
    is_cancel,
    is_denial,
    is_recap,
)
from intents.offline.lexicon import AGENT_WORD
from intents.offline.model import LABELS, Engine
from intents.offline.text import AgentKeys, Parsed, agent_keys
from intents.reading.cues import ANY_WORD, Cues, cues
from intents.types import ActionType

if TYPE_CHECKING:
    from intents.reading.reading import Reading as Words

# Logistic regression trained to separate its training set is over-sure on new phrasings;
# dividing the logits spreads the probabilities (chosen on docs/intents-offline.md's table).
TEMPERATURE = 1.5
INDEX = {label: i for i, label in enumerate(LABELS)}
AGENT_ACTIONS = (ActionType.EXECUTE_TASK, ActionType.UPDATE_AGENT, ActionType.QUERY_INFO)

QUESTION_WORDS = frozenset({"Q_WHAT", "Q_HOW", "Q_WHEN", "Q_WHY", "Q_HOWMANY", "Q_WHERE", "Q_WHO"})
ASKS_ABOUT = QUESTION_WORDS | {"N_DETAIL", "N_STATUS"}
PLATFORM_CUES = frozenset({"N_BILLING", "N_USER", "N_KEY", "N_ROLE", "N_INTEG", "N_TENANT"})
SMALL_TALK = frozenset({"OOS", "GREET", "THANKS"})
A_NEW_ONE = frozenset({"V_CREATE", "ADJ_NEW", "V_WATCH", "N_SKILL"})
AGENTISH = frozenset({"AGENT", "N_AGENT", "N_REPORT"})


# A yes/no question about something already named, without a question word: it opens with
# the verb and what it asks about ("does it …", "was the … ").
_YES_NO_QUESTION = cues(
    f"""
    ^ hmm*|um*|uh*? does|did|is|was|will|has|have|are|were|do it|that|this|they|those|these
    ^ hmm*|um*|uh*? does|did|is|was|will|has|have|are|were|do the {ANY_WORD}
    """
)


@dataclass
class Decision:
    action: ActionType
    confidence: float
    reasoning: str
    alternative: ActionType | None = None
    entities: dict[str, str] = field(default_factory=dict)
    ambiguous: bool = False


def softmax(logits: Sequence[float]) -> list[float]:
    top = max(logits)
    exps = [math.exp(v - top) for v in logits]
    total = sum(exps)
    return [e / total for e in exps]


@lru_cache(maxsize=256)
def agent_keys_for(names: tuple[str, ...]) -> AgentKeys:
    return agent_keys(names)


def agent_by_source(entities: Mapping[str, str], names: Sequence[str]) -> str | None:
    """The one agent whose name contains the source the message names."""
    source = entities.get("source", "").split(",")[0]
    if not source:
        return None
    key = source.replace("_", "")
    hits = [n for n in names if key in n.casefold().replace("-", "").replace("_", "")]
    return hits[0] if len(hits) == 1 else None


T = TypeVar("T")


class _once(Generic[T]):
    """``functools.cached_property`` without its lock (Python 3.11 takes one on every first
    read; a reading is never shared between threads)."""

    def __init__(self, compute: Callable[[Any], T]) -> None:
        self.compute = compute
        self.name = compute.__name__
        self.__doc__ = compute.__doc__

    @overload
    def __get__(self, obj: None, owner: type[Any]) -> _once[T]: ...

    @overload
    def __get__(self, obj: object, owner: type[Any]) -> T: ...

    def __get__(self, obj: object | None, owner: type[Any]) -> T | _once[T]:
        if obj is None:
            return self
        value = obj.__dict__[self.name] = self.compute(obj)
        return value


@dataclass(frozen=True)
class Reading:
    """One message read once, with the conversation it answers; every rule reads this.

    ``logits`` are the model's scores, which nudges move in place; ``entities`` are the
    message's, which a rule that settles the agent meant fills in.
    """

    parsed: Parsed
    ctx: Context
    names: tuple[str, ...]
    entities: dict[str, str]
    logits: list[float]
    injected: bool
    engine: Engine
    memo: dict[Callable[..., Any], Any] = field(default_factory=dict, compare=False, repr=False)
    # Plain attributes, not properties: every rule reads them.
    norm: str = field(init=False, repr=False)
    concepts: frozenset[str] = field(init=False, repr=False)
    n_units: int = field(init=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "norm", self.parsed.norm)
        object.__setattr__(self, "concepts", self.parsed.concepts)
        object.__setattr__(self, "n_units", len(self.parsed.units))

    @property
    def first_concepts(self) -> tuple[str, ...]:
        return self.parsed.units[0].concepts

    @property
    def asks(self) -> bool:
        """It carries a question mark."""
        return "?" in self.parsed.norm

    @_once
    def _words(self) -> Words:
        """The message's words as the reading layer reads them, for cues."""
        from intents.reading.reading import Reading  # the reading layer reads the rules

        return Reading(self.parsed)

    def span(self, said: Cues, after: int = 0) -> tuple[int, int] | None:
        """The words (start, end) of the first cue of ``said`` the message matches, if any
        (from its word ``after`` on)."""
        words = self._words
        if said.any_needs is not None and said.any_needs.isdisjoint(words.seen):
            return None  # before the words are built: most sets stop here
        return said.span(words.seen, words.positions, after)

    def says(self, said: Cues, after: int = 0) -> bool:
        """Whether the message matches any cue of ``said`` (from its word ``after`` on)."""
        return self.span(said, after) is not None

    @_once
    def has_agent(self) -> bool:
        """It names one of the tenant's agents."""
        return any(u.canon == AGENT_WORD for u in self.parsed.units)

    @_once
    def asks_yes_no(self) -> bool:
        """A yes/no question about something already named, without a question word."""
        # Its one question mark ends it.
        norm = self.parsed.norm.rstrip()
        return norm.endswith("?") and norm.count("?") == 1 and self.says(_YES_NO_QUESTION)

    @_once
    def opens_with_a_question_word(self) -> bool:
        return not QUESTION_WORDS.isdisjoint(self.parsed.units[0].concepts)

    @_once
    def affirms(self) -> bool:
        return is_affirmation(self.parsed)

    @_once
    def denies(self) -> bool:
        return is_denial(self.parsed)

    @_once
    def cancels(self) -> bool:
        return is_cancel(self.parsed)

    @_once
    def recaps(self) -> bool:
        return is_recap(self.parsed)

    @_once
    def names_the_workspace(self) -> bool:
        """It names billing, users, keys, roles, integrations or the tenant."""
        return bool(self.parsed.concepts & PLATFORM_CUES)

    @_once
    def agent_by_source(self) -> str | None:
        return agent_by_source(self.entities, self.names)

    def model_top(self) -> ActionType:
        """The action the (nudged) scores put first."""
        return LABELS[max(range(len(self.logits)), key=self.logits.__getitem__)]

    def model_sure(self) -> tuple[ActionType, float]:
        """The (nudged) scores' first action and its probability, without the temperature."""
        probs = softmax(self.logits)
        top = max(range(len(probs)), key=probs.__getitem__)
        return LABELS[top], probs[top]

    def unsure_or_unknown(self) -> bool:
        """Whether the model alone reads the message as nothing to do, or barely reads it."""
        probs = softmax([v / TEMPERATURE for v in self.logits])
        top = max(range(len(probs)), key=probs.__getitem__)
        return top == INDEX[ActionType.UNKNOWN] or probs[top] < 0.75


def once_per_reading(read: Callable[[Reading], T]) -> Callable[[Reading], T]:
    """Compute ``read`` once per message: for what several rules ask of the message and the
    conversation, never of the scores (nudges move those between rules)."""

    @wraps(read)
    def cached(r: Reading) -> T:
        try:
            return r.memo[read]
        except KeyError:
            value = r.memo[read] = read(r)
            return value

    return cached


def a_question(r: Reading, confidence: float, reason: str) -> Decision:
    """`query_info`, with what the model read otherwise as the alternative."""
    top = r.model_top()
    return Decision(
        ActionType.QUERY_INFO,
        confidence,
        reason,
        alternative=top if top != ActionType.QUERY_INFO else None,
    )
