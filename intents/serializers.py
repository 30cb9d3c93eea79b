from __future__ import annotations

from typing import Any

from django.conf import settings
from rest_framework import serializers

from intents.types import ACTION_CHOICES, Method


class ClassifyRequestSerializer(serializers.Serializer[Any]):
    message = serializers.CharField(trim_whitespace=True, allow_blank=False)
    conversation_id = serializers.CharField(required=False, max_length=26)

    def validate_message(self, value: str) -> str:
        limit = settings.OMNIFORGE_MESSAGE_MAX_CHARS
        if len(value) > limit:
            raise serializers.ValidationError(f"Must be at most {limit} characters.")
        return value


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
