"""What the LLM tier read in the open wizard's fields, read again the offline way.

The LLM's structured reply may fill the fields of the agent being set up ("fields":
``intents/llm/parsing.py`` keeps known keys with short strings). Each value is read here with
the same detail reader as a message, so a field becomes the value the wizard stores in the
product's own form (a tool's key, "weekdays 08:00", "Slack #platform", an IANA zone, a name's
slug and the name as written) or is dropped: the LLM never writes a value the offline engine
could not have written, and a field it got wrong in form is no field at all.
"""

from __future__ import annotations

import zoneinfo
from collections.abc import Mapping

from conversations.agents.selectors import agent_name
from intents.reading.details import read_slots

_LONGEST_PHRASE = 200  # a watched thing or an action, as the user said it
# The field the LLM names, and the detail of the wizard its words give.
_READ_AS = {"source": "source", "destination": "destination", "schedule": "frequency"}


def details_told(fields: Mapping[str, str]) -> dict[str, str]:
    """The wizard details the LLM's ``fields`` give, each in the wizard's own form; a field
    the offline reader cannot read in that form is left out. A zone is there only when the
    fields name one."""
    details: dict[str, str] = {}
    for field, detail in _READ_AS.items():
        if fields.get(field):
            read = read_slots(fields[field], have={}, asking=(detail,), zone="", opening=False)
            if read.get(detail):
                details[detail] = read[detail]
                if read.get("zone"):
                    details["zone"] = read["zone"]
    told_zone = fields.get("timezone", "").strip()
    if _is_zone(told_zone):
        details["zone"] = told_zone
    for field in ("trigger", "action"):
        phrase = fields.get(field, "").strip(" .")
        if phrase and "\n" not in phrase and len(phrase) <= _LONGEST_PHRASE:
            details[field] = phrase
    written = fields.get("name", "").strip(" \"'\u201c\u201d")
    slug = agent_name(written) if written else ""
    if slug:
        details["name"] = slug
        if written != slug:
            details["title"] = written
    return details


def _is_zone(name: str) -> bool:
    try:
        zoneinfo.ZoneInfo(name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return False
    return True
