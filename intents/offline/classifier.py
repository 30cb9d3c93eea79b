"""The offline intent classifier: no network, no model download, deterministic.

A synonym lexicon (five languages) maps words to canonical words and concepts; a logistic
regression trained from ``intents/data/training.jsonl`` on first use scores the seven actions;
a table of named rules (``intents/offline/rules``) decides follow-ups ("yes", "the second
one", "again") and the patterns the model misreads, or nudges its scores. See
docs/intents-offline.md.
"""

from __future__ import annotations

import dataclasses
import functools
import logging
import time
from collections.abc import Mapping, Sequence
from typing import Any

from intents.clarify import clarifying_question_for
from intents.offline.context import Context, read_context, selection
from intents.offline.entities import entities_from
from intents.offline.guard import drop_retracted, strip_meta
from intents.offline.model import LABELS, engine, features
from intents.offline.prose import read_prose
from intents.offline.rules import Outcome, decide
from intents.offline.rules.reading import (
    AGENT_ACTIONS,
    TEMPERATURE,
    Decision,
    Reading,
    agent_keys_for,
    softmax,
)
from intents.offline.text import normalize, parse
from intents.types import (
    CLARIFY_BELOW,
    ActionType,
    AgentRef,
    HistoryTurn,
    IntentResult,
    Method,
)

logger = logging.getLogger(__name__)

# Below this gap between the two best probabilities the result is flagged ambiguous.
AMBIGUITY_MARGIN = 0.25


def classify_offline(
    message: str,
    *,
    history: Sequence[HistoryTurn] = (),
    agents: Sequence[AgentRef] = (),
    wizard: Mapping[str, Any] | None = None,
) -> IntentResult:
    """Classify one user message with the offline tier; never raises.

    ``wizard`` is the caller's open wizard (``{}`` when none is open); when it is not given,
    one is read from the history's metadata (datasets that carry it). The rule that decided,
    if one did, and the nudges applied are in ``usage`` (``rule``, ``nudges``).
    """
    start = time.perf_counter()
    try:
        return _classify(message, history, agents, wizard, start)
    except Exception:
        # A chat turn must get an answer even if a bug lurks here; the log says where.
        logger.exception("offline intent classifier failed")
        return IntentResult(
            action_type=ActionType.UNKNOWN,
            confidence=0.0,
            reasoning="offline classifier error",
            clarifying_question=clarifying_question_for(ActionType.UNKNOWN),
            method=Method.OFFLINE,
            latency_ms=round((time.perf_counter() - start) * 1000.0, 4),
        )


def _names(agents: Sequence[AgentRef], ctx: Context) -> tuple[str, ...]:
    names: list[str] = []
    for agent in agents:
        name = getattr(agent, "name", None)
        if isinstance(name, str) and name.strip() and name not in names:
            names.append(name)
    for name in (*ctx.listed_agents, ctx.last_agent, ctx.last_run):
        if name and name not in names:
            names.append(name)
    return tuple(names)


def _read(
    message: str,
    history: Sequence[HistoryTurn],
    agents: Sequence[AgentRef],
    wizard: Mapping[str, Any] | None,
) -> Reading:
    """The message, read once with the conversation it answers and the model's scores."""
    text = message if isinstance(message, str) else ""
    cleaned, injected = strip_meta(normalize(text))
    cleaned = drop_retracted(cleaned)
    eng = engine()
    if not isinstance(history, (list, tuple)):
        history = (
            list(history) if isinstance(history, Sequence) and not isinstance(history, str) else []
        )
    ctx = read_context(history, wizard=wizard)
    if ctx.has_history and not ctx.informed:
        ctx = _with_prose(ctx, history, _names(agents, ctx), wizard)
    names = _names(agents, ctx)
    parsed = parse(cleaned, eng.analyzer, agent_keys_for(names), normalized=True)
    feats = features(parsed)
    if injected:
        feats.append("x:injection")
    return Reading(
        parsed=parsed,
        ctx=ctx,
        names=names,
        entities=entities_from(parsed),
        logits=eng.model.logits(feats),
        injected=injected,
        engine=eng,
    )


def _classify(
    message: str,
    history: Sequence[HistoryTurn],
    agents: Sequence[AgentRef],
    wizard: Mapping[str, Any] | None,
    start: float,
) -> IntentResult:
    reading = _read(message, history, agents, wizard)
    outcome = decide(reading)
    decision = outcome.decision or _from_model(reading)
    entities = reading.entities
    if decision.action in AGENT_ACTIONS and "agent" not in entities:
        agent = _context_agent(reading) or reading.agent_by_source
        if agent:
            entities["agent"] = agent
    return _finish(decision, entities, start, outcome)


@functools.lru_cache(maxsize=1024)
def _judge(text: str) -> tuple[ActionType, float]:
    """The model's action for a sentence on its own (a listed option, a proposal)."""
    eng = engine()
    cleaned, _ = strip_meta(normalize(text))
    parsed = parse(cleaned, eng.analyzer, normalized=True)
    if not parsed.units:
        return ActionType.UNKNOWN, 0.0
    probs = softmax([v / TEMPERATURE for v in eng.model.logits(features(parsed))])
    top = max(range(len(probs)), key=probs.__getitem__)
    return LABELS[top], probs[top]


def _with_prose(
    ctx: Context,
    history: Sequence[HistoryTurn],
    names: Sequence[str],
    wizard: Mapping[str, Any] | None,
) -> Context:
    """The context a history of text alone gives (no metadata on the last assistant turn)."""
    turns = [t for t in history if isinstance(t, Mapping)]
    prose = read_prose(turns, names, _judge)
    offer_entities: dict[str, str] = {}
    if prose.offer is not None and prose.offer_text:
        offer_entities = entities_from(parse(prose.offer_text, engine().analyzer))
    return dataclasses.replace(
        ctx,
        prev_intent=ctx.prev_intent or prose.prev_intent,
        offer=prose.offer,
        offer_entities=offer_entities,
        options=prose.options,
        alternatives=prose.alternatives,
        listed_agents=prose.listed_agents,
        # The caller's own word on the wizard ({} is "none open") outranks the text.
        wizard=ctx.wizard if wizard is not None else prose.wizard,
        wizard_asking=ctx.wizard_asking if wizard is not None else prose.asking,
        last_agent=prose.last_agent or ctx.last_agent,
        last_run=prose.last_run or ctx.last_run,
        answering=prose.answering,
        about_platform=prose.about_platform,
        needs_access=prose.needs_access,
    )


def _context_agent(r: Reading) -> str | None:
    """The agent "it", "again" or "the same" means, unless the message points into a list."""
    concepts = r.concepts
    if "ORD" in concepts and selection(r.parsed, 9) is not None:
        return None
    ctx = r.ctx
    if {"T_AGAIN", "ADJ_SAME"} & concepts and (ctx.last_run or ctx.last_agent):
        return ctx.last_run or ctx.last_agent
    if "PRON_IT" in concepts and ctx.last_agent:
        return ctx.last_agent
    return None


def _from_model(r: Reading) -> Decision:
    probs = softmax([v / TEMPERATURE for v in r.logits])
    order = sorted(range(len(probs)), key=probs.__getitem__, reverse=True)
    top, second = order[0], order[1]
    confidence = probs[top]
    ambiguous = confidence - probs[second] < AMBIGUITY_MARGIN
    alternative = LABELS[second] if ambiguous or confidence < CLARIFY_BELOW else None
    weights = r.engine.model.weights
    cues = sorted(
        [
            (w[top] - w[second], f)
            for c in r.concepts
            if (w := weights.get(f := "c:" + c)) is not None
        ],
        reverse=True,
    )[:3]
    cue_text = ", ".join(f for _, f in cues)
    reasoning = (
        f"{LABELS[top]} {confidence:.2f} over {LABELS[second]} {probs[second]:.2f}; "
        f"cues: {cue_text}"
    )
    if r.injected:
        reasoning = "ignored instructions aimed at the classifier; " + reasoning
    return Decision(
        LABELS[top], confidence, reasoning, alternative=alternative, ambiguous=ambiguous
    )


def _finish(
    decision: Decision, entities: Mapping[str, str], start: float, outcome: Outcome
) -> IntentResult:
    merged = {**entities, **decision.entities}
    clean = {
        str(k)[:40]: str(v)[:80] for k, v in merged.items() if isinstance(v, str) and v.strip()
    }
    confidence = min(1.0, max(0.0, round(decision.confidence, 3)))
    alternative = decision.alternative if decision.alternative != decision.action else None
    ambiguous = decision.ambiguous and alternative is not None
    question = None
    if confidence < CLARIFY_BELOW or ambiguous:
        question = clarifying_question_for(decision.action, alternative, clean)
    # Which rule decided is for the audit and `eval_intents --rules`, not the contract's object.
    usage: dict[str, Any] = {}
    if outcome.rule is not None:
        usage["rule"] = outcome.rule
    if outcome.nudges:
        usage["nudges"] = list(outcome.nudges)
    return IntentResult(
        action_type=decision.action,
        confidence=confidence,
        entities=clean,
        reasoning=decision.reasoning[:300],
        is_ambiguous=ambiguous,
        alternative_action=alternative,
        clarifying_question=question,
        method=Method.OFFLINE,
        model=None,
        latency_ms=round((time.perf_counter() - start) * 1000.0, 4),
        usage=usage or None,
    )
