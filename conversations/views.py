from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db.models import QuerySet
from django.http import HttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.exceptions import NotFound, PermissionDenied, ValidationError
from rest_framework.generics import ListCreateAPIView
from rest_framework.negotiation import BaseContentNegotiation
from rest_framework.pagination import Cursor, CursorPagination
from rest_framework.renderers import BaseRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.utils.urls import remove_query_param, replace_query_param
from rest_framework.views import APIView

from conversations import agent_services, services
from conversations.export import FORMATS, export_payload, render_json, render_markdown
from conversations.models import Agent, Conversation
from conversations.permissions import request_tenant, request_user
from conversations.serializers import (
    AgentSerializer,
    AgentWriteSerializer,
    ConversationPageSerializer,
    ConversationSerializer,
    ConversationWriteSerializer,
    ListQuerySerializer,
    MessagePageSerializer,
    MessageQuerySerializer,
    MessageSerializer,
)


def _page_url(request: Request, param: str, value: str | None, *, drop: str = "") -> str | None:
    if value is None:
        return None
    url = request.build_absolute_uri()
    if drop:
        url = remove_query_param(url, drop)
    return replace_query_param(url, param, value)


class ConversationOwnedView(APIView):
    def get_conversation(self, request: Request, conversation_id: str) -> Conversation:
        return services.conversation_get(
            tenant=request_tenant(request),
            user=request_user(request),
            conversation_id=conversation_id,
        )


class ConversationListView(APIView):
    @extend_schema(
        parameters=[ListQuerySerializer],
        responses=ConversationPageSerializer,
        operation_id="conversations_list",
    )
    def get(self, request: Request) -> Response:
        query = ListQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        page = services.conversation_list(
            tenant=request_tenant(request),
            user=request_user(request),
            limit=query.validated_data["limit"],
            cursor=query.validated_data.get("cursor"),
        )
        return Response(
            {
                "results": ConversationSerializer(page.items, many=True).data,
                "next": _page_url(request, "cursor", page.next_cursor),
                "previous": _page_url(request, "cursor", page.previous_cursor),
            }
        )

    @extend_schema(request=ConversationWriteSerializer, responses={201: ConversationSerializer})
    def post(self, request: Request) -> Response:
        body = ConversationWriteSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        conversation = services.conversation_create(
            tenant=request_tenant(request), user=request_user(request), **body.validated_data
        )
        return Response(ConversationSerializer(conversation).data, status=status.HTTP_201_CREATED)


class ConversationDetailView(ConversationOwnedView):
    @extend_schema(responses=ConversationSerializer)
    def get(self, request: Request, conversation_id: str) -> Response:
        return Response(
            ConversationSerializer(self.get_conversation(request, conversation_id)).data
        )

    @extend_schema(request=ConversationWriteSerializer, responses=ConversationSerializer)
    def patch(self, request: Request, conversation_id: str) -> Response:
        conversation = self.get_conversation(request, conversation_id)
        body = ConversationWriteSerializer(data=request.data, partial=True)
        body.is_valid(raise_exception=True)
        conversation = services.conversation_update(
            conversation=conversation, **body.validated_data
        )
        return Response(ConversationSerializer(conversation).data)

    @extend_schema(responses={204: None})
    def delete(self, request: Request, conversation_id: str) -> Response:
        services.conversation_delete(conversation=self.get_conversation(request, conversation_id))
        return Response(status=status.HTTP_204_NO_CONTENT)


class ConversationMessagesView(ConversationOwnedView):
    @extend_schema(parameters=[MessageQuerySerializer], responses=MessagePageSerializer)
    def get(self, request: Request, conversation_id: str) -> Response:
        conversation = self.get_conversation(request, conversation_id)
        query = MessageQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        page = services.message_page(
            conversation=conversation,
            limit=query.validated_data["limit"],
            before=query.validated_data.get("before"),
            after=query.validated_data.get("after"),
        )
        older = page.items[0].id if page.items and page.has_older else None
        newer = page.items[-1].id if page.items and page.has_newer else None
        return Response(
            {
                "results": MessageSerializer(page.items, many=True).data,
                "next": _page_url(request, "before", older, drop="after"),
                "previous": _page_url(request, "after", newer, drop="before"),
            }
        )


class _ExportNegotiation(BaseContentNegotiation):
    """The export's ``?format=`` names the file format, not a DRF renderer (errors are JSON)."""

    def select_renderer(
        self, request: Request, renderers: Iterable[BaseRenderer], format_suffix: str | None = None
    ) -> tuple[BaseRenderer, str]:
        renderer = next(iter(renderers))
        return renderer, renderer.media_type

    def select_parser(self, request: Request, parsers: Iterable[Any]) -> Any:
        return None


class ConversationExportView(ConversationOwnedView):
    content_negotiation_class = _ExportNegotiation

    @extend_schema(
        parameters=[
            OpenApiParameter("format", str, enum=list(FORMATS), default="markdown"),
        ],
        responses={
            (200, "text/markdown"): OpenApiResponse(OpenApiTypes.STR),
            (200, "application/json"): OpenApiResponse(OpenApiTypes.OBJECT),
        },
    )
    def get(self, request: Request, conversation_id: str) -> HttpResponse:
        conversation = self.get_conversation(request, conversation_id)
        fmt = request.query_params.get("format", "markdown")
        if fmt not in FORMATS:
            raise ValidationError({"format": [f"Choose one of: {', '.join(FORMATS)}."]})
        payload = export_payload(conversation, services.message_all(conversation=conversation))
        content_type, extension = FORMATS[fmt]
        body = render_markdown(payload) if fmt == "markdown" else render_json(payload)
        response = HttpResponse(body, content_type=content_type)
        response["Content-Disposition"] = (
            f'attachment; filename="conversation-{conversation.id}.{extension}"'
        )
        return response


class AgentPagination(CursorPagination):
    ordering = ("name",)  # unique per tenant: a stable cursor
    page_size = 50
    page_size_query_param = "limit"
    max_page_size = 100

    def decode_cursor(self, request: Request) -> Cursor | None:
        # DRF answers a bad cursor with 404; it is bad input, as on the conversation list.
        try:
            return super().decode_cursor(request)
        except NotFound:
            raise ValidationError({"cursor": ["Invalid cursor."]}) from None

    def get_page_size(self, request: Request) -> int:
        if self.page_size_query_param not in request.query_params:
            return self.page_size
        query = ListQuerySerializer(
            data={"limit": request.query_params[self.page_size_query_param]}
        )
        query.is_valid(raise_exception=True)
        return int(query.validated_data["limit"])


class AgentListView(ListCreateAPIView[Agent]):
    queryset = Agent.objects.none()
    serializer_class = AgentSerializer
    pagination_class = AgentPagination

    def get_queryset(self) -> QuerySet[Agent]:
        return Agent.objects.for_tenant(request_tenant(self.request))

    @extend_schema(request=AgentWriteSerializer, responses={201: AgentSerializer})
    def post(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        body = AgentWriteSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        agent = agent_services.agent_create(
            tenant=request_tenant(request), created_by=request_user(request), **body.validated_data
        )
        return Response(AgentSerializer(agent).data, status=status.HTTP_201_CREATED)


class AgentDetailView(APIView):
    def get_agent(self, request: Request, agent_id: str) -> Agent:
        return agent_services.agent_get(tenant=request_tenant(request), agent_id=agent_id)

    @extend_schema(responses=AgentSerializer)
    def get(self, request: Request, agent_id: str) -> Response:
        return Response(AgentSerializer(self.get_agent(request, agent_id)).data)

    @extend_schema(request=AgentWriteSerializer, responses=AgentSerializer)
    def patch(self, request: Request, agent_id: str) -> Response:
        agent = self.get_agent(request, agent_id)
        body = AgentWriteSerializer(data=request.data, partial=True)
        body.is_valid(raise_exception=True)
        agent = agent_services.agent_update(agent=agent, **body.validated_data)
        return Response(AgentSerializer(agent).data)

    @extend_schema(responses={204: None})
    def delete(self, request: Request, agent_id: str) -> Response:
        agent = self.get_agent(request, agent_id)
        # Members create and change the tenant's agents; removing one is for its creator or
        # a tenant admin (same tenant, not allowed: 403, not 404).
        membership = request.membership  # type: ignore[attr-defined]
        if not membership.is_admin and agent.created_by_id != request_user(request).pk:
            raise PermissionDenied("Only the agent's creator or a tenant admin can delete it.")
        agent_services.agent_delete(agent=agent)
        return Response(status=status.HTTP_204_NO_CONTENT)
