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
