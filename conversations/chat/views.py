"""``POST /api/v1/chat/``: one chat turn as JSON, or as Server-Sent Events.

A plain async Django view: DRF's views buffer async generators, and a streamed turn must reach
the client chunk by chunk and notice when the client goes away. Authentication, the tenant
check and throttling are DRF's own classes, run the way an APIView runs them.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Iterable
from typing import Any

from asgiref.sync import sync_to_async
from django.http import HttpRequest, JsonResponse, StreamingHttpResponse
from django.http.response import HttpResponseBase
from django.views.decorators.csrf import csrf_exempt
from rest_framework import exceptions
from rest_framework.authentication import TokenAuthentication
from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.request import Request
from rest_framework.views import APIView

from conversations.api.door import json_error, storage_unavailable
from conversations.chat.frames import ChatError
from conversations.chat.runner import TurnRunner
from conversations.chat.serializers import ChatRequestSerializer
from conversations.chat.turn import ChatTurn
from conversations.store.outage import TRANSIENT_STORAGE_ERRORS
from conversations.tenancy.permissions import request_tenant, request_user


class EventStreamRenderer(BaseRenderer):
    """``text/event-stream`` as content negotiation sees it; ``_stream`` writes the events."""

    media_type = "text/event-stream"


class _ChatNegotiation(DefaultContentNegotiation):
    def filter_renderers(
        self, renderers: Iterable[BaseRenderer], format: str
    ) -> list[BaseRenderer]:
        # The chat takes no ``?format=``: the Accept header alone picks JSON or the stream.
        return list(renderers)


class _ChatAPIView(APIView):
    """Lends DRF's content negotiation, authentication, parsers, permissions and throttles.

    JSON comes first, so a missing Accept header or ``*/*`` gets the JSON answer; anything
    neither JSON nor the stream accepts (``application/xml``, ``text/html``) is a 406.
    """

    renderer_classes = [JSONRenderer, EventStreamRenderer]
    content_negotiation_class = _ChatNegotiation


def _authorize(request: HttpRequest) -> tuple[Request, _ChatAPIView]:
    view = _ChatAPIView()
    view.request = request  # type: ignore[assignment]
    view.args, view.kwargs = (), {}
    drf_request = view.initialize_request(request)
    view.request = drf_request
    view.headers = {}
    view.format_kwarg = None
    # Content negotiation, authentication, IsTenantMember (sets the tenant) and throttles, in
    # APIView.initial's order: a 406 comes before anything else is looked at or stored.
    renderer, media_type = view.perform_content_negotiation(drf_request)
    drf_request.accepted_renderer, drf_request.accepted_media_type = renderer, media_type
    view.perform_authentication(drf_request)
    view.check_permissions(drf_request)
    view.check_throttles(drf_request)
    return drf_request, view


def _drf_error(exc: exceptions.APIException) -> JsonResponse:
    headers: dict[str, str] = {}
    if isinstance(exc, exceptions.NotAuthenticated | exceptions.AuthenticationFailed):
        # The same challenge DRF sends: token auth is the first authentication class.
        headers["WWW-Authenticate"] = TokenAuthentication.keyword
        return json_error(401, exc.detail, headers)
    wait = getattr(exc, "wait", None)
    if isinstance(exc, exceptions.Throttled) and wait is not None:
        headers["Retry-After"] = str(int(wait))
    detail = exc.detail if isinstance(exc.detail, dict) else {"detail": exc.detail}
    return json_error(exc.status_code, json.loads(json.dumps(detail, default=str)), headers)


def _sse(event: str, data: dict[str, Any]) -> str:
    return f"event: {event}\ndata: {json.dumps(data, ensure_ascii=False)}\n\n"


async def _stream(runner: TurnRunner) -> AsyncIterator[str]:
    # When the client goes away, Django closes this iterator; the turn runs on in its runner's
    # task and stores the whole reply, which the client finds when it returns.
    try:
        async for event in runner.events():
            kind = event["type"]
            if kind == "intent":
                yield _sse("intent", event["intent"])
            elif kind == "chunk":
                yield _sse("chunk", {"content": event["content"]})
            elif kind == "done":
                yield _sse(
                    "done",
                    {
                        "conversation_id": event["conversation_id"],
                        "user_message_id": event["user_message_id"],
                        "assistant_message_id": event["message_id"],
                    },
                )
    except ChatError as exc:
        yield _sse("error", {"code": exc.code, "detail": exc.detail})


@csrf_exempt
async def chat(request: HttpRequest) -> HttpResponseBase:
    if request.method != "POST":
        return json_error(405, f'Method "{request.method}" not allowed.', {"Allow": "POST"})

    def authorize_and_validate() -> tuple[Request, dict[str, Any]]:
        drf_request, _ = _authorize(request)
        body = ChatRequestSerializer(data=drf_request.data)
        body.is_valid(raise_exception=True)
        return drf_request, dict(body.validated_data)

    try:
        drf_request, body = await sync_to_async(authorize_and_validate)()
    except exceptions.APIException as exc:
        return _drf_error(exc)
    except TRANSIENT_STORAGE_ERRORS:  # the token or the membership could not be read
        return storage_unavailable()
    turn = ChatTurn(
        tenant=request_tenant(drf_request),
        user=request_user(drf_request),
        role=drf_request.membership.role,  # type: ignore[attr-defined]
        content=body["message"],
        conversation_id=body.get("conversation_id") or None,
        client_message_id=body.get("client_message_id"),
    )
    try:
        await turn.open()
    except ChatError as exc:
        return storage_unavailable() if exc.status == 503 else json_error(exc.status, exc.detail)

    runner = TurnRunner(turn)
    if isinstance(drf_request.accepted_renderer, EventStreamRenderer):
        response = StreamingHttpResponse(_stream(runner), content_type="text/event-stream")
        response["Cache-Control"] = "no-cache"
        response["X-Accel-Buffering"] = "no"  # nginx: pass each event on at once
        return response

    user_message: dict[str, Any] | None = None
    done: dict[str, Any] | None = None
    try:
        async for event in runner.events():
            if event["type"] == "ack":
                user_message = event["user_message"]
            elif event["type"] == "done":
                done = event
    except ChatError as exc:
        return json_error(exc.status, exc.detail)
    assert user_message is not None and done is not None
    return JsonResponse(
        {
            "conversation_id": done["conversation_id"],
            "user_message": user_message,
            "assistant_message": done["assistant_message"],
            "intent": done["intent"],
        }
    )
