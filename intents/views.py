from __future__ import annotations

from django.conf import settings
from drf_spectacular.utils import extend_schema
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import ScopedRateThrottle, UserRateThrottle
from rest_framework.views import APIView

from conversations import services as conversation_services
from conversations.permissions import request_tenant, request_user
from intents.serializers import ClassifyRequestSerializer, IntentResultSerializer
from intents.services import intent_classify
from intents.types import HistoryTurn


class ClassifyView(APIView):
    """Classify a message (with the conversation's recent history when given); stores nothing."""

    throttle_classes = [UserRateThrottle, ScopedRateThrottle]
    throttle_scope = "intents"

    @extend_schema(request=ClassifyRequestSerializer, responses=IntentResultSerializer)
    def post(self, request: Request) -> Response:
        body = ClassifyRequestSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        tenant = request_tenant(request)
        history: list[HistoryTurn] = []
        conversation_id = body.validated_data.get("conversation_id")
        if conversation_id:
            # Only the caller's own conversation: anyone else's id is a 404, and its history
            # never reaches a prompt.
            conversation = conversation_services.conversation_get(
                tenant=tenant, user=request_user(request), conversation_id=conversation_id
            )
            recent = conversation_services.message_recent(
                conversation=conversation, limit=settings.OMNIFORGE_CONTEXT_MAX_MESSAGES
            )
            history = [
                HistoryTurn(role=m.role, content=m.content, metadata=m.metadata)  # type: ignore[typeddict-item]
                for m in recent
            ]
        result = intent_classify(
            tenant=tenant, message=body.validated_data["message"], history=history
        )
        return Response(result.to_dict())
