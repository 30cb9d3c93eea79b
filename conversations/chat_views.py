"""``POST /api/v1/chat/``: one chat turn as JSON, or as Server-Sent Events.

A plain async Django view: DRF's views buffer async generators, and a streamed turn must reach
the client chunk by chunk and notice when the client goes away. Authentication, the tenant
check and throttling are DRF's own classes, run the way an APIView runs them.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

from asgiref.sync import sync_to_async
from django.http import HttpRequest, JsonResponse, StreamingHttpResponse
from django.http.response import HttpResponseBase
from django.views.decorators.csrf import csrf_exempt
from rest_framework import exceptions
from rest_framework.authentication import TokenAuthentication
from rest_framework.parsers import JSONParser
from rest_framework.request import Request
from rest_framework.views import APIView

from conversations.chat import ChatError, ChatTurn
from conversations.permissions import request_tenant, request_user


class _ChatAPIView(APIView):
    """Lends DRF's authentication, permission and throttle machinery to the async view."""

    parser_classes = [JSONParser]


def _authorize(request: HttpRequest) -> tuple[Request, _ChatAPIView]:
    view = _ChatAPIView()
    view.request = request  # type: ignore[assignment]
    view.args, view.kwargs = (), {}
    drf_request = view.initialize_request(request)
    view.request = drf_request
    view.headers = {}
    view.format_kwarg = None
    # Authentication, IsTenantMember (sets the tenant) and throttles, as APIView.initial does.
    view.perform_authentication(drf_request)
    view.check_permissions(drf_request)
    view.check_throttles(drf_request)
    return drf_request, view


def _error(status: int, detail: Any, headers: dict[str, str] | None = None) -> JsonResponse:
    body = detail if isinstance(detail, dict) else {"detail": str(detail)}
    response = JsonResponse(body, status=status)
    for key, value in (headers or {}).items():
        response[key] = value
    return response


def _drf_error(exc: exceptions.APIException) -> JsonResponse:
    headers: dict[str, str] = {}
    if isinstance(exc, exceptions.NotAuthenticated | exceptions.AuthenticationFailed):
        # The same challenge DRF sends: token auth is the first authentication class.
        headers["WWW-Authenticate"] = TokenAuthentication.keyword
        return _error(401, exc.detail, headers)
    wait = getattr(exc, "wait", None)
    if isinstance(exc, exceptions.Throttled) and wait is not None:
        headers["Retry-After"] = str(int(wait))
    detail = exc.detail if isinstance(exc.detail, dict) else {"detail": exc.detail}
    return _error(exc.status_code, json.loads(json.dumps(detail, default=str)), headers)


def _sse(event: str, data: dict[str, Any]) -> str:
    return f"event: {event}\ndata: {json.dumps(data, ensure_ascii=False)}\n\n"


async def _stream(turn: ChatTurn) -> AsyncIterator[str]:
    # When the client goes away, Django closes the response's iterator; the generators below it
    # are then closed by the event loop's async-generator finalizer, which runs the turn's
    # cleanup (store what was sent as interrupted, release the lease) exactly once.
    try:
        async for event in turn.events():
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
        return _error(405, f'Method "{request.method}" not allowed.', {"Allow": "POST"})
    try:
        drf_request, _ = await sync_to_async(_authorize)(request)
        body = await sync_to_async(lambda: drf_request.data)()
    except exceptions.APIException as exc:
        return _drf_error(exc)
    if not isinstance(body, dict):
        return _error(400, {"detail": "The body must be a JSON object."})
    unknown = sorted(set(body) - {"message", "conversation_id", "client_message_id"})
    if unknown:
        return _error(400, {field: ["Unknown field."] for field in unknown})
    if "message" not in body:
        return _error(400, {"message": ["This field is required."]})
    conversation_id = body.get("conversation_id")
    if conversation_id is not None and (
        not isinstance(conversation_id, str) or len(conversation_id) > 26
    ):
        return _error(400, {"conversation_id": ["Must be a conversation id."]})
    turn = ChatTurn(
        tenant=request_tenant(drf_request),
        user=request_user(drf_request),
        role=drf_request.membership.role,  # type: ignore[attr-defined]
        content=body["message"],
        conversation_id=conversation_id or None,
        client_message_id=body.get("client_message_id"),
    )
    try:
        await turn.open()
    except ChatError as exc:
        field = (
            "message"
            if exc.code in ("empty_message", "message_too_long", "invalid_message")
            else None
        )
        if exc.status == 400 and field:
            return _error(400, {field: [exc.detail]})
        return _error(exc.status, exc.detail)

    if "text/event-stream" in request.headers.get("Accept", ""):
        response = StreamingHttpResponse(_stream(turn), content_type="text/event-stream")
        response["Cache-Control"] = "no-cache"
        response["X-Accel-Buffering"] = "no"  # nginx: pass each event on at once
        return response

    user_message: dict[str, Any] | None = None
    done: dict[str, Any] | None = None
    try:
        async for event in turn.events():
            if event["type"] == "ack":
                user_message = event["user_message"]
            elif event["type"] == "done":
                done = event
    except ChatError as exc:
        return _error(exc.status, exc.detail)
    assert user_message is not None and done is not None
    return JsonResponse(
        {
            "conversation_id": done["conversation_id"],
            "user_message": user_message,
            "assistant_message": done["assistant_message"],
            "intent": done["intent"],
        }
    )
