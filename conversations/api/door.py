"""The HTTP door of the API: what a request may be, and how every error under ``/api/`` looks.

Two pieces, each the one place for its job (the third, ``conversations.api.errors``,
lives apart because DRF imports this module's parser while it defines its own views):

- ``client_json_problem`` decides whether JSON a client sent can be stored: text must be valid
  Unicode without NUL bytes (PostgreSQL refuses NUL in text, and an unpaired surrogate cannot be
  encoded as UTF-8, so a row holding one breaks every later read of it), and nesting is
  bounded. The JSON parser below applies it to every request body; the WebSocket consumer
  applies it to every frame.
- ``ApiDoorMiddleware`` bounds a request before any view reads it (body size, query
  parameters) and turns any error answer under ``/api/`` into JSON in DRF's shape, whatever
  raised it and whether DEBUG is on or not; storage that is unavailable for now is a 503 with
  ``Retry-After`` on every page.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from asgiref.sync import iscoroutinefunction, markcoroutinefunction
from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.http.response import HttpResponseBase
from django.urls import Resolver404, resolve
from rest_framework import exceptions
from rest_framework.parsers import JSONParser

from conversations.store.outage import RETRY_AFTER_S, UNAVAILABLE, is_transient

logger = logging.getLogger("omniforge.api")

API_PREFIX = "/api/"
# Deeper JSON than this is no metadata anyone needs; Python's parser gives up near 1,000.
MAX_JSON_DEPTH = 32
# Our endpoints take at most three query parameters.
MAX_QUERY_PARAMS = 50
TEXT_PROBLEM = "Must be valid Unicode text without NUL characters."
DEPTH_PROBLEM = f"JSON must not be nested more than {MAX_JSON_DEPTH} levels deep."
# Headers an error answer keeps when it is rewritten as JSON.
_KEPT_HEADERS = ("Allow", "Retry-After", "WWW-Authenticate", "Vary")
_DETAILS = {
    400: "Bad request.",
    404: "Not found.",
    413: "The request body is too large.",
    414: "The request URL is too long.",
    500: "A server error occurred.",
    503: UNAVAILABLE,
}


def text_is_storable(value: str) -> bool:
    if "\x00" in value:
        return False
    if value.isascii():
        return True
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:  # an unpaired surrogate
        return False
    return True


def client_json_problem(data: Any) -> tuple[str, str] | None:
    """``(field, reason)`` for the first part of a client's JSON that cannot be stored, or None.

    ``field`` is the top-level key the problem sits under (``"detail"`` for the document as a
    whole). Iterative, so hostile nesting cannot exhaust the stack.
    """
    stack: list[tuple[Any, int, str]] = [(data, 0, "detail")]
    while stack:
        value, depth, field = stack.pop()
        if depth > MAX_JSON_DEPTH:
            return "detail", DEPTH_PROBLEM
        if isinstance(value, str):
            if not text_is_storable(value):
                return field, TEXT_PROBLEM
        elif isinstance(value, Mapping):
            for key, item in value.items():
                name = str(key) if depth == 0 else field
                if not text_is_storable(str(key)):
                    return (field if depth else "detail"), TEXT_PROBLEM
                stack.append((item, depth + 1, name))
        elif isinstance(value, list):
            stack.extend((item, depth + 1, field) for item in value)
    return None


class StrictJSONParser(JSONParser):
    """DRF's JSON parser, refusing what cannot be stored before any view sees it."""

    def parse(
        self,
        stream: Any,
        media_type: str | None = None,
        parser_context: Mapping[str, Any] | None = None,
    ) -> Any:
        try:
            data = super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise exceptions.ParseError(DEPTH_PROBLEM) from None
        problem = client_json_problem(data)
        if problem is not None:
            field, reason = problem
            # DRF's shape: "detail" holds a message, a field holds a list of them.
            raise exceptions.ValidationError({field: reason if field == "detail" else [reason]})
        return data


def json_error(status: int, detail: Any, headers: Mapping[str, str] | None = None) -> JsonResponse:
    """An error answer in DRF's shape: ``{"detail": "…"}`` or ``{field: ["…"]}``."""
    body = detail if isinstance(detail, dict) else {"detail": str(detail)}
    response = JsonResponse(body, status=status)
    for key, value in (headers or {}).items():
        response[key] = value
    return response


def storage_unavailable() -> JsonResponse:
    """The JSON answer to a request that needs storage while it is unreachable."""
    return json_error(503, UNAVAILABLE, {"Retry-After": str(RETRY_AFTER_S)})


def _under_api(request: HttpRequest) -> bool:
    return request.path_info.startswith(API_PREFIX)


def _refusal(request: HttpRequest) -> HttpResponse | None:
    """The answer to a request no view should see, or None to let it through."""
    meta = request.META
    query = meta.get("QUERY_STRING", "")
    if query and query.count("&") + 1 > MAX_QUERY_PARAMS:
        return json_error(400, f"Use at most {MAX_QUERY_PARAMS} query parameters.")
    raw_length = meta.get("CONTENT_LENGTH") or ""
    limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    if raw_length:
        try:
            length = int(raw_length)
        except ValueError:
            return json_error(400, "Content-Length must be a number.")
        if limit is not None and length > limit:
            return json_error(413, f"The request body is larger than {limit} bytes.")
    elif "chunked" in meta.get("HTTP_TRANSFER_ENCODING", "").lower():
        # DRF reads only as many bytes as Content-Length says, so a chunked body would be read
        # as empty. Django has buffered it; reading it here checks its real size and tells
        # the parsers how long it is.
        try:
            body = request.body
        except RequestDataTooBig:
            return json_error(413, f"The request body is larger than {limit} bytes.")
        meta["CONTENT_LENGTH"] = str(len(body))
    if not request.path_info.endswith("/") and request.method not in ("GET", "HEAD"):
        # CommonMiddleware would redirect (and, with DEBUG on, raise) to add the slash; a
        # redirect loses a POST's body, so an API client gets a plain 404 instead.
        try:
            resolve(request.path_info)
        except Resolver404:
            return json_error(404, "Not found.")
    return None


def _as_json(response: HttpResponseBase) -> HttpResponseBase:
    if response.status_code < 400 or response.streaming:
        return response
    if response.get("Content-Type", "").startswith("application/json"):
        return response
    status = response.status_code
    reason = getattr(response, "reason_phrase", "") or "Error"
    detail = _DETAILS.get(status, f"{reason}.")
    headers = {key: response[key] for key in _KEPT_HEADERS if response.has_header(key)}
    return json_error(status, detail, headers)


class ApiDoorMiddleware:
    """Bounds every ``/api/`` request and answers every error there as DRF-shaped JSON.

    First in ``MIDDLEWARE``, so it also sees answers that other middleware or Django's own
    exception handling produced (an HTML 404 listing URL patterns with DEBUG on, a 400 for a
    suspicious request). A view's unhandled exception is logged here and answered with a JSON
    500 instead of Django's debug page, which can itself fail on the bad input that caused it.
    """

    sync_capable = True
    async_capable = True

    def __init__(self, get_response: Callable[[HttpRequest], Any]) -> None:
        self.get_response = get_response
        self.is_async = iscoroutinefunction(get_response)
        if self.is_async:
            markcoroutinefunction(self)

    def __call__(self, request: HttpRequest) -> Any:
        if self.is_async:
            return self.__acall__(request)
        if not _under_api(request):
            return self.get_response(request)
        refused = _refusal(request)
        if refused is not None:
            return refused
        return _as_json(self.get_response(request))

    async def __acall__(self, request: HttpRequest) -> HttpResponseBase:
        get_response: Callable[[HttpRequest], Awaitable[HttpResponseBase]] = self.get_response
        if not _under_api(request):
            return await get_response(request)
        refused = _refusal(request)
        if refused is not None:
            return refused
        return _as_json(await get_response(request))

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if is_transient(exception):
            # The database is down or out of connections: come back shortly, on every page.
            logger.warning(
                "storage unavailable on %s %s: %s",
                request.method,
                request.path_info,
                type(exception).__name__,
            )
            if _under_api(request):
                return storage_unavailable()
            response = HttpResponse(UNAVAILABLE, status=503, content_type="text/plain")
            response["Retry-After"] = str(RETRY_AFTER_S)
            return response
        if not _under_api(request):
            return None
        logger.error(
            "api: unhandled %s on %s %s",
            type(exception).__name__,
            request.method,
            request.path_info,
            exc_info=exception,
        )
        return json_error(500, _DETAILS[500])
