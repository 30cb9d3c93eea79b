"""OpenAPI for ``POST chat/``, which drf-spectacular cannot see (it is a plain async view)."""

from __future__ import annotations

from typing import Any

_REF = "#/components/schemas/"


def add_chat_endpoint(result: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    """drf-spectacular postprocessing hook: documents the chat turn beside the DRF views."""
    schemas = result.setdefault("components", {}).setdefault("schemas", {})
    schemas["ChatRequest"] = {
        "type": "object",
        "required": ["message"],
        "properties": {
            "message": {"type": "string", "minLength": 1, "maxLength": 16000},
            "conversation_id": {
                "type": "string",
                "description": "Continue this conversation of yours; omitted: start a new one.",
            },
            "client_message_id": {
                "type": "string",
                "maxLength": 64,
                "description": "Idempotency key: a re-sent key is answered from storage.",
            },
        },
    }
    schemas["ChatTurn"] = {
        "type": "object",
        "required": ["conversation_id", "user_message", "assistant_message", "intent"],
        "properties": {
            "conversation_id": {"type": "string"},
            "user_message": {"$ref": f"{_REF}Message"},
            "assistant_message": {"$ref": f"{_REF}Message"},
            "intent": {"$ref": f"{_REF}IntentResult"},
        },
    }
    error = {"application/json": {"schema": {"type": "object"}}}
    result.setdefault("paths", {})["/api/v1/chat/"] = {
        "post": {
            "operationId": "chat_turn",
            "summary": "One chat turn with the master agent",
            "description": (
                "Stores the message, classifies it with recent history, answers with a template "
                "reply and stores it. With `Accept: text/event-stream` the answer streams as "
                'Server-Sent Events: `intent`, then `chunk` events (`{"content"}`), then `done` '
                '(`{"conversation_id", "user_message_id", "assistant_message_id"}`), or `error`.'
            ),
            "tags": ["chat"],
            "security": [{"tokenAuth": []}, {"cookieAuth": []}],
            "requestBody": {
                "required": True,
                "content": {"application/json": {"schema": {"$ref": f"{_REF}ChatRequest"}}},
            },
            "responses": {
                "200": {
                    "description": "The turn",
                    "content": {
                        "application/json": {"schema": {"$ref": f"{_REF}ChatTurn"}},
                        "text/event-stream": {"schema": {"type": "string"}},
                    },
                },
                "400": {"description": "Bad input; nothing stored", "content": error},
                "401": {"description": "Not authenticated", "content": error},
                "404": {"description": "Not your conversation", "content": error},
                "409": {
                    "description": "The conversation is busy with another turn",
                    "content": error,
                },
                "429": {"description": "Throttled", "content": error},
            },
        }
    }
    return result
