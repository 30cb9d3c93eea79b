"""What a turn sends its client: messages as the API shows them, the reply in chunks, errors."""

from __future__ import annotations

import itertools
import logging
from datetime import datetime
from typing import Any

from django.db import DatabaseError, DataError, IntegrityError

from conversations.models import Message
from conversations.store.services import PendingMessage

logger = logging.getLogger("omniforge.chat")

CHUNK_CHARS = 80


class ChatError(Exception):
    """A turn that cannot start: bad input, or a conversation that is not the caller's."""

    def __init__(self, code: str, detail: str, *, status: int = 400) -> None:
        super().__init__(detail)
        self.code = code
        self.detail = detail
        self.status = status


def storage_refused(exc: DatabaseError) -> ChatError:
    """What the client hears when storage refuses a write for good (not "unavailable")."""
    logger.error("chat: storage refused a write: %s", type(exc).__name__, exc_info=exc)
    if isinstance(exc, DataError | IntegrityError):
        # Refused for what it holds: sending it again cannot help.
        return ChatError("storage_refused", "The message could not be stored.", status=422)
    return ChatError("storage_refused", "The message could not be stored.", status=500)


def message_dict(message: Message | PendingMessage, conversation_id: str) -> dict[str, Any]:
    """A message as the API and the socket show it."""
    created = message.created_at
    return {
        "id": message.id,
        "conversation_id": conversation_id,
        "role": message.role,
        "content": message.content,
        "created_at": created.isoformat().replace("+00:00", "Z")
        if isinstance(created, datetime)
        else created,
        "metadata": message.metadata,
    }


def _words_with_spaces(text: str) -> list[str]:
    """Each word with the spaces after it (and the spaces the text starts with, alone)."""
    runs = ["".join(run) for _, run in itertools.groupby(text, str.isspace)]
    lead = runs[:1] if runs and runs[0].isspace() else []
    rest = runs[len(lead) :]
    return lead + ["".join(rest[i : i + 2]) for i in range(0, len(rest), 2)]


def chunks_of(text: str, size: int = CHUNK_CHARS) -> list[str]:
    """The reply in pieces of about ``size`` characters, split between words."""
    pieces: list[str] = []
    current = ""
    for token in _words_with_spaces(text):
        if current and len(current) + len(token) > size:
            pieces.append(current)
            current = ""
        current += token
    if current:
        pieces.append(current)
    return pieces or [text]


def replay_frames(reply: Message | PendingMessage, conversation_id: str) -> list[dict[str, Any]]:
    """A stored turn's frames again, for a message re-sent with its ``client_message_id``."""
    intent = reply.metadata.get("intent") or {}
    return [
        {"type": "intent", "intent": intent},
        *({"type": "chunk", "content": piece} for piece in chunks_of(reply.content)),
        {
            "type": "done",
            "message_id": reply.id,
            "content": reply.content,
            "interrupted": bool(reply.metadata.get("interrupted")),
            "conversation_id": conversation_id,
            "user_message_id": reply.metadata.get("reply_to"),
            "assistant_message": message_dict(reply, conversation_id),
            "intent": intent,
            "replayed": True,
        },
    ]


def socket_frame(event: dict[str, Any]) -> dict[str, Any]:
    """A turn event as the WebSocket frame every socket on the conversation receives."""
    kind = event["type"]
    if kind == "ack":
        return {
            "type": "ack",
            "conversation_id": event["conversation_id"],
            "message_id": event["message_id"],
            "client_message_id": event["client_message_id"],
            "message": event["user_message"],
        }
    if kind == "intent":
        return {"type": "intent", "intent": event["intent"]}
    if kind == "chunk":
        return {"type": "chunk", "content": event["content"]}
    if kind == "done":
        return {
            "type": "done",
            "message_id": event["message_id"],
            "content": event["content"],
            "interrupted": event["interrupted"],
            "conversation_id": event["conversation_id"],
            "message": event["assistant_message"],
        }
    return {"type": kind}
