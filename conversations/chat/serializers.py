"""A chat message as every door takes it: ``POST chat/``, the schema and the WebSocket."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from drf_spectacular.utils import extend_schema_serializer
from rest_framework import serializers

from conversations.agents.selectors import agent_name
from conversations.api.fields import (
    ID_PATTERN,
    StrictCharField,
    StrictRegexField,
    StrictSerializer,
    no_nul,
    not_blank,
)
from intents.types import ACTION_CHOICES


@extend_schema_serializer(component_name="ClassifyMessage")
class MessageRequestSerializer(StrictSerializer):
    """A user's message, optionally in one of their conversations (``intents/classify/``)."""

    conversation_id = StrictRegexField(
        ID_PATTERN,
        required=False,
        allow_null=True,
        help_text="One of your conversations; omitted: a new conversation.",
    )

    def get_fields(self) -> dict[str, serializers.Field[Any, Any, Any, Any]]:
        fields = super().get_fields()
        # From settings on every use (tests change it), and so into the OpenAPI document too.
        limit = settings.OMNIFORGE_MESSAGE_MAX_CHARS
        fields["message"] = StrictCharField(max_length=limit, validators=[not_blank])
        return fields


@extend_schema_serializer(component_name="ChatMessage")
class ChatRequestSerializer(MessageRequestSerializer):
    """One chat message, as ``POST chat/`` and the WebSocket consumer take it."""

    client_message_id = StrictCharField(
        required=False,
        allow_null=True,
        min_length=1,
        max_length=64,
        trim_whitespace=False,
        validators=[no_nul],
        help_text="Idempotency key: a re-sent key is answered from storage.",
    )


def _text() -> serializers.CharField:
    """A substring a check looks for: kept as written, spaces included."""
    return serializers.CharField(trim_whitespace=False)


def _texts() -> serializers.ListField:
    return serializers.ListField(child=_text(), required=False, default=list)


def _groups() -> serializers.ListField:
    """Groups of substrings: each group passes when one of its strings occurs."""
    child = serializers.ListField(child=_text(), allow_empty=False)
    return serializers.ListField(child=child, required=False, default=list)


class ScenarioCountField(serializers.Field[Any, Any, Any, Any]):
    """A count (``2``), or the counts that are all right (``[1, 2]``)."""

    default_error_messages = {
        "invalid": "Expected a count (an integer from 0) or a non-empty list of counts."
    }

    def to_internal_value(self, data: Any) -> int | list[int]:
        values = data if isinstance(data, list) else [data]
        if not values or any(
            isinstance(value, bool) or not isinstance(value, int) or value < 0 for value in values
        ):
            self.fail("invalid")
        return list(values) if isinstance(data, list) else int(data)

    def to_representation(self, value: Any) -> Any:
        return value


class ScenarioAgentExpectSerializer(serializers.Serializer[Any]):
    """What an agent holds after the turn: the latest created one, or the one called ``name``
    (which must then exist). Its text is its name, description, JSON config and "(paused)"."""

    name = serializers.CharField(max_length=200, required=False)
    mentions = _texts()
    mentions_any = _groups()
    excludes = _texts()
    config = serializers.DictField(child=_text(), required=False, default=dict)


# The optional checks beyond the contract's, in the order a turn's checks are counted.
SCENARIO_EXTRA_CHECKS = (
    "reply_mentions_any",
    "reply_excludes",
    "reply_repeats_previous",
    "reply_names_latest_agent",
    "reply_names_listed_item",
    "picks_option",
    "agents_after",
    "runs_after",
    "agent",
)


class ScenarioExpectSerializer(serializers.Serializer[Any]):
    """What one turn of a scenario must give: its action (or one of ``also_ok``) and the
    lowercase substrings its reply must contain (``"?"``: the reply asks); optionally more
    checks on the reply and on the workspace after the turn (``SCENARIO_EXTRA_CHECKS``).
    ``action_type`` may be left out by a turn that checks something else."""

    action_type = serializers.ChoiceField(choices=ACTION_CHOICES, required=False)
    also_ok = serializers.ListField(
        child=serializers.ChoiceField(choices=ACTION_CHOICES), required=False, default=list
    )
    reply_mentions = _texts()
    reply_mentions_any = _groups()
    reply_excludes = _texts()
    reply_repeats_previous = serializers.BooleanField(required=False, default=False)
    reply_names_latest_agent = serializers.BooleanField(required=False, default=False)
    reply_names_listed_item = serializers.IntegerField(min_value=1, required=False)
    picks_option = serializers.IntegerField(min_value=1, required=False)
    agents_after = ScenarioCountField(required=False)
    runs_after = serializers.IntegerField(min_value=0, required=False)
    agent = ScenarioAgentExpectSerializer(required=False)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if "action_type" in attrs:
            return attrs
        if attrs["also_ok"]:
            raise serializers.ValidationError({"also_ok": ["Only beside action_type."]})
        if not any(_checks(attrs.get(key)) for key in ("reply_mentions", *SCENARIO_EXTRA_CHECKS)):
            raise serializers.ValidationError(
                {"action_type": ["This field is required when the turn checks nothing else."]}
            )
        return attrs


def _checks(value: Any) -> bool:
    """Whether an expectation's value asks for a check (``0`` does; ``false``, ``[]`` do not)."""
    if isinstance(value, dict):
        return any(_checks(inner) for inner in value.values())
    return value is not None and value is not False and value != [] and value != ""


class ScenarioTurnSerializer(serializers.Serializer[Any]):
    """One message; ``resend``: sent again under the previous turn's ``client_message_id``."""

    user = serializers.CharField(max_length=16000, trim_whitespace=False)
    resend = serializers.BooleanField(required=False, default=False)
    expect = ScenarioExpectSerializer()


class ScenarioAgentSerializer(serializers.Serializer[Any]):
    """An agent that exists before the first turn, stored under the slug of its name with its
    config as written (a scenario may start from any stored state)."""

    name = serializers.CharField(max_length=80)
    description = serializers.CharField(
        max_length=500, required=False, default="", allow_blank=True
    )
    config = serializers.DictField(
        child=serializers.CharField(trim_whitespace=False, allow_blank=True),
        required=False,
        default=dict,
    )
    paused = serializers.BooleanField(required=False, default=False)

    def validate_name(self, value: str) -> str:
        if not agent_name(value):
            raise serializers.ValidationError("Use letters, digits or dashes.")
        return value


class ScenarioSetupSerializer(serializers.Serializer[Any]):
    agents = ScenarioAgentSerializer(many=True, required=False, default=list)

    def validate_agents(self, value: list[dict[str, Any]]) -> list[dict[str, Any]]:
        slugs = [agent_name(agent["name"]) for agent in value]
        taken = sorted({slug for slug in slugs if slugs.count(slug) > 1})
        if taken:
            raise serializers.ValidationError(f"Two agents named {taken[0]!r}.")
        return value


# Who plays a scenario: "member" and "owner" are members of the workspace ("owner": the one
# whose agents the setup made, as every scenario user is); "admin" is a tenant admin.
SCENARIO_ROLES = ("admin", "member", "owner")


class ScenarioSerializer(serializers.Serializer[Any]):
    """One conversation of an ``eval_scenarios`` file (the contract's format, and the optional
    keys beyond it: ``about``, ``role``, agents' ``config`` and ``paused``, ``resend``)."""

    id = serializers.CharField(max_length=200)
    about = serializers.CharField(required=False, allow_blank=True)
    role = serializers.ChoiceField(choices=SCENARIO_ROLES, required=False, default="admin")
    setup = ScenarioSetupSerializer(required=False)
    turns = ScenarioTurnSerializer(many=True, allow_empty=False)

    def validate_turns(self, value: list[dict[str, Any]]) -> list[dict[str, Any]]:
        if value and value[0]["resend"]:
            raise serializers.ValidationError("The first turn has nothing to re-send.")
        return value
