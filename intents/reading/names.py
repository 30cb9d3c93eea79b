"""Names the product makes up for what the user did not name (an agent, a skill): the tool,
the objects of the names' vocabulary the details speak of, and a role word. Nothing else the
user typed gets in: names are stored plain (docs/OPERATIONS.md, encryption at rest)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from intents.offline.lexicon import AGENT_ROLES, CHAT_TOOLS, NAME_OBJECTS, SKILL_ROLES, SOURCES

NAME_ROLES = AGENT_ROLES | {role for _, role in SKILL_ROLES}
NAME_MAX_OBJECTS = 2  # a name is a handle, not a description


def name_objects(text: str) -> list[str]:
    """The objects of the names' vocabulary that ``text`` speaks of, in order and each once,
    as a name writes them ("an overdue pull request" -> ["pull-requests"])."""
    # Whole words, accented letters included: "préviens" is no "pr" (a pull request).
    tokens = "".join(ch if ch.isalnum() else " " for ch in text.lower()).split()
    found: list[str] = []
    at = 0
    while at < len(tokens):
        pair = _as_object("-".join(tokens[at : at + 2])) if at + 1 < len(tokens) else None
        word = pair or _as_object(tokens[at])
        if word and word not in found:
            found.append(word)
        at += 2 if pair else 1
    return found


def _as_object(word: str) -> str | None:
    forms = (word, word + "s", word[:-1] + "ies" if word.endswith("y") else "")
    return next((form for form in forms if form in NAME_OBJECTS), None)


def generated_name(*, tool: str, objects: Sequence[str], role: str, fallback: str) -> str:
    """A name for what the user did not name, made of the product's vocabulary only: the tool
    when the product knows it (an LLM's entities may name any), the first objects of the
    vocabulary, and a role word; ``fallback`` when none is left. Nothing else the user typed
    gets in: names are stored plain (docs/OPERATIONS.md, encryption at rest)."""
    known = tool in SOURCES or tool in CHAT_TOOLS
    parts = [tool.replace("_", "-") if known else ""]
    parts += [word for word in objects if word in NAME_OBJECTS][:NAME_MAX_OBJECTS]
    parts.append(role if role in NAME_ROLES else "")
    return "-".join(part for part in parts if part) or fallback


def agent_name_for(gathered: Mapping[str, str]) -> str:
    """The name the user gave, else one made of the product's words: the source, the objects
    of what it watches, and what it is ("jira-tickets-monitor")."""
    if gathered.get("name"):
        return gathered["name"]
    action = (gathered.get("action") or "").lower()
    role = "reporter" if any(w in action for w in ("summar", "report", "digest")) else "monitor"
    if gathered.get("task"):
        role = "sync"
    watched = gathered.get("trigger") or gathered.get("task", "")
    return generated_name(
        tool=gathered.get("source", ""), objects=name_objects(watched), role=role, fallback="agent"
    )
