"""How the assistant writes things: gathered values, numbered lists, field names."""

from __future__ import annotations

import re
from collections.abc import Sequence

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
