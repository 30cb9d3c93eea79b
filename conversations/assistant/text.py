"""How the assistant writes things: gathered values, numbered lists, field names."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from string import ascii_lowercase, digits

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from conversations.assistant.wizard_replies import Translated
from intents.offline.lexicon import AGENT_ROLES, CHAT_TOOLS, NAME_OBJECTS, SKILL_ROLES, SOURCES

# The labels of the detail lines ("- Source: Jira"), read in the active language.
LABELS = Translated(
    {
        "source": gettext_lazy("Source"),
        "trigger": gettext_lazy("Watches"),
        "action": gettext_lazy("Action"),
        "schedule": gettext_lazy("Schedule"),
        "destination": gettext_lazy("Sends to"),
        "details": gettext_lazy("Details"),
    }
)
TOOL_NAMES = {
    "google_sheets": "Google Sheets",
    "hubspot": "HubSpot",
    "github": "GitHub",
    "postgresql": "PostgreSQL",
    "gmail": "Gmail",
}
NAME_ROLES = AGENT_ROLES | {role for _, role in SKILL_ROLES}
NAME_MAX_OBJECTS = 2  # a name is a handle, not a description
_KEY_CHARS = frozenset(ascii_lowercase + digits)  # of a snake_case key


def display(value: str) -> str:
    """A gathered value as a reply shows it ("google_sheets" -> Google Sheets)."""
    if value in TOOL_NAMES:
        return TOOL_NAMES[value]
    if value.startswith("slack:"):
        return _("Slack %(channel)s") % {"channel": value.partition(":")[2]}
    parts = value.split("_")
    if value[:1].isalpha() and all(part and _KEY_CHARS.issuperset(part) for part in parts):
        return value.replace("_", " ").title()
    return value


def numbered(lines: Sequence[str]) -> str:
    return "\n".join(
        _("%(n)d. %(line)s") % {"n": n, "line": line} for n, line in enumerate(lines, start=1)
    )


_CALLED = "Called \u201c"


def _split_called(details: str) -> tuple[list[str], str]:
    """The names in an agent's details ("Called “Late Load Digest”; …"), and the rest."""
    names: list[str] = []
    kept, rest = "", details
    while True:
        head, _, tail = rest.partition(_CALLED)
        name, closed, after = tail.partition("\u201d")
        if not closed:
            return names, kept + rest
        names.append(name)
        kept, rest = kept + head, after.removeprefix("; ")


def called(details: str, title: str) -> str:
    """An agent's details saying the name as the user wrote it ("Called “Late Load Digest”"),
    in place of a name written before."""
    rest = _split_called(details or "")[1].strip("; ")
    # Stored in the agent's details and read back by ``_split_called``: never translated.
    return "; ".join(filter(None, [_CALLED + title + "\u201d" if title else "", rest]))


def with_title(name: str, title: str | None) -> str:
    """A slug and the name as the user wrote it: "late-load-digest (“Late Load Digest”)"."""
    if title and title != name:
        return _("%(name)s (\u201c%(title)s\u201d)") % {"name": name, "title": title}
    return name


def called_in(details: str) -> str | None:
    """The name as the user wrote it, from an agent's details, or None."""
    names = _split_called(details or "")[0]
    return names[0] if names else None


def as_written(name: str, config: Mapping[str, object] | None) -> str:
    """An agent's name for a reply: its slug, and the name as the user wrote it when its
    details keep one ("rapport-stocks (“Rapport Stocks”)")."""
    return with_title(name, called_in(str((config or {}).get("details") or "")))


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
