"""How domain exceptions look at the HTTP door (DRF's ``EXCEPTION_HANDLER``)."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ObjectDoesNotExist
from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import Http404
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from conversations.agents.services import AgentNameTaken
from conversations.store.outage import RETRY_AFTER_S, UNAVAILABLE, is_transient


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """DRF's handler, plus the domain exceptions services raise.

    ``DoesNotExist`` from a tenant-checked lookup is a 404 (another tenant's object does not
    exist for the caller), a Django ``ValidationError`` is a 400 with its messages, and a name
    the tenant already uses is a 409. Storage that is unavailable for now (the database down or
    out of connections) is a 503 with ``Retry-After``, never a 500.
    """
    if is_transient(exc):
        return Response(
            {"detail": UNAVAILABLE},
            status=status.HTTP_503_SERVICE_UNAVAILABLE,
            headers={"Retry-After": str(RETRY_AFTER_S)},
        )
    if isinstance(exc, AgentNameTaken):
        return Response({"name": [str(exc)]}, status=status.HTTP_409_CONFLICT)
    if isinstance(exc, ObjectDoesNotExist | Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, DjangoValidationError):
        detail: Any
        if hasattr(exc, "error_dict"):
            detail = {field: [str(m) for m in errs] for field, errs in exc.message_dict.items()}
        else:
            detail = {"detail": " ".join(str(m) for m in exc.messages)}
        exc = exceptions.ValidationError(detail)
    return drf_exception_handler(exc, context)
