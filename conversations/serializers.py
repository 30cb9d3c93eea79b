from __future__ import annotations

import json
from typing import Any

from rest_framework import serializers

from conversations.models import Agent, Conversation, Message

METADATA_MAX_BYTES = 16 * 1024


def validate_metadata(value: Any) -> None:
    if not isinstance(value, dict):
        raise serializers.ValidationError("Must be a JSON object.")
    if len(json.dumps(value)) > METADATA_MAX_BYTES:
        raise serializers.ValidationError(f"Must be at most {METADATA_MAX_BYTES} bytes as JSON.")


class ConversationSerializer(serializers.ModelSerializer[Conversation]):
    class Meta:
        model = Conversation
        fields = ("id", "title", "created_at", "updated_at", "message_count", "metadata")
        read_only_fields = fields


class ConversationWriteSerializer(serializers.Serializer[Any]):
    title = serializers.CharField(
        max_length=200, allow_blank=True, required=False, trim_whitespace=True
    )
    metadata = serializers.JSONField(required=False, validators=[validate_metadata])


class MessageSerializer(serializers.ModelSerializer[Message]):
    conversation_id = serializers.CharField(read_only=True)

    class Meta:
        model = Message
        fields = ("id", "conversation_id", "role", "content", "created_at", "metadata")
        read_only_fields = fields


class ListQuerySerializer(serializers.Serializer[Any]):
    limit = serializers.IntegerField(required=False, min_value=1, default=50)
    cursor = serializers.CharField(required=False, max_length=512)

    def validate_limit(self, value: int) -> int:
        return min(value, 100)


class MessageQuerySerializer(serializers.Serializer[Any]):
    limit = serializers.IntegerField(required=False, min_value=1, default=50)
    before = serializers.CharField(required=False, max_length=26)
    after = serializers.CharField(required=False, max_length=26)

    def validate_limit(self, value: int) -> int:
        return min(value, 100)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if attrs.get("before") and attrs.get("after"):
            raise serializers.ValidationError("Use either before or after, not both.")
        return attrs


class PageSerializer(serializers.Serializer[Any]):
    next = serializers.URLField(allow_null=True)
    previous = serializers.URLField(allow_null=True)


class ConversationPageSerializer(PageSerializer):
    results = ConversationSerializer(many=True)


class MessagePageSerializer(PageSerializer):
    results = MessageSerializer(many=True)


class AgentSerializer(serializers.ModelSerializer[Agent]):
    class Meta:
        model = Agent
        fields = ("id", "name", "description", "config", "created_at", "updated_at")
        read_only_fields = ("id", "created_at", "updated_at")


class AgentWriteSerializer(serializers.Serializer[Any]):
    name = serializers.CharField(max_length=80)
    description = serializers.CharField(max_length=500, allow_blank=True, required=False)
    config = serializers.JSONField(required=False, validators=[validate_metadata])
