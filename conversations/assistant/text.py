"""How the assistant writes things: gathered values, numbered lists, field names."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

LABELS = {
    "source": "Source",
    "trigger": "Watches",
    "action": "Action",
    "schedule": "Schedule",
    "destination": "Sends to",
    "details": "Details",
}
TOOL_NAMES = {
    "google_sheets": "Google Sheets",
    "hubspot": "HubSpot",
    "github": "GitHub",
    "postgresql": "PostgreSQL",
    "gmail": "Gmail",
}


def display(value: str) -> str:
    """A gathered value as a reply shows it ("google_sheets" -> Google Sheets)."""
    if value in TOOL_NAMES:
        return TOOL_NAMES[value]
    if value.startswith("slack:"):
        return f"Slack {value.partition(':')[2]}"
    if re.fullmatch(r"[a-z][a-z0-9]*(?:_[a-z0-9]+)*", value):
        return value.replace("_", " ").title()
    return value


def numbered(lines: Sequence[str]) -> str:
    return "\n".join(f"{n}. {line}" for n, line in enumerate(lines, start=1))


_CALLED_RE = re.compile(r"Called \u201c([^\u201d]*)\u201d(?:; )?")


def called(details: str, title: str) -> str:
    """An agent's details saying the name as the user wrote it ("Called “Late Load Digest”"),
    in place of a name written before."""
    rest = _CALLED_RE.sub("", details or "").strip("; ")
    return "; ".join(filter(None, [f"Called \u201c{title}\u201d" if title else "", rest]))


def with_title(name: str, title: str | None) -> str:
    """A slug and the name as the user wrote it: "late-load-digest (“Late Load Digest”)"."""
    return f"{name} (\u201c{title}\u201d)" if title and title != name else name


def called_in(details: str) -> str | None:
    """The name as the user wrote it, from an agent's details, or None."""
    match = _CALLED_RE.search(details or "")
    return match.group(1) if match else None


def as_written(name: str, config: Mapping[str, object] | None) -> str:
    """An agent's name for a reply: its slug, and the name as the user wrote it when its
    details keep one ("rapport-stocks (“Rapport Stocks”)")."""
    return with_title(name, called_in(str((config or {}).get("details") or "")))
