"""Turn an LLM's reply into a contract-valid `IntentResult`, whatever the model wrote.

The model is asked for one JSON object, but replies arrive wrapped in code fences, with prose
around them, with wrong types or out-of-range values. Everything is coerced rather than
rejected; only a reply with no JSON object at all raises `UnparseableOutput`.

Decisions a reader could question:

- A missing or non-numeric confidence becomes 0.5: below the clarification threshold, so the
  user is asked before anything happens on the strength of a model that did not commit.
- An action label outside the seven becomes `unknown` with confidence capped at 0.5, for the
  same reason (a confident "delete_agent" is not a confident "unknown").
- Numeric confidences are clamped, not rescaled: 85 is read as 1.0, not as 85 %.
- `clarifying_question` is set exactly when confidence < 0.7 (the model's question when it
  gave one, else the template from `intents.clarify`), and is None otherwise.
"""

from __future__ import annotations

import itertools
import json
import math
import string
from collections.abc import Iterator, Mapping
from typing import Any

from intents.clarify import clarifying_question_for
from intents.types import CLARIFY_BELOW, ActionType, DialogueAct, IntentResult, Method

MAX_INPUT_CHARS = 32_000
# Each '{' is a candidate start for a JSON decode; bounding them keeps hostile text linear-ish.
MAX_OBJECT_STARTS = 64
MAX_ENTITIES = 12
MAX_ENTITY_KEY_CHARS = 40
MAX_ENTITY_VALUE_CHARS = 200
MAX_REASONING_CHARS = 500
MAX_QUESTION_CHARS = 300
DEFAULT_CONFIDENCE = 0.5
INVALID_ACTION_CONFIDENCE_CAP = 0.5

_ACTIONS = {a.value: a for a in ActionType}
_WORDY_CONFIDENCE = {"very high": 0.95, "high": 0.9, "medium": 0.6, "low": 0.3, "very low": 0.1}
_FENCE_TAG = string.ascii_letters + string.digits + "_-"  # "```json": the fence and its tag


class UnparseableOutput(ValueError):
    """The reply holds no JSON object at all."""


def parse_llm_output(text: str) -> IntentResult:
    """The reply's first JSON object, validated into an `IntentResult` (method LLM)."""
    data = _find_object(text if isinstance(text, str) else "")
    if data is None:
        raise UnparseableOutput("no JSON object in the model's reply")

    action, recognised = _action(data.get("action_type"))
    confidence = _confidence(data.get("confidence"))
    if not recognised:
        confidence = min(confidence, INVALID_ACTION_CONFIDENCE_CAP)
    entities = _entities(data.get("entities"))
    alternative_action = _ACTIONS.get(_normalise_label(data.get("alternative_action")))
    if alternative_action == action:
        alternative_action = None

    question: str | None = None
    if confidence < CLARIFY_BELOW:
        question = _short_text(data.get("clarifying_question"), MAX_QUESTION_CHARS) or (
            clarifying_question_for(action, alternative_action, entities)
        )

    return IntentResult(
        action_type=action,
        confidence=confidence,
        entities=entities,
        reasoning=_short_text(data.get("reasoning"), MAX_REASONING_CHARS),
        is_ambiguous=_boolean(data.get("is_ambiguous")),
        alternative_action=alternative_action,
        clarifying_question=question,
        method=Method.LLM,
        model=None,
        latency_ms=0.0,
        understood=_understood(data) or None,
    )


MAX_PICK = 50
_ACTS = {a.value: a for a in DialogueAct}


def _understood(data: Mapping[str, Any]) -> dict[str, Any]:
    """The fields beyond the label, each kept only when valid: a known dialogue act, a pick
    that is a small positive whole number, a known standalone action."""
    understood: dict[str, Any] = {}
    act = _ACTS.get(_normalise_label(data.get("dialogue_act")))
    if act is not None and act != DialogueAct.NONE:
        understood["dialogue_act"] = act.value
    pick = data.get("pick")
    if act == DialogueAct.PICK and type(pick) is int and 1 <= pick <= MAX_PICK:
        understood["pick"] = pick
    alone = _ACTIONS.get(_normalise_label(data.get("standalone_action")))
    if alone is not None:
        understood["standalone_action"] = alone.value
    fields = _fields(data.get("fields"))
    if fields:
        understood["fields"] = fields
    return understood


# What the LLM may fill of an open wizard; what each value means is read by the reading layer
# (``intents/reading/told.py``), which drops what it cannot read.
WIZARD_FIELDS = frozenset(
    {"source", "trigger", "action", "destination", "schedule", "timezone", "name"}
)


def _fields(value: Any) -> dict[str, str]:
    """The wizard fields the reply gives: known keys with a short scalar value each."""
    if not isinstance(value, Mapping):
        return {}
    found = {}
    for key, raw in value.items():
        name = _normalise_label(key)
        if name in WIZARD_FIELDS and isinstance(raw, str):
            found[name] = _short_text(raw, MAX_ENTITY_VALUE_CHARS)
    return {k: v for k, v in found.items() if v}


def _find_object(text: str) -> dict[str, Any] | None:
    """The first decodable JSON object, preferring one that names an action."""
    text = text[:MAX_INPUT_CHARS]
    first: dict[str, Any] | None = None
    for candidate in _candidates(text):
        if "action_type" in candidate:
            return candidate
        if first is None:
            first = candidate
    return first


def _candidates(text: str) -> Iterator[dict[str, Any]]:
    parts = text.split("```")
    stripped = (parts[0] + "".join(part.lstrip(_FENCE_TAG) for part in parts[1:])).strip()
    whole = _decode(stripped)
    if isinstance(whole, dict):
        yield whole
    decoder = json.JSONDecoder()
    start = stripped.find("{")
    tries = 0
    while start != -1 and tries < MAX_OBJECT_STARTS:
        tries += 1
        try:
            value, _end = decoder.raw_decode(stripped, start)
        except (ValueError, RecursionError):
            value = None
        if isinstance(value, dict):
            yield value
        start = stripped.find("{", start + 1)


def _decode(text: str) -> Any:
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        return None


def _normalise_label(value: Any) -> str:
    if not isinstance(value, str):
        return ""
    label = value.strip().lower()
    # Models sometimes echo an enum repr ("ActionType.CREATE_AGENT") or a spaced label.
    label = label.rsplit(".", 1)[-1]
    runs = itertools.groupby(label, key=lambda ch: ch.isspace() or ch == "-")
    return "".join("_" if gap else "".join(run) for gap, run in runs)


def _action(value: Any) -> tuple[ActionType, bool]:
    label = _normalise_label(value)
    if label in _ACTIONS:
        return _ACTIONS[label], True
    return ActionType.UNKNOWN, False


def _confidence(value: Any) -> float:
    number: float | None = None
    if isinstance(value, bool):
        number = None
    elif isinstance(value, int | float):
        number = float(value)
    elif isinstance(value, str):
        raw = value.strip().lower()
        if raw in _WORDY_CONFIDENCE:
            number = _WORDY_CONFIDENCE[raw]
        else:
            percent = raw.endswith("%")
            try:
                number = float(raw.rstrip("%").strip())
            except ValueError:
                number = None
            else:
                if percent:
                    number /= 100
    if number is None or not math.isfinite(number):
        return DEFAULT_CONFIDENCE
    return min(1.0, max(0.0, number))


def _boolean(value: Any) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, int | float):
        return bool(value) and not (isinstance(value, float) and math.isnan(value))
    if isinstance(value, str):
        return value.strip().lower() in {"true", "yes", "1", "y"}
    return False


def _short_text(value: Any, limit: int) -> str:
    if isinstance(value, bool) or not isinstance(value, str | int | float):
        return ""
    text = " ".join(str(value).split())
    if len(text) > limit:
        text = text[: limit - 1].rstrip() + "…"
    return text


def _scalar(value: Any) -> str | None:
    if value is None:
        return None
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return str(value) if not isinstance(value, float) or math.isfinite(value) else None
    if isinstance(value, str):
        return value
    return None


def _entity_value(value: Any) -> str | None:
    scalar = _scalar(value)
    if scalar is None and isinstance(value, list):
        # A list of scalars ("sources": ["notion", "slack"]) reads naturally joined.
        parts = [s for s in (_scalar(v) for v in value) if s]
        scalar = ", ".join(parts) if parts else None
    if scalar is None:
        return None
    text = _short_text(scalar, MAX_ENTITY_VALUE_CHARS)
    return text or None


def _entities(value: Any) -> dict[str, str]:
    if not isinstance(value, Mapping):
        return {}
    flat: dict[str, str] = {}
    for key, item in _flatten(value, prefix="", depth=0):
        if len(flat) >= MAX_ENTITIES:
            break
        name = _short_text(key, MAX_ENTITY_KEY_CHARS)
        text = _entity_value(item)
        if name and text and name not in flat:
            flat[name] = text
    return flat


def _flatten(value: Mapping[Any, Any], *, prefix: str, depth: int) -> Iterator[tuple[str, Any]]:
    """Nested objects become dotted keys one level down; anything deeper is dropped."""
    for raw_key, item in value.items():
        key = f"{prefix}{raw_key}"
        if isinstance(item, Mapping):
            if depth < 1:
                yield from _flatten(item, prefix=f"{key}.", depth=depth + 1)
            continue
        yield key, item
