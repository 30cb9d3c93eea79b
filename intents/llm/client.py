"""The LLM tier of intent classification: one litellm call with validated JSON output.

This is the only module that imports litellm, and only inside functions: the import costs
seconds, and a process whose tier is off (no key, no API base) never pays it.

Retries are ours alone. litellm (`num_retries`) and the openai SDK under it (`max_retries`,
two by default) would each retry on their own, multiplying upstream calls and stretching the
latency far past the configured timeout; both are set to 0, so every attempt below is exactly
one HTTP request. We retry only transient failures (timeout, connection error, 429, 5xx), at
most `OMNIFORGE_INTENT_MAX_RETRIES` times, with exponential backoff and full jitter; anything
else raises `LLMFallback` at once and the caller uses the offline tier.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import dataclasses
import functools
import json
import logging
import os
import random
import threading
import time
from collections.abc import Coroutine, Mapping, Sequence
from types import ModuleType
from typing import Any, TypeVar

from django.conf import settings
from django.core.signals import setting_changed
from django.dispatch import receiver

from intents.llm.parsing import UnparseableOutput, parse_llm_output
from intents.llm.prompt import build_messages
from intents.types import ActionType, AgentRef, DialogueAct, HistoryTurn, IntentResult, Method

logger = logging.getLogger(__name__)

# Backoff before retry n (1-based) is uniform in [0, min(CAP, BASE * 2**(n-1))] ("full
# jitter"): concurrent workers hit by the same 429 spread out instead of retrying in step.
# Tests shrink the base with settings.OMNIFORGE_INTENT_BACKOFF_S.
BACKOFF_BASE_S = 0.25
BACKOFF_CAP_S = 2.0
# The SDK enforces the timeout on the HTTP request; this outer guard (a little longer, so the
# SDK's own error wins when both fire) also bounds time spent inside litellm itself.
WAIT_FOR_SLACK = 1.1
WAIT_FOR_EXTRA_S = 0.05
# The first call may import litellm; classify_llm_sync's outer bound must allow for it.
IMPORT_ALLOWANCE_S = 30.0
MAX_TOKENS = 300
TEMPERATURE = 0
# Servers behind OMNIFORGE_INTENT_API_BASE often need no key, but the openai SDK refuses to
# build a client without one.
PLACEHOLDER_API_KEY = "sk-no-key-required"

_TRANSIENT_REASONS = frozenset({"timeout", "connection", "rate_limited", "server_error"})


class LLMFallback(Exception):
    """The LLM tier gave no result; `reason` is a short machine-readable label for logs."""

    def __init__(self, reason: str, detail: str = "", *, attempts: int = 0) -> None:
        super().__init__(f"{reason}: {detail}" if detail else reason)
        self.reason = reason
        self.detail = detail
        self.attempts = attempts


@functools.cache
def _litellm() -> ModuleType:
    import litellm

    # litellm prints "Give Feedback / Get Help" banners on every exception otherwise.
    litellm.suppress_debug_info = True
    litellm.telemetry = False
    return litellm


@functools.cache
def warm_up() -> None:
    """Load everything the first call would load, so that no call's deadline pays for it.

    Importing litellm takes seconds, and the first request through it imports the provider
    SDK's chat resources (about 450 modules, half a second here, much more on a loaded
    machine): enough to turn a healthy first call into a timeout and an offline fallback.
    Touching the SDK's chat resource and one mock completion load it all, with no network.
    """
    litellm = _litellm()
    import openai

    client = openai.OpenAI(api_key=PLACEHOLDER_API_KEY, base_url="http://127.0.0.1:9")
    assert client.chat.completions is not None  # the property imports the chat resources
    litellm.completion(
        model="openai/warm-up",
        messages=[{"role": "user", "content": "warm-up"}],
        mock_response="{}",
        api_key=PLACEHOLDER_API_KEY,
    )


# Credentials a hosted provider would be called with. When none is in the environment (and no
# API base is set), the tier is off without importing litellm, so a process that will never
# call a model (a test worker, a management command) never pays for that import.
_CREDENTIAL_HINTS = ("AWS_ACCESS_KEY_ID", "AWS_PROFILE", "GOOGLE_APPLICATION_CREDENTIALS")


def _credentials_in_environment() -> bool:
    return any(
        value and (name.endswith(("_API_KEY", "_TOKEN")) or name in _CREDENTIAL_HINTS)
        for name, value in os.environ.items()
    )


@functools.cache
def llm_status() -> tuple[bool, str]:
    """Whether the LLM tier is on, and why; off means "not configured", never "broken"."""
    model = (settings.OMNIFORGE_INTENT_MODEL or "").strip()
    if not model:
        return False, "OMNIFORGE_INTENT_MODEL is empty"
    api_base = settings.OMNIFORGE_INTENT_API_BASE
    if api_base:
        # Cheap on purpose: no litellm import needed to know an explicit server is configured.
        return True, f"model {model} at {api_base}"
    if not _credentials_in_environment():
        return False, "no OMNIFORGE_INTENT_API_BASE and no provider credentials in the environment"
    litellm = _litellm()
    try:
        litellm.get_llm_provider(model=model)
        environment = litellm.validate_environment(model=model)
    except Exception as exc:
        return False, f"litellm cannot route model {model!r} without an API base ({exc})"
    if environment.get("keys_in_environment"):
        return True, f"model {model} with its provider key from the environment"
    missing = ", ".join(environment.get("missing_keys") or []) or "a provider key"
    return False, f"no OMNIFORGE_INTENT_API_BASE and {missing} not set for model {model}"


def reset_llm_status() -> None:
    """Forget the cached status and call configuration (tests that change settings)."""
    llm_status.cache_clear()
    _call_config.cache_clear()
    _UNPRICED.clear()


@receiver(setting_changed)
def _on_setting_changed(*, setting: str, **kwargs: Any) -> None:
    # Only test overrides send this signal; they must not see a status cached before them.
    if setting.startswith("OMNIFORGE_INTENT_"):
        reset_llm_status()


@dataclasses.dataclass(frozen=True)
class _CallConfig:
    model: str  # what litellm is called with (may carry an added "openai/" prefix)
    api_base: str | None
    api_key: str | None
    response_format: Mapping[str, Any]


RESPONSE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "action_type": {"type": "string", "enum": [a.value for a in ActionType]},
        "confidence": {"type": "number", "minimum": 0, "maximum": 1},
        "entities": {"type": "object", "additionalProperties": {"type": "string"}},
        "reasoning": {"type": "string"},
        "is_ambiguous": {"type": "boolean"},
        "alternative_action": {
            "anyOf": [{"type": "string", "enum": [a.value for a in ActionType]}, {"type": "null"}]
        },
        "clarifying_question": {"anyOf": [{"type": "string"}, {"type": "null"}]},
        "dialogue_act": {"type": "string", "enum": [a.value for a in DialogueAct]},
        "pick": {"anyOf": [{"type": "integer", "minimum": 1}, {"type": "null"}]},
        "standalone_action": {"type": "string", "enum": [a.value for a in ActionType]},
    },
    "required": ["action_type", "confidence", "entities", "reasoning", "is_ambiguous"],
}


@functools.cache
def _call_config(model: str, api_base: str | None) -> _CallConfig:
    litellm = _litellm()
    effective = model
    if api_base and model.split("/", 1)[0] not in litellm.provider_list:
        # A bare name ("llama3.1", "Qwen/Qwen2.5-7B-Instruct") behind an API base means an
        # OpenAI-compatible server: litellm's "openai/" route sends the name after the prefix
        # unchanged to {api_base}/chat/completions.
        effective = f"openai/{model}"
    api_key = None
    if api_base and effective.startswith("openai/") and not os.environ.get("OPENAI_API_KEY"):
        api_key = PLACEHOLDER_API_KEY
    try:
        schema_ok = bool(litellm.supports_response_schema(model=effective))
    except Exception:
        # Unknown models make litellm's capability lookup raise; JSON mode is the safe floor.
        schema_ok = False
    response_format: Mapping[str, Any] = (
        {
            "type": "json_schema",
            # Not "strict": strict mode forbids the open-ended `entities` object.
            "json_schema": {"name": "intent_result", "schema": RESPONSE_SCHEMA, "strict": False},
        }
        if schema_ok
        else {"type": "json_object"}
    )
    return _CallConfig(effective, api_base or None, api_key, response_format)


def _backoff_s(retry: int) -> float:
    base = float(getattr(settings, "OMNIFORGE_INTENT_BACKOFF_S", BACKOFF_BASE_S))
    return random.uniform(0, min(BACKOFF_CAP_S, base * 2 ** (retry - 1)))


def _failure_reason(exc: BaseException) -> str:
    """A short label for why an attempt failed; transient ones are in _TRANSIENT_REASONS."""
    if isinstance(exc, TimeoutError):
        return "timeout"
    litellm = _litellm()
    if isinstance(exc, litellm.Timeout):
        return "timeout"
    if _connection_failure(exc):
        return "connection"
    status = getattr(exc, "status_code", None)
    if isinstance(exc, litellm.RateLimitError) or status == 429:
        return "rate_limited"
    if isinstance(status, int) and status >= 500:
        return "server_error"
    if status in (401, 403) or isinstance(exc, litellm.AuthenticationError):
        return "auth"
    if status == 404 or isinstance(exc, litellm.NotFoundError):
        return "not_found"
    if status == 408:
        return "timeout"
    if isinstance(status, int) and 400 <= status < 500:
        return "bad_request"
    if isinstance(exc, litellm.BadRequestError):
        return "bad_request"
    return "error"


def _connection_failure(exc: BaseException) -> bool:
    """Whether the transport failed; litellm reports that as a 500, so look down the chain."""
    import openai  # already imported by litellm; cheap

    seen: BaseException | None = exc
    for _ in range(8):
        if seen is None:
            return False
        if isinstance(seen, openai.APITimeoutError):
            return False
        if isinstance(seen, openai.APIConnectionError | ConnectionError):
            return True
        seen = seen.__cause__ or seen.__context__
    return False


async def _call(messages: list[dict[str, str]]) -> tuple[Any, int, str]:
    """One completion with the configured model: (response, attempts, model), or
    ``LLMFallback``. Transient failures are retried with backoff, each attempt bounded."""
    # The first call may import litellm (seconds): off the event loop, so other connections
    # served by this loop do not stall behind it.
    if not llm_status.cache_info().currsize:
        await asyncio.to_thread(llm_status)
    enabled, why = llm_status()
    if not enabled:
        raise LLMFallback("disabled", why)
    if not warm_up.cache_info().currsize:
        # Before the clock starts: the deadline is for the provider, not for our imports.
        await asyncio.to_thread(warm_up)
    litellm = _litellm()
    config = _call_config(
        settings.OMNIFORGE_INTENT_MODEL, settings.OMNIFORGE_INTENT_API_BASE or None
    )
    timeout = float(settings.OMNIFORGE_INTENT_TIMEOUT_S)
    max_retries = max(0, int(settings.OMNIFORGE_INTENT_MAX_RETRIES))
    request: dict[str, Any] = {
        "model": config.model,
        "messages": messages,
        "temperature": TEMPERATURE,
        "max_tokens": MAX_TOKENS,
        "timeout": timeout,
        "response_format": dict(config.response_format),
        # One attempt is one HTTP request: litellm's and the SDK's own retries are off.
        "num_retries": 0,
        "max_retries": 0,
        # Providers without JSON mode get the call anyway; the parser copes with prose.
        "drop_params": True,
    }
    if config.api_base:
        request["api_base"] = config.api_base
    if config.api_key:
        request["api_key"] = config.api_key

    attempts = 0
    while True:
        attempts += 1
        # The provider SDK's own DEBUG lines carry the prompt, so config/settings.py silences
        # them; this one says what they would, minus what the user wrote.
        logger.debug(
            "intent LLM attempt %d: %s, %d message(s), timeout %.1fs",
            attempts,
            config.model,
            len(messages),
            timeout,
        )
        try:
            response = await asyncio.wait_for(
                litellm.acompletion(**request), timeout * WAIT_FOR_SLACK + WAIT_FOR_EXTRA_S
            )
            return response, attempts, config.model
        except Exception as exc:
            reason = _failure_reason(exc)
            if reason not in _TRANSIENT_REASONS or attempts > max_retries:
                logger.info(
                    "intent LLM gave up after %d attempt(s): %s (%s)",
                    attempts,
                    reason,
                    type(exc).__name__,
                )
                raise LLMFallback(reason, _short(exc), attempts=attempts) from exc
            delay = _backoff_s(attempts)
            logger.info(
                "intent LLM attempt %d failed (%s), retrying in %.2fs", attempts, reason, delay
            )
            await asyncio.sleep(delay)


def _content(response: Any, attempts: int) -> str:
    try:
        return str(response.choices[0].message.content or "")
    except (AttributeError, IndexError, TypeError) as exc:
        raise LLMFallback("unparseable", "no message in the response", attempts=attempts) from exc


async def classify_llm(
    message: str,
    *,
    history: Sequence[HistoryTurn] = (),
    agents: Sequence[AgentRef] = (),
    wizard: Mapping[str, Any] | None = None,
) -> IntentResult:
    """Classify `message` with the configured model, or raise `LLMFallback`."""
    started = time.perf_counter()
    messages = build_messages(message, history=history, agents=agents, wizard=wizard)
    response, attempts, called = await _call(messages)
    content = _content(response, attempts)
    try:
        parsed = parse_llm_output(content)
    except UnparseableOutput as exc:
        raise LLMFallback("unparseable", _short(exc), attempts=attempts) from exc

    return dataclasses.replace(
        parsed,
        method=Method.LLM,
        model=settings.OMNIFORGE_INTENT_MODEL,
        latency_ms=round((time.perf_counter() - started) * 1000, 1),
        usage=_usage(_litellm(), response, attempts, called),
    )


async def complete_json(messages: list[dict[str, str]]) -> dict[str, Any]:
    """A JSON object from the configured model (for callers other than classification, such
    as the skill builder), with the same timeouts and retries; ``LLMFallback`` otherwise."""
    response, attempts, _ = await _call(messages)
    content = _content(response, attempts).strip()
    if content.startswith("```"):
        content = content.strip("`").removeprefix("json").strip()
    try:
        data = json.loads(content)
    except ValueError as exc:
        raise LLMFallback("unparseable", _short(exc), attempts=attempts) from exc
    if not isinstance(data, dict):
        raise LLMFallback("unparseable", "not a JSON object", attempts=attempts)
    return data


_T = TypeVar("_T")
_loop_lock = threading.Lock()
_loop: tuple[int, asyncio.AbstractEventLoop] | None = None


def _background_loop() -> asyncio.AbstractEventLoop:
    """One long-lived event loop in a daemon thread, per process (re-made after a fork)."""
    global _loop
    with _loop_lock:
        if _loop is None or _loop[0] != os.getpid() or _loop[1].is_closed():
            loop = asyncio.new_event_loop()
            threading.Thread(target=loop.run_forever, name="intent-llm-loop", daemon=True).start()
            _loop = (os.getpid(), loop)
        return _loop[1]


def classify_llm_sync(
    message: str,
    *,
    history: Sequence[HistoryTurn] = (),
    agents: Sequence[AgentRef] = (),
    wizard: Mapping[str, Any] | None = None,
) -> IntentResult:
    """`classify_llm` for synchronous callers (views, commands, Celery tasks).

    litellm pools HTTP connections per event loop. `async_to_sync` from a plain thread makes a
    new loop per call, so each classification would open a fresh connection (a TLS handshake
    to a hosted provider) and strand the old one in litellm's client cache until it expires.
    Running every sync call on one long-lived loop keeps the pool warm.
    """
    return _on_the_loop(classify_llm(message, history=history, agents=agents, wizard=wizard))


def _on_the_loop(call: Coroutine[Any, Any, _T]) -> _T:
    """Run a call of this module on the long-lived loop and wait for it."""
    timeout = float(settings.OMNIFORGE_INTENT_TIMEOUT_S)
    retries = max(0, int(settings.OMNIFORGE_INTENT_MAX_RETRIES))
    # The call bounds itself; this only catches a loop that stopped serving.
    bound = (retries + 1) * (timeout * WAIT_FOR_SLACK + WAIT_FOR_EXTRA_S)
    bound += retries * BACKOFF_CAP_S + IMPORT_ALLOWANCE_S
    future = asyncio.run_coroutine_threadsafe(call, _background_loop())
    try:
        return future.result(timeout=bound)
    except concurrent.futures.TimeoutError as exc:
        future.cancel()
        raise LLMFallback("timeout", "the LLM loop did not answer in time") from exc


def complete_json_sync(messages: list[dict[str, str]]) -> dict[str, Any]:
    """`complete_json` for synchronous callers, on the same long-lived loop."""
    return _on_the_loop(complete_json(messages))


# Models litellm could not price once (local servers, new releases): asking again costs ~0.4 ms
# per call for the same exception.
_UNPRICED: set[str] = set()


def _usage(litellm: ModuleType, response: Any, attempts: int, model: str) -> dict[str, Any]:
    usage = getattr(response, "usage", None)
    hidden = getattr(response, "_hidden_params", None) or {}
    # litellm has usually priced the response already while logging it; reuse that figure.
    cost: float | None = hidden.get("response_cost") if isinstance(hidden, dict) else None
    if not isinstance(cost, int | float) or isinstance(cost, bool):
        cost = None
        if model not in _UNPRICED:
            try:
                cost = float(litellm.completion_cost(completion_response=response))
            except Exception:
                _UNPRICED.add(model)
    return {
        "prompt_tokens": getattr(usage, "prompt_tokens", None),
        "completion_tokens": getattr(usage, "completion_tokens", None),
        "cost_usd": float(cost) if cost is not None else None,
        "attempts": attempts,
    }


def _short(exc: BaseException, limit: int = 200) -> str:
    text = " ".join(str(exc).split())
    return text if len(text) <= limit else text[: limit - 1] + "…"
