"""``intent_classify``: the one entry point for classifying a message, sync and async.

Tiers, in order: the ``@agent-name`` fast path, the LLM tier when a provider is reachable, and
the offline classifier, which also answers whenever the LLM tier cannot.
"""

from __future__ import annotations

import dataclasses
import json
import logging
import re
import time
from collections.abc import Mapping, Sequence
from typing import Any

from intents import metrics
from intents.llm.client import LLMFallback, classify_llm, classify_llm_sync, llm_status
from intents.offline.classifier import classify_offline
from intents.types import ActionType, AgentRef, HistoryTurn, IntentResult, Method

logger = logging.getLogger("omniforge.intents")

_MENTION = re.compile(r"(?<![\w@])@([A-Za-z0-9][A-Za-z0-9_-]{0,79})")


def mentions(message: str) -> list[str]:
    return _MENTION.findall(message)


def fast_path(message: str, agents: Sequence[AgentRef]) -> IntentResult | None:
    """``@name`` of an existing agent: execute_task without a model; unknown names fall through."""
    by_name = {agent.name.lower(): agent.name for agent in agents}
    for mention in mentions(message):
        name = by_name.get(mention.lower())
        if name is not None:
            return IntentResult(
                action_type=ActionType.EXECUTE_TASK,
                confidence=1.0,
                entities={"agent": name},
                reasoning=f"The message addresses the agent @{name} directly.",
                method=Method.FAST_PATH,
            )
    return None


def _finish(result: IntentResult, *, started: float, fallback: str | None) -> IntentResult:
    latency_ms = round((time.perf_counter() - started) * 1000, 3)
    if result.method != Method.LLM:
        usage = dict(result.usage or {})
        if fallback:
            usage["fallback_reason"] = fallback
        result = dataclasses.replace(result, latency_ms=latency_ms, usage=usage or None)
    metrics.CLASSIFICATION_SECONDS.labels(result.method.value).observe(latency_ms / 1000)
    metrics.CLASSIFICATIONS.labels(result.method.value, result.action_type.value).inc()
    if fallback:
        metrics.FALLBACKS.labels(fallback).inc()
    # One line per classification, never the message: content may carry secrets.
    logger.info(
        "intent_classified %s",
        json.dumps(
            {
                "method": result.method.value,
                "model": result.model,
                "latency_ms": result.latency_ms,
                "action_type": result.action_type.value,
                "confidence": round(result.confidence, 3),
                "fallback_reason": fallback,
            }
        ),
    )
    return result


def _fast(message: str, agents: Sequence[AgentRef]) -> tuple[float, IntentResult | None]:
    started = time.perf_counter()
    quick = fast_path(message, agents)
    return started, quick and _finish(quick, started=started, fallback=None)


def _llm_on(offline_only: bool) -> bool:
    return not offline_only and llm_status()[0]


def _offline(
    message: str,
    history: Sequence[HistoryTurn],
    agents: Sequence[AgentRef],
    wizard: Mapping[str, Any] | None,
    *,
    started: float,
    fallback: str | None,
) -> IntentResult:
    result = classify_offline(message, history=history, agents=agents, wizard=wizard)
    return _finish(result, started=started, fallback=fallback)


async def aclassify_message(
    message: str,
    *,
    history: Sequence[HistoryTurn] = (),
    agents: Sequence[AgentRef] = (),
    wizard: Mapping[str, Any] | None = None,
    offline_only: bool = False,
) -> IntentResult:
    """Classify with the tiers in order, given the agents; stores nothing."""
    started, quick = _fast(message, agents)
    if quick is not None:
        return quick
    fallback: str | None = None
    if _llm_on(offline_only):
        try:
            result = await classify_llm(message, history=history, agents=agents, wizard=wizard)
            return _finish(result, started=started, fallback=None)
        except LLMFallback as exc:
            fallback = exc.reason
    return _offline(message, history, agents, wizard, started=started, fallback=fallback)


def classify_message(
    message: str,
    *,
    history: Sequence[HistoryTurn] = (),
    agents: Sequence[AgentRef] = (),
    wizard: Mapping[str, Any] | None = None,
    offline_only: bool = False,
) -> IntentResult:
    """The synchronous twin of ``aclassify_message``, for views, commands and tasks."""
    started, quick = _fast(message, agents)
    if quick is not None:
        return quick
    fallback: str | None = None
    if _llm_on(offline_only):
        try:
            result = classify_llm_sync(message, history=history, agents=agents, wizard=wizard)
            return _finish(result, started=started, fallback=None)
        except LLMFallback as exc:
            fallback = exc.reason
    return _offline(message, history, agents, wizard, started=started, fallback=fallback)


def intent_classify(
    *,
    message: str,
    history: Sequence[HistoryTurn] = (),
    agents: Sequence[AgentRef] = (),
    wizard: Mapping[str, Any] | None = None,
    offline_only: bool = False,
) -> IntentResult:
    """Classify a message with the tiers in order; stores nothing.

    ``agents`` are the caller's tenant's agents (the doors load them); the ``@name`` fast path
    and the classifiers resolve names against them.
    """
    return classify_message(
        message, history=history, agents=agents, wizard=wizard, offline_only=offline_only
    )


async def aintent_classify(
    *,
    message: str,
    history: Sequence[HistoryTurn] = (),
    agents: Sequence[AgentRef] = (),
    wizard: Mapping[str, Any] | None = None,
    offline_only: bool = False,
) -> IntentResult:
    """``intent_classify`` for async callers."""
    return await aclassify_message(
        message, history=history, agents=agents, wizard=wizard, offline_only=offline_only
    )
