"""The OpenAPI document's truth: the error answers of every operation, and closed bodies.

``document_errors`` (a drf-spectacular postprocessing hook) adds every error status an
operation can answer, as the API door produces them, closes request bodies to unknown fields,
as ``StrictSerializer`` enforces, and folds a drf-spectacular quirk that would call "" invalid
where the API accepts it.
"""

from __future__ import annotations

import re
from typing import Any

from conversations.chat.schema import CHAT_PATH

_NO_NUL = {"type": "string", "pattern": "^[^\\x00]*$"}
# Any JSON value whose text (keys included) the door accepts: what a client's metadata holds.
STORABLE_VALUE_SCHEMA = {
    "anyOf": [
        _NO_NUL,
        {"type": ["number", "boolean", "null"]},
        {"type": "array", "items": {"$ref": "#/components/schemas/StorableValue"}},
        {
            "type": "object",
            "propertyNames": _NO_NUL,
            "additionalProperties": {"$ref": "#/components/schemas/StorableValue"},
        },
    ]
}
ERROR_SCHEMA = {
    "type": "object",
    "description": (
        'DRF\'s error shape: `{"detail": "…"}`, or field names with lists of messages '
        '(`{"message": ["This field may not be blank."]}`).'
    ),
    "properties": {"detail": {"type": "string"}},
}
_ERROR_TEXT = {
    "400": "Bad input (a field, the JSON or the query string); nothing was stored.",
    "401": "Not authenticated.",
    "403": "Authenticated, but not allowed (no tenant, or not allowed to change this object).",
    "404": "Not found, or not the caller's.",
    "406": "The Accept header accepts none of the types the operation answers in.",
    "409": "The conversation is busy with another turn.",
    "413": "The request body is larger than the server accepts.",
    "415": "The body is not JSON.",
    "422": "Storage refused the message for what it holds; nothing was stored.",
    "429": "Throttled; Retry-After says when to try again.",
}
_BODY_METHODS = {"post", "put", "patch"}
_PATH_PARAM = re.compile(r"\{[^}]+\}")


def _error_response(status: str) -> dict[str, Any]:
    return {
        "description": _ERROR_TEXT[status],
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}},
    }


def _names_a_conversation(operation: dict[str, Any], schemas: dict[str, Any]) -> bool:
    """Whether the body may carry a ``conversation_id`` (the caller's, or a 404)."""
    content = operation.get("requestBody", {}).get("content", {}).get("application/json", {})
    ref = content.get("schema", {}).get("$ref", "")
    component = schemas.get(ref.rsplit("/", 1)[-1], {})
    return "conversation_id" in component.get("properties", {})


def _merge_blank_alternative(node: Any) -> None:
    """Fold drf-spectacular's ``oneOf: [string with pattern, string of length 0]``.

    That is how it writes a blank-allowed field with a pattern; an empty string then matches
    both branches, which ``oneOf`` forbids, so the document would call "" invalid while the
    API accepts it. The pattern branch alone already admits "".
    """
    if isinstance(node, list):
        for item in node:
            _merge_blank_alternative(item)
        return
    if not isinstance(node, dict):
        return
    branches = node.get("oneOf")
    if (
        isinstance(branches, list)
        and len(branches) == 2
        and branches[1] == {"type": "string", "maxLength": 0}
        and branches[0].get("type") == "string"
        and re.fullmatch(branches[0].get("pattern", "x"), "")
    ):
        del node["oneOf"]
        node.update(branches[0])
    for value in node.values():
        _merge_blank_alternative(value)


def document_errors(result: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    """drf-spectacular postprocessing hook: the error answers of every ``/api/`` operation."""
    _merge_blank_alternative(result)
    schemas = result.setdefault("components", {}).setdefault("schemas", {})
    schemas["Error"] = ERROR_SCHEMA
    schemas["StorableValue"] = STORABLE_VALUE_SCHEMA
    for name, component in schemas.items():
        # COMPONENT_SPLIT_REQUEST names every request body "…Request"; ours are all strict.
        if name.endswith("Request") and component.get("type") == "object":
            component["additionalProperties"] = False
    for path, operations in result.get("paths", {}).items():
        if not path.startswith("/api/v1/"):
            continue
        for method, operation in operations.items():
            # The door answers any request 400 (query parameters) or 413 (a body too large).
            statuses = {"400", "401", "403", "406", "413", "429"}
            if method in _BODY_METHODS:
                statuses.add("415")
            if _PATH_PARAM.search(path):
                statuses.add("404")
            if path == CHAT_PATH:
                statuses |= {"409", "422"}
            if _names_a_conversation(operation, schemas):
                statuses.add("404")
            responses = operation.setdefault("responses", {})
            for status in sorted(statuses):
                existing = responses.get(status)
                if existing is None or "content" not in existing:
                    responses[status] = _error_response(status)
    return result
