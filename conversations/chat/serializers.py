"""A chat message as every door takes it: ``POST chat/``, the schema and the WebSocket."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from drf_spectacular.utils import extend_schema_serializer
from rest_framework import serializers

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


class ScenarioExpectSerializer(serializers.Serializer[Any]):
    """What one turn of a scenario must give: its action (or one of ``also_ok``) and the
    lowercase substrings its reply must contain (``"?"``: the reply asks)."""

    action_type = serializers.ChoiceField(choices=ACTION_CHOICES)
    also_ok = serializers.ListField(
        child=serializers.ChoiceField(choices=ACTION_CHOICES), required=False, default=list
    )
    reply_mentions = serializers.ListField(
        child=serializers.CharField(trim_whitespace=False), required=False, default=list
    )


class ScenarioTurnSerializer(serializers.Serializer[Any]):
    user = serializers.CharField(max_length=16000, trim_whitespace=False)
    expect = ScenarioExpectSerializer()


class ScenarioAgentSerializer(serializers.Serializer[Any]):
    name = serializers.CharField(max_length=80)
    description = serializers.CharField(max_length=500, required=False, default="")


class ScenarioSetupSerializer(serializers.Serializer[Any]):
    agents = ScenarioAgentSerializer(many=True, required=False, default=list)


class ScenarioSerializer(serializers.Serializer[Any]):
    """One conversation of an ``eval_scenarios`` file (the contract's format)."""

    id = serializers.CharField(max_length=200)
    setup = ScenarioSetupSerializer(required=False)
    turns = ScenarioTurnSerializer(many=True, allow_empty=False)
