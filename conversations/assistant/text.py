"""How the assistant writes things: gathered values, numbered lists, field names."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from string import ascii_lowercase, digits

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from conversations.assistant.wizard_replies import Translated
from intents.offline.lexicon import SPELLED, spelled

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
_KEY_CHARS = frozenset(ascii_lowercase + digits)  # of a snake_case key


def display(value: str) -> str:
    """A gathered value as a reply shows it: a tool's key as the product writes the tool
    ("google_sheets" -> Google Sheets), anything else as it is."""
    if value.startswith("slack:"):
        return _("Slack %(channel)s") % {"channel": value.partition(":")[2]}
    parts = value.split("_")
    if value in SPELLED or (
        value[:1].isalpha() and all(part and _KEY_CHARS.issuperset(part) for part in parts)
    ):
        return spelled(value)
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
