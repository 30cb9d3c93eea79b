"""A conversation as a downloadable file (Markdown for people, JSON for programs)."""

from __future__ import annotations

import json
from typing import Any

from django.core.serializers.json import DjangoJSONEncoder

from conversations.models import Conversation, Message

FORMATS = {"markdown": ("text/markdown; charset=utf-8", "md"), "json": ("application/json", "json")}


def export_payload(conversation: Conversation, messages: list[Message]) -> dict[str, Any]:
    return {
        "conversation": {
            "id": conversation.id,
            "title": conversation.title,
            "created_at": conversation.created_at,
            "updated_at": conversation.updated_at,
            "message_count": conversation.message_count,
            "metadata": conversation.metadata,
        },
        "messages": [
            {
                "id": m.id,
                "seq": m.seq,
                "role": m.role,
                "content": m.content,
                "created_at": m.created_at,
                "metadata": m.metadata,
            }
            for m in messages
        ],
    }


def render_json(payload: dict[str, Any]) -> str:
    return json.dumps(payload, cls=DjangoJSONEncoder, ensure_ascii=False, indent=2)


def render_markdown(payload: dict[str, Any]) -> str:
    conv = payload["conversation"]
    lines = [
        f"# {conv['title'] or 'Untitled conversation'}",
        "",
        f"- Conversation: `{conv['id']}`",
        f"- Started: {conv['created_at'].isoformat()}",
        f"- Messages: {conv['message_count']}",
        "",
    ]
    for m in payload["messages"]:
        heading = f"## {m['seq']}. {m['role'].capitalize()} · {m['created_at'].isoformat()}"
        intent = m["metadata"].get("intent") if isinstance(m["metadata"], dict) else None
        lines.append(heading)
        if isinstance(intent, dict) and intent.get("action_type"):
            lines.append(f"_intent: {intent['action_type']} via {intent.get('method', '?')}_")
        lines.extend(["", m["content"], ""])
    return "\n".join(lines)
