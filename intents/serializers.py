from __future__ import annotations

from typing import Any

from rest_framework import serializers

from conversations.chat.serializers import MessageRequestSerializer
from intents.types import ACTION_CHOICES, Method


class ClassifyRequestSerializer(MessageRequestSerializer):
    """The message to classify, with the history of one of the caller's conversations."""


class IntentResultSerializer(serializers.Serializer[Any]):
    """The contract's intent result (documentation of the response; the view emits to_dict())."""

    action_type = serializers.ChoiceField(choices=ACTION_CHOICES)
    confidence = serializers.FloatField(min_value=0, max_value=1)
    entities = serializers.DictField(child=serializers.CharField())
    reasoning = serializers.CharField()
    is_ambiguous = serializers.BooleanField()
    alternative_action = serializers.ChoiceField(choices=ACTION_CHOICES, allow_null=True)
    clarifying_question = serializers.CharField(allow_null=True)
    method = serializers.ChoiceField(choices=[m.value for m in Method])
    model = serializers.CharField(allow_null=True)
    latency_ms = serializers.FloatField()
