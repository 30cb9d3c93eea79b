from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import ScopedRateThrottle, UserRateThrottle
from rest_framework.views import APIView

from conversations.agents.selectors import agent_refs
from conversations.assistant.state import AssistantState
from conversations.store.context import conversation_history
from conversations.store.selectors import conversation_get
from conversations.tenancy.permissions import request_tenant, request_user
from intents.serializers import ClassifyRequestSerializer, IntentResultSerializer
from intents.services import intent_classify, mentions
from intents.types import HistoryTurn


class ClassifyView(APIView):
    """Classify a message as the chat turn would, in one of the caller's conversations or a new
    one; stores nothing."""

    throttle_classes = [UserRateThrottle, ScopedRateThrottle]
    throttle_scope = "intents"

    @extend_schema(request=ClassifyRequestSerializer, responses=IntentResultSerializer)
    def post(self, request: Request) -> Response:
        body = ClassifyRequestSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        tenant = request_tenant(request)
        message = body.validated_data["message"]
        history: list[HistoryTurn] = []
        wizard = None
        conversation_id = body.validated_data.get("conversation_id")
        if conversation_id:
            # Only the caller's own conversation: anyone else's id is a 404, and its history
            # never reaches a prompt. The same window and open wizard as the chat turn's.
            conversation = conversation_get(
                tenant=tenant, user=request_user(request), conversation_id=conversation_id
            )
            history = conversation_history(conversation)
            wizard = AssistantState.from_json(conversation.assistant_state).wizard
        result = intent_classify(
            message=message,
            history=history,
            agents=agent_refs(tenant, mentioned=mentions(message)),
            wizard=wizard.to_json() if wizard else {},
        )
        return Response(result.to_dict())
