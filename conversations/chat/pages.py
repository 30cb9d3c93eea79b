"""The chat page: what a person opens first (``/``, and ``/c/<id>/`` for one conversation)."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.core.exceptions import ObjectDoesNotExist
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from conversations.chat.consumers import HISTORY_ON_CONNECT
from conversations.store import selectors
from conversations.tenancy.permissions import membership_of


@require_GET
@login_required
def chat_page(request: HttpRequest, conversation_id: str | None = None) -> HttpResponse:
    """A blank chat, or one of the caller's conversations; a conversation exists from its
    first message, never from a page visit."""
    membership = membership_of(request.user)
    if membership is None or not isinstance(request.user, User):
        return no_workspace_page(request)
    if conversation_id is not None:
        try:
            selectors.conversation_get(
                tenant=membership.tenant, user=request.user, conversation_id=conversation_id
            )
        except ObjectDoesNotExist:
            raise Http404("No such conversation.") from None
    return render(
        request,
        "chat/index.html",
        {
            "conversation_id": conversation_id or "",
            "tenant": membership.tenant,
            "ws_path": "/ws/chat/",
            "history_limit": HISTORY_ON_CONNECT,
            "message_max_chars": settings.OMNIFORGE_MESSAGE_MAX_CHARS,
        },
    )


def no_workspace_page(request: HttpRequest) -> HttpResponse:
    """What a signed-in account outside every tenant can do: a superuser opens the console (200),
    anyone else asks their workspace admin (403). Names nothing but the account itself."""
    superuser = bool(request.user.is_superuser)
    return render(request, "chat/no_workspace.html", status=200 if superuser else 403)
