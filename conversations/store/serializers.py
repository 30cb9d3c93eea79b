"""Conversations and messages as the API shows them, and the queries their lists take."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_serializer
from rest_framework import serializers

from conversations.api.fields import (
    ID_PATTERN,
    StorableObjectField,
    StrictCharField,
    StrictRegexField,
    StrictSerializer,
    not_blank,
)
from conversations.api.pagination import TIME_CURSOR_PATTERN
from conversations.models import Conversation, Message


class ConversationSerializer(serializers.ModelSerializer[Conversation]):
    # Stored encrypted as text; a JSON object on the wire.
    metadata = serializers.JSONField(read_only=True)

    class Meta:
        model = Conversation
        fields = ("id", "title", "created_at", "updated_at", "message_count", "metadata")
        read_only_fields = fields


@extend_schema_serializer(component_name="ConversationWrite")
class ConversationWriteSerializer(StrictSerializer):
    # Not blank: a conversation without a title takes one from its first message.
    title = StrictCharField(max_length=200, required=False, validators=[not_blank])
    metadata = StorableObjectField(required=False)


class MessageSerializer(serializers.ModelSerializer[Message]):
    conversation_id = serializers.CharField(read_only=True)
    # Stored encrypted as text; a JSON object on the wire, as before.
    metadata = serializers.JSONField(read_only=True)

    class Meta:
        model = Message
        fields = ("id", "conversation_id", "role", "content", "created_at", "metadata")
        read_only_fields = fields


class ListQuerySerializer(serializers.Serializer[Any]):
    limit = serializers.IntegerField(required=False, min_value=1, max_value=100, default=50)
    cursor = StrictRegexField(
        TIME_CURSOR_PATTERN, required=False, help_text="From `next`/`previous`."
    )


class MessageQuerySerializer(serializers.Serializer[Any]):
    limit = serializers.IntegerField(required=False, min_value=1, max_value=100, default=50)
    before = StrictRegexField(
        ID_PATTERN, required=False, help_text="A message id: the messages before it."
    )
    after = StrictRegexField(ID_PATTERN, required=False, help_text="A message id: those after it.")


class PageSerializer(serializers.Serializer[Any]):
    next = serializers.URLField(allow_null=True)
    previous = serializers.URLField(allow_null=True)


class ConversationPageSerializer(PageSerializer):
    results = ConversationSerializer(many=True)


class MessagePageSerializer(PageSerializer):
    results = MessageSerializer(many=True)
