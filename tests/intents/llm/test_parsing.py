"""The LLM output parser: plain inputs and property tests over arbitrary text and JSON."""

from __future__ import annotations

import json
import math
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from intents.llm.parsing import (
    MAX_ENTITIES,
    MAX_ENTITY_KEY_CHARS,
    MAX_ENTITY_VALUE_CHARS,
    UnparseableOutput,
    parse_llm_output,
)
from intents.types import CLARIFY_BELOW, ActionType, IntentResult, Method

ACTIONS = [a.value for a in ActionType]


def assert_contract_valid(result: IntentResult) -> None:
    assert isinstance(result.action_type, ActionType)
    assert isinstance(result.confidence, float)
    assert 0.0 <= result.confidence <= 1.0
    assert isinstance(result.entities, dict)
    assert len(result.entities) <= MAX_ENTITIES
    for key, value in result.entities.items():
        assert isinstance(key, str) and key
        assert isinstance(value, str) and value
        assert len(key) <= MAX_ENTITY_KEY_CHARS
        assert len(value) <= MAX_ENTITY_VALUE_CHARS
    assert isinstance(result.is_ambiguous, bool)
    assert result.alternative_action is None or isinstance(result.alternative_action, ActionType)
    assert result.alternative_action != result.action_type
    assert isinstance(result.reasoning, str)
    if result.confidence < CLARIFY_BELOW:
        assert isinstance(result.clarifying_question, str) and result.clarifying_question.strip()
    else:
        assert result.clarifying_question is None
    assert result.method is Method.LLM
    # The whole object must serialize as the contract's JSON.
    json.dumps(result.to_dict(), allow_nan=False)


def parse(payload: Any) -> IntentResult:
    return parse_llm_output(json.dumps(payload))


# --- plain inputs ------------------------------------------------------------------------------


def test_a_clean_object_is_read_as_is() -> None:
    result = parse(
        {
            "action_type": "create_agent",
            "confidence": 0.88,
            "entities": {"source": "notion", "frequency": "weekly"},
            "reasoning": "Recurring.",
            "is_ambiguous": False,
            "alternative_action": None,
            "clarifying_question": None,
        }
    )

    assert result.action_type is ActionType.CREATE_AGENT
    assert result.confidence == 0.88
    assert dict(result.entities) == {"source": "notion", "frequency": "weekly"}
    assert result.reasoning == "Recurring."
    assert result.clarifying_question is None
    assert result.model is None
    assert result.latency_ms == 0.0


def test_code_fences_and_prose_around_the_object_are_ignored() -> None:
    text = (
        "Sure, here is the classification {not json}:\n```json\n"
        '{"action_type": "query_info", "confidence": 0.9}\n```\nHope that helps!'
    )

    result = parse_llm_output(text)

    assert result.action_type is ActionType.QUERY_INFO
    assert result.confidence == 0.9


def test_an_object_naming_an_action_wins_over_an_earlier_one() -> None:
    text = 'Example: {"a": 1}. Answer: {"action_type": "create_skill", "confidence": 0.8}'

    assert parse_llm_output(text).action_type is ActionType.CREATE_SKILL


def test_an_object_inside_an_array_is_found() -> None:
    text = json.dumps([{"action_type": "execute_task", "confidence": 0.75}])

    assert parse_llm_output(text).action_type is ActionType.EXECUTE_TASK


@pytest.mark.parametrize(
    "text", ["", "   ", "I think you want to create an agent.", "[1, 2]", '{"a": ', "null"]
)
def test_text_without_a_json_object_is_unparseable(text: str) -> None:
    with pytest.raises(UnparseableOutput):
        parse_llm_output(text)


def test_deeply_nested_input_is_unparseable_not_a_recursion_error() -> None:
    with pytest.raises(UnparseableOutput):
        parse_llm_output("[" * 100_000 + "]" * 100_000)


def test_an_empty_object_is_unknown_with_a_question() -> None:
    result = parse_llm_output("{}")

    assert result.action_type is ActionType.UNKNOWN
    assert result.confidence == 0.5
    assert result.clarifying_question


@pytest.mark.parametrize(
    ("label", "expected"),
    [
        ("CREATE_AGENT", ActionType.CREATE_AGENT),
        (" update-agent ", ActionType.UPDATE_AGENT),
        ("ActionType.QUERY_INFO", ActionType.QUERY_INFO),
        ("manage platform", ActionType.MANAGE_PLATFORM),
    ],
)
def test_action_labels_are_normalised(label: str, expected: ActionType) -> None:
    assert parse({"action_type": label, "confidence": 0.9}).action_type is expected


def test_an_invented_action_is_unknown_and_never_confident() -> None:
    result = parse({"action_type": "delete_everything", "confidence": 0.99})

    assert result.action_type is ActionType.UNKNOWN
    assert result.confidence == 0.5
    assert result.clarifying_question


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        (7, 1.0),
        (-3, 0.0),
        (0.42, 0.42),
        ("0.8", 0.8),
        ("80%", 0.8),
        ("high", 0.9),
        ("very sure", 0.5),
        (None, 0.5),
        (True, 0.5),
        ([0.9], 0.5),
    ],
)
def test_confidence_is_coerced_and_clamped(raw: Any, expected: float) -> None:
    assert parse({"action_type": "query_info", "confidence": raw}).confidence == expected


@pytest.mark.parametrize("raw", ["NaN", "Infinity", "-Infinity"])
def test_non_finite_confidence_is_the_default(raw: str) -> None:
    result = parse_llm_output('{"action_type": "query_info", "confidence": ' + raw + "}")

    assert result.confidence == 0.5


def test_entities_are_flattened_to_short_strings() -> None:
    result = parse(
        {
            "action_type": "create_agent",
            "confidence": 0.9,
            "entities": {
                "source": "notion",
                "count": 3,
                "enabled": True,
                "channels": ["#a", "#b", {"x": 1}],
                "schedule": {"every": "week", "at": {"hour": 9}},
                "nothing": None,
                "": "no key",
                "long": "x" * 1000,
                "multi\nline": "a\n\n  b",
            },
        }
    )

    entities = dict(result.entities)
    assert entities["source"] == "notion"
    assert entities["count"] == "3"
    assert entities["enabled"] == "true"
    assert entities["channels"] == "#a, #b"
    assert entities["schedule.every"] == "week"
    assert "schedule.at" not in entities and "schedule.at.hour" not in entities
    assert "nothing" not in entities and "" not in entities
    assert len(entities["long"]) == MAX_ENTITY_VALUE_CHARS
    assert entities["multi line"] == "a b"


def test_entities_are_capped() -> None:
    result = parse(
        {
            "action_type": "query_info",
            "confidence": 0.9,
            "entities": {f"k{i}": "v" for i in range(50)},
        }
    )

    assert len(result.entities) == MAX_ENTITIES


@pytest.mark.parametrize("raw", [["a", "b"], "source=notion", 3, None])
def test_entities_that_are_not_an_object_are_dropped(raw: Any) -> None:
    assert dict(parse({"action_type": "query_info", "entities": raw}).entities) == {}


@pytest.mark.parametrize(
    ("raw", "expected"),
    [(True, True), ("true", True), ("Yes", True), (1, True), ("no", False), (None, False)],
)
def test_is_ambiguous_is_a_bool(raw: Any, expected: bool) -> None:
    assert parse({"action_type": "query_info", "is_ambiguous": raw}).is_ambiguous is expected


def test_the_alternative_must_be_a_different_valid_action() -> None:
    base = {"action_type": "create_agent", "confidence": 0.6}

    assert parse({**base, "alternative_action": "create_skill"}).alternative_action is (
        ActionType.CREATE_SKILL
    )
    assert parse({**base, "alternative_action": "create_agent"}).alternative_action is None
    assert parse({**base, "alternative_action": "bogus"}).alternative_action is None
    assert parse({**base, "alternative_action": 3}).alternative_action is None


def test_a_low_confidence_without_a_question_gets_the_template_one() -> None:
    result = parse(
        {
            "action_type": "create_agent",
            "confidence": 0.55,
            "alternative_action": "execute_task",
            "entities": {"source": "notion"},
            "clarifying_question": "   ",
        }
    )

    assert result.clarifying_question == (
        "Do you want me to create a new agent that works on Notion automatically, "
        "or run one of your existing agents now?"
    )


def test_the_models_own_question_is_kept_when_confidence_is_low() -> None:
    result = parse(
        {
            "action_type": "create_agent",
            "confidence": 0.5,
            "clarifying_question": "Daily or weekly?",
        }
    )

    assert result.clarifying_question == "Daily or weekly?"


def test_a_confident_result_carries_no_question() -> None:
    result = parse(
        {"action_type": "query_info", "confidence": 0.95, "clarifying_question": "Really?"}
    )

    assert result.clarifying_question is None


def test_reasoning_is_a_truncated_string() -> None:
    assert parse({"action_type": "query_info", "reasoning": "r" * 5000}).reasoning.endswith("…")
    assert len(parse({"action_type": "query_info", "reasoning": "r" * 5000}).reasoning) == 500
    assert parse({"action_type": "query_info", "reasoning": {"a": 1}}).reasoning == ""


# --- properties --------------------------------------------------------------------------------

json_scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**12), max_value=10**12)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=40)
)
json_values = st.recursive(
    json_scalars,
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=12), children, max_size=4)
    ),
    max_leaves=20,
)
label_like = st.sampled_from([*ACTIONS, "CREATE_AGENT", "delete", "", " unknown "]) | st.text(
    max_size=20
)
intent_like = st.fixed_dictionaries(
    {},
    optional={
        "action_type": label_like | json_values,
        "confidence": st.floats(allow_nan=True, allow_infinity=True)
        | st.integers()
        | st.text(max_size=8)
        | json_values,
        "entities": st.dictionaries(st.text(max_size=60), json_values, max_size=20) | json_values,
        "reasoning": json_values,
        "is_ambiguous": json_values,
        "alternative_action": label_like | json_values,
        "clarifying_question": json_values,
    },
)
PROPERTY_SETTINGS = settings(
    max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


def parse_or_unparseable(text: str) -> IntentResult | None:
    try:
        return parse_llm_output(text)
    except UnparseableOutput:
        return None


@PROPERTY_SETTINGS
@given(st.text())
def test_any_text_either_parses_valid_or_is_unparseable(text: str) -> None:
    result = parse_or_unparseable(text)
    if result is not None:
        assert_contract_valid(result)


@PROPERTY_SETTINGS
@given(json_values)
def test_any_json_value_either_parses_valid_or_is_unparseable(value: Any) -> None:
    result = parse_or_unparseable(json.dumps(value))
    if result is not None:
        assert_contract_valid(result)
    if isinstance(value, dict):
        assert result is not None


@PROPERTY_SETTINGS
@given(intent_like, st.sampled_from(["{}", "```json\n{}\n```", "Answer: {} -- done", "{}}}}"]))
def test_an_object_with_the_right_keys_and_wrong_types_is_always_valid(
    payload: dict[str, Any], wrapper: str
) -> None:
    result = parse_llm_output(wrapper.replace("{}", json.dumps(payload), 1))

    assert_contract_valid(result)
    if payload.get("action_type") in ACTIONS:
        assert result.action_type == payload["action_type"]
    confidence = payload.get("confidence")
    if (
        isinstance(confidence, float | int)
        and not isinstance(confidence, bool)
        and math.isfinite(confidence)
        and payload.get("action_type") in ACTIONS
    ):
        assert result.confidence == min(1.0, max(0.0, float(confidence)))


@pytest.mark.parametrize(
    ("action", "alternative", "entities", "question"),
    [
        (
            "unknown",
            "execute_task",
            {},
            "Do you want me to run one of your existing agents now, or something else?",
        ),
        (
            "query_info",
            "execute_task",
            {"agent": "jira-overdue-monitor"},
            "Do you want me to show you what jira-overdue-monitor does and how it last ran, "
            "or run jira-overdue-monitor now?",
        ),
    ],
)
def test_a_template_question_reads_as_a_sentence(
    action: str, alternative: str, entities: dict[str, str], question: str
) -> None:
    from intents.clarify import clarifying_question_for
    from intents.types import ActionType

    assert (
        clarifying_question_for(ActionType(action), ActionType(alternative), entities) == question
    )
