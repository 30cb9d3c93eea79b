"""The whole of a skill-creation session as one typed document, and how it is stored.

``SkillContext`` round-trips through JSON. Stored, the JSON is gzip-compressed and base64-encoded
when it is larger than ``OMNIFORGE_SKILL_CONTEXT_GZIP_BYTES`` (a ``gz:`` prefix says so), and
encrypted like message content when keys are configured (the model field does that). A stored
document that cannot be read is reported and treated as missing, never a crash.
"""

from __future__ import annotations

import base64
import binascii
import dataclasses
import gzip
import json
import logging
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings

logger = logging.getLogger("omniforge.skills")

CONTEXT_VERSION = 1
STATES = (
    "gathering_purpose",
    "gathering_details",
    "confirming",
    "generating",
    "completed",
    "cancelled",
    "error",
)
MAX_HISTORY = 200  # exchanges kept in the document; older ones are in the conversation


class UnreadableContext(ValueError):
    """A stored session document that is not a context (corrupted, or from the future)."""


@dataclass
class SkillContext:
    state: str = "gathering_purpose"
    purpose: str = ""
    name: str = ""
    inputs: str = ""
    outputs: str = ""
    examples: list[str] = field(default_factory=list)
    draft: dict[str, Any] = field(default_factory=dict)
    history: list[dict[str, str]] = field(default_factory=list)
    asking: str = ""  # the detail the last reply asked for
    last_error: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"v": CONTEXT_VERSION, **dataclasses.asdict(self)}

    @classmethod
    def from_json(cls, data: Any) -> SkillContext:
        if not isinstance(data, dict) or data.get("v") != CONTEXT_VERSION:
            raise UnreadableContext("not a version-1 skill context")
        state = data.get("state")
        if state not in STATES:
            raise UnreadableContext(f"unknown state {state!r}")
        texts = {k: data.get(k, "") for k in ("purpose", "name", "inputs", "outputs", "asking")}
        if not all(isinstance(v, str) for v in texts.values()):
            raise UnreadableContext("a text field is not text")
        examples = data.get("examples", [])
        history = data.get("history", [])
        draft = data.get("draft", {})
        if not isinstance(examples, list) or not isinstance(history, list):
            raise UnreadableContext("examples and history are lists")
        return cls(
            state=state,
            examples=[str(e) for e in examples],
            draft=draft if isinstance(draft, dict) else {},
            history=[
                {"role": str(h.get("role", "")), "content": str(h.get("content", ""))}
                for h in history
                if isinstance(h, dict)
            ][-MAX_HISTORY * 2 :],
            last_error=str(data.get("last_error", "")),
            **texts,
        )


def context_dumps(context: SkillContext) -> str:
    text = json.dumps(context.to_json(), ensure_ascii=False, separators=(",", ":"))
    threshold = getattr(settings, "OMNIFORGE_SKILL_CONTEXT_GZIP_BYTES", 0)
    if threshold and len(text.encode()) > threshold:
        packed = base64.b64encode(gzip.compress(text.encode(), compresslevel=6)).decode()
        return "gz:" + packed
    return text


def context_loads(stored: str) -> SkillContext:
    """The context a stored document holds; ``UnreadableContext`` when it holds none."""
    try:
        if stored.startswith("gz:"):
            stored = gzip.decompress(base64.b64decode(stored[3:], validate=True)).decode()
        return SkillContext.from_json(json.loads(stored))
    except (ValueError, OSError, EOFError, binascii.Error, UnicodeDecodeError) as exc:
        if isinstance(exc, UnreadableContext):
            raise
        raise UnreadableContext(str(exc)) from exc
