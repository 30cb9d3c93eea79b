"""The conversation endpoints: list, create, read, rename, delete, messages, export."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.http import HttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.exceptions import ValidationError
from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.renderers import BaseRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from conversations.api.pagination import page_body, page_url
from conversations.models import Conversation
from conversations.store import selectors, services
from conversations.store.export import FORMATS, export_payload, render_json, render_markdown
from conversations.store.serializers import (
    ConversationPageSerializer,
    ConversationSerializer,
    ConversationWriteSerializer,
    ListQuerySerializer,
    MessagePageSerializer,
    MessageQuerySerializer,
    MessageSerializer,
)
from conversations.tenancy.permissions import request_tenant, request_user


class ConversationOwnedView(APIView):
    def get_conversation(self, request: Request, conversation_id: str) -> Conversation:
        return selectors.conversation_get(
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
        # A plain dict: DRF reads an empty value in a QueryDict as "not given" (form semantics),
        # and an empty cursor= is bad input.
        query = ListQuerySerializer(data=request.query_params.dict())
        query.is_valid(raise_exception=True)
        page = selectors.conversation_list(
            tenant=request_tenant(request),
            user=request_user(request),
            limit=query.validated_data["limit"],
            cursor=query.validated_data.get("cursor"),
        )
        return Response(page_body(request, page, ConversationSerializer))

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
        query = MessageQuerySerializer(data=request.query_params.dict())
        query.is_valid(raise_exception=True)
        page = selectors.message_page(
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
                "next": page_url(request, "before", older, drop="after"),
                "previous": page_url(request, "after", newer, drop="before"),
            }
        )


class _ExportFormat(BaseRenderer):
    """A file format of the export as content negotiation sees it; the view writes the file."""

    def __init__(self, fmt: str) -> None:
        self.format = fmt
        self.media_type = FORMATS[fmt][0].partition(";")[0]  # matched without its charset


class _ExportNegotiation(DefaultContentNegotiation):
    """The export's ``?format=`` names the file format, not a DRF renderer (errors are JSON).

    The Accept header is held against that format's media type with DRF's own matching, so
    ``text/markdown``, ``text/*`` or ``*/*`` take the default Markdown file and anything else
    is a 406, like every other view's answer to an Accept it cannot satisfy. An unknown format
    is left to the view, whose 400 names the formats there are.
    """

    def select_renderer(
        self, request: Request, renderers: Iterable[BaseRenderer], format_suffix: str | None = None
    ) -> tuple[BaseRenderer, str]:
        fmt = request.query_params.get("format", "markdown")
        if fmt in FORMATS:
            super().select_renderer(request, [_ExportFormat(fmt)], format_suffix)
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
        payload = export_payload(conversation, selectors.message_all(conversation=conversation))
        content_type, extension = FORMATS[fmt]
        body = render_markdown(payload) if fmt == "markdown" else render_json(payload)
        response = HttpResponse(body, content_type=content_type)
        response["Content-Disposition"] = (
            f'attachment; filename="conversation-{conversation.id}.{extension}"'
        )
        return response
