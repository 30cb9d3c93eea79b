"""Entity extraction for the offline tier: sources, schedule, destination, agent and a few more.

Entities are a flat dict of short strings (values at most 80 characters). Tools are
normalized to lower_snake names ("Google Sheets" -> ``google_sheets``), schedules to a
compact form ("every morning at 9am" -> ``daily 09:00``, "weekly on Mondays" ->
``weekly monday``) with the bare ``frequency`` beside them.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from intents.offline.lexicon import AGENT_WORD, CHAT_WORD, SOURCE_WORD, words
from intents.offline.schedule import NOON_WORDS, find_schedule, find_time, short_value
from intents.offline.text import Parsed, Unit

_EMAIL_DEST_RE = re.compile(
    r"\b(?:e-?mail(?:ed)? (?:it )?(?:to )?me|mail me|"
    r"send (?:it |this |them )?(?:to )?me (?:by|via|an|as an?) e-?mail|by e-?mail|via e-?mail|"
    r"over e-?mail|per e-?mail|per mail|to my inbox|in my inbox|"
    r"in an e-?mail|as an? e-?mail|an e-?mail|e-?mail (?:it|them|the \w+|a \w+)|"
    r"por correo|por e-?mail|par e-?mail|par mail|par courriel|por e-?mail|"
    r"per e-?mail|via e-?mail)\b"
)
_SMS_RE = re.compile(r"\b(?:text me|sms|via text|by text)\b")
_DM_RE = re.compile(r"\b(?:dm me|direct message|in a dm|as a dm|via dm)\b")
_PERIOD_RE = re.compile(
    r"\b(q[1-4](?: \d{4})?|last (?:week|month|quarter|year)|this (?:week|month|quarter|year)|"
    r"next (?:week|month|quarter)|yesterday|today|tomorrow|ytd|year to date|"
    r"(?<=for )(?:january|february|march|april|may|june|july|august|september|october|"
    r"november|december)(?: \d{4})?)\b"
)
_ROLE_RE = re.compile(r"\b(admin|viewer|editor|member|owner|billing admin|read-only|read only)s?\b")
_RENAME_RE = re.compile(
    r"\b(?:(?:rename\w* (?:[\w\-]+ ){0,3}?|call\w* (?:it|this|that|the agent|[\w\-]+)? ?)"
    r"(?:to|as)|(?:um)?benenn\w* (?:[\w\-]+ ){0,3}?(?:in|zu|als)|renomm[\w-]* (?:[\w\-]+ ){0,3}?"
    r"(?:en|comme)|renombr[\w-]* (?:[\w\-]+ ){0,3}?(?:a|como)|renome[\w-]* (?:[\w\-]+ ){0,3}?"
    r"(?:para|como)) [\"']?([a-z0-9][\w\-]{1,60})"
)
_TASK_RE = re.compile(
    r"\b(?:agent|bot|automation|workflow|skill|assistant|tool|capability|something|"
    r"agente|robot|automatisation|fahigkeit|habilidad|competence)s?\s+"
    r"(?:that|which|who|to|for|que|qui|der|die|das|para|pour|um|zum|zur)\s+([^.!?\n;]{3,200})"
)
_TEACH_RE = re.compile(r"\b(?:teach|learn|train)\w*(?: \w+)? (?:how )?to ([^.!?\n;]{3,200})")
_DATA_RE = re.compile(r"\b((?:[a-z]+ ){0,2}[a-z]+) data\b")
_DATA_STOP = words("the my our your this that some all any of from in on for with")


def _destination(parsed: Parsed, units: Sequence[Unit]) -> str | None:
    norm = parsed.norm
    channel = re.search(r"(?<![\w#])#([a-z0-9][a-z0-9_\-]*)", norm)
    if channel:
        tool = "slack"
        for unit in units:
            if unit.canon == CHAT_WORD and unit.tag != "slack":
                tool = unit.tag
        return f"{tool}:#{channel.group(1)}"
    if _DM_RE.search(norm):
        return "slack:dm"
    for unit in units:
        if unit.canon == "__email__":
            before = parsed.tokens[max(0, unit.start - 3) : unit.start]
            if not {"invite", "add", "remove", "user", "grant", "give"} & set(before):
                return f"email:{unit.tag}"
    if _EMAIL_DEST_RE.search(norm):
        return "email"
    if _SMS_RE.search(norm):
        return "sms"
    chat = [u for u in units if u.canon == CHAT_WORD]
    if chat:
        return chat[-1].tag
    return None


def entities_from(parsed: Parsed) -> dict[str, str]:
    """Entities of an already parsed message."""
    found: dict[str, str] = {}
    units = parsed.units
    norm = parsed.norm
    agents = [u.tag for u in units if u.canon == AGENT_WORD]
    if agents:
        found["agent"] = agents[0]
    sources: list[str] = []
    for unit in units:
        if unit.canon == SOURCE_WORD and unit.tag not in sources:
            sources.append(unit.tag)
    concepts = parsed.concepts
    destination = _destination(parsed, units) if concepts & _DEST_CUES or "@" in norm else None
    chat_tools = [u.tag for u in units if u.canon == CHAT_WORD]
    if (
        not sources
        and chat_tools
        and (destination in (None, "email", "sms") or _reads_from_chat(parsed, chat_tools[0]))
    ):
        sources.append(chat_tools[0])
    if sources:
        found["source"] = short_value(",".join(sources))
    if destination:
        found["destination"] = short_value(destination)
    # Each pattern runs only when a lexicon concept says it can match: most messages skip most.
    # Names such as "finance-monthly" or "weekly-digest" are not schedules.
    timing_text = (
        _SLUG_RE.sub(lambda m: m.group(0) if m.group(0).endswith("-feira") else " ", norm)
        if "-" in norm or "_" in norm
        else norm
    )  # "segunda-feira" is a day, not a name
    schedule = find_schedule(timing_text) if concepts & _SCHEDULE_CUES else None
    if schedule:
        found["schedule"], found["frequency"] = schedule
    elif concepts & _CLOCK_CUES or not NOON_WORDS.isdisjoint(parsed.tokens):
        clock = find_time(timing_text)
        if clock:
            found["time"] = clock
    period = None if _PERIOD_WORDS.isdisjoint(parsed.tokens) else _PERIOD_RE.search(norm)
    if period:
        found["period"] = period.group(1)
    if concepts & _TASK_CUES:
        task = _TASK_RE.search(norm) or _TEACH_RE.search(norm)
        if task:
            found["task"] = short_value(_TASK_TAIL_RE.split(task.group(1), maxsplit=1)[0])
    if "N_DATA" in concepts and " data" in norm:
        data = _DATA_RE.search(norm)
        if data:
            words = [w for w in data.group(1).split() if w not in _DATA_STOP]
            if words:
                found["data"] = short_value(" ".join(words))
    emails = [u.tag for u in units if u.canon == "__email__"]
    if emails and not (destination or "").startswith("email:"):
        found["user"] = short_value(emails[0])
    if concepts & {"N_ROLE", "N_USER"}:
        role = _ROLE_RE.search(norm)
        if role:
            found["role"] = role.group(1).replace(" ", "-")
    if "V_CHANGE" in concepts or "call" in norm:
        rename = _RENAME_RE.search(norm)
        if rename:
            found["new_name"] = short_value(rename.group(1))
    return found


_SLUG_RE = re.compile(r"\b[a-z0-9]+(?:[-_][a-z0-9]+)+\b")
# Where a task description ends and its schedule or destination begins.
_TASK_TAIL_RE = re.compile(
    r"\s+(?:every|each|daily|weekly|monthly|hourly|nightly|at \d|"
    r"on (?:mon|tue|wed|thu|fri|sat|sun)|cada|chaque|tous les|jeden|todos|todas|toda)\b|,"
)
_PERIOD_WORDS = words(
    "q1 q2 q3 q4 last this next yesterday today tomorrow ytd year january february march april "
    "may june july august september october november december"
)
_DEST_CUES = frozenset({"CHAT", "V_SEND", "EMAIL"})
_SCHEDULE_CUES = frozenset({"RECUR", "TIMEUNIT"})
_CLOCK_CUES = frozenset({"TIME", "NUM"})
_TASK_CUES = frozenset({"N_AGENT", "N_SKILL", "V_TEACH", "V_AUTOMATE"})


def _reads_from_chat(parsed: Parsed, tool: str) -> bool:
    """Whether the chat tool is read ("summarize slack threads") rather than written to."""
    norm = parsed.norm
    return bool(
        re.search(
            rf"\b(?:from|in|of|across|read|summari[sz]e|scan|monitor|watch)\b[^.]{{0,20}}"
            rf"\b{tool}\b",
            norm,
        )
        and not re.search(
            rf"\b(?:to|into|post\w* (?:in|on)|send\w* (?:in|on|via))\s+"
            rf"(?:the |our |my )?{tool}\b",
            norm,
        )
    )


def extract_entities(message: str, *, agents: Sequence[str] = ()) -> dict[str, str]:
    """Entities of a raw message, agent names matched against ``agents``."""
    from intents.offline.model import engine
    from intents.offline.text import agent_keys, parse

    parsed = parse(message, engine().analyzer, agent_keys(agents))
    return entities_from(parsed)
