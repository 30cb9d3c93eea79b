"""``POST chat/`` in the OpenAPI document.

It is a plain async view that drf-spectacular cannot see. ``add_chat_endpoint`` (a
preprocessing hook) lists a stand-in DRF view that carries its documentation, built from the
same ``ChatRequestSerializer`` the door validates with.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from conversations.chat.serializers import ChatRequestSerializer
from conversations.store.serializers import MessageSerializer
from intents.serializers import IntentResultSerializer

CHAT_PATH = "/api/v1/chat/"
_STREAM_DESCRIPTION = (
    "Stores the message, classifies it with recent history, answers with a template reply and "
    "stores it. With `Accept: text/event-stream` the answer streams as Server-Sent Events: "
    '`intent`, then `chunk` events (`{"content"}`), then `done` (`{"conversation_id", '
    '"user_message_id", "assistant_message_id"}`), or `error`.'
)


class ChatTurnSerializer(serializers.Serializer[Any]):
    conversation_id = serializers.CharField()
    user_message = MessageSerializer()
    assistant_message = MessageSerializer()
    intent = IntentResultSerializer()


class ChatDocumentation(APIView):
    """Stands in for ``conversations.chat.views.chat`` in the OpenAPI document only."""

    @extend_schema(
        operation_id="chat_turn",
        summary="One chat turn with the master agent",
        description=_STREAM_DESCRIPTION,
        tags=["chat"],
        request=ChatRequestSerializer,
        responses={
            (200, "application/json"): ChatTurnSerializer,
            (200, "text/event-stream"): OpenApiResponse(OpenApiTypes.STR),
            409: OpenApiResponse(
                description="The conversation is busy with another turn, or the "
                "client_message_id was already used for another message or conversation."
            ),
        },
    )
    def post(self, request: Request) -> Response:  # pragma: no cover - never routed
        raise NotImplementedError


def add_chat_endpoint(endpoints: list[Any], **kwargs: Any) -> list[Any]:
    """drf-spectacular preprocessing hook: document the chat turn beside the DRF views."""
    view = ChatDocumentation.as_view()
    return [*endpoints, (CHAT_PATH, f"^{CHAT_PATH}$", "POST", view)]
