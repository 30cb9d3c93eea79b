"""The wizard's reading of an answer: an acknowledgement, a question, or the details it adds."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from functools import lru_cache

from conversations.agents.selectors import agent_name
from intents.offline.entities import extract_entities
from intents.offline.schedule import find_days, find_time
from intents.offline.text import normalize
from intents.reading.cues import Cues, cues
from intents.reading.details.names import _NAME_RE, name_as_written, without_name
from intents.reading.details.places import _tool_of, destination_in, scope_in
from intents.reading.details.schedule import _PART_OF_DAY, _merge_when, zone_in
from intents.reading.details.task import (
    _AFTER_COLON_RE,
    _AGENT_FOR_RE,
    _clean,
    _job,
    _only_a_tool,
    what_it_does,
    what_it_watches,
)

_ACK_RE = re.compile(
    r"^[\s¡¿]*(?:(?:ok(?:ay)?|sure|yes|yeah|yep|yup|please|pls|thanks|thank you|great|fine|cool|"
    r"perfect|alright|right|got it|sounds good|go ahead|si|claro|vale|por favor|gracias|oui|"
    r"wait|hmm|moment|momento|attends|warte|espera|na gut|alles klar|passt|bueno|tudo bem|"
    r"danke (?:dir|euch|sch[öo]n|sehr)|vielen dank|thank you|merci (?:beaucoup|bien|[àa] toi)|"
    r"muchas gracias|gracias a ti|muito obrigad[oa]|"
    r"beleza|"
    r"d'accord|merci|ja|bitte|danke|genau|klar|sim|obrigad[oa]|sorry|oops|my bad|perd[oó]n|"
    r"pardon|d[ée]sol[ée]e?|entschuldigung|desculpa)\b[\s,.!]*)+",
    re.IGNORECASE,
)
# A question: it ends with a question mark, opens by saying it is one, or opens with a
# question word and asks with a question mark further on (the reading writes "what's" and
# "can't" as one word: "whats", "cant").
_SAYS_QUESTION = cues("^ =quick? =question")
_QUESTION_WORD_FIRST = cues(
    "^ =how|hows|what|whats|why|whys|when|whens|where|wheres|who|whos|which|can|cant|could|do"
    "|does|is|are"
)

_TIME_TAKEN_BACK_RE = re.compile(
    r"\b\d{1,2}(?::\d{2})?\s*(?:am|pm|h|uhr)?\s*(?:--|\u2014|\u2013|-|,|\.\.\.)?\s*"
    r"(?:no wait|no|actually|sorry|i mean|nein|non|não)[,\s-]+(?=\d)",
    re.IGNORECASE,
)
# Words that say the source changes (a later tool does not replace the source without them).
_NEW_SOURCE = cues(
    """
    =from|source|instead|switch|rather|actually|moved|not
    =no =longer
    """
)


def strip_acknowledgement(text: str) -> str:
    """The text without a leading "ok", "yes please", "sí", "bitte"…"""
    return _ACK_RE.sub("", text.strip()).strip()


def is_acknowledgement(text: str) -> bool:
    return not _ACK_RE.sub("", text.strip()).strip(" ,.!")


def is_question(text: str) -> bool:
    from intents.reading.reading import read  # the reading reads its details through here

    stripped = text.strip()
    if stripped.endswith("?"):
        return True
    said = read(stripped)
    return said.matches(_SAYS_QUESTION) or ("?" in stripped and said.matches(_QUESTION_WORD_FIRST))


def read_slots(
    text: str,
    *,
    have: Mapping[str, str],
    asking: Sequence[str],
    zone: str,
    opening: bool,
) -> dict[str, str]:
    """The details ``text`` adds to what the wizard ``have``s (only what it changes)."""
    if is_acknowledgement(text):
        return {}
    body = _ACK_RE.sub("", text.strip()).strip()
    body = _TIME_TAKEN_BACK_RE.sub(" ", body)  # "at 10 -- no wait 11am" is at 11am
    found = extract_entities(body)
    slots: dict[str, str] = {}
    destination = destination_in(body, found.get("destination"))
    source = _source_of(body, found, have, destination)
    if source:
        slots["source"] = source
    if destination:
        slots["destination"] = destination
    written = name_as_written(body)
    name = agent_name(written) if written else ""
    if name:
        slots["name"] = name
        if written and written != name:
            slots["title"] = written  # «Relances Échues», "Pedidos Atrasados", as written
    scope = scope_in(body)
    if scope and scope not in have.get("scope", ""):
        slots["scope"] = ", ".join(filter(None, [have.get("scope", ""), scope]))
    _read_when(body, found, have, zone, slots)
    # "we moved off Trello, it's Asana now: tasks completed in …": what it watches goes too.
    moved = bool(slots.get("source") and have.get("source") and slots["source"] != have["source"])
    if opening or moved or not have.get("trigger"):
        watched = what_it_watches(body)
        colon = _AFTER_COLON_RE.search(body) if moved and not watched else None
        if colon:
            watched = _clean(colon.group("what"))  # "It's Asana now: tasks completed in …"
        if watched and (opening or moved or not have.get("trigger")):
            slots["trigger"] = watched
    purpose = _AGENT_FOR_RE.search(body)
    if purpose and opening:
        about = _clean(purpose.group("what"))
        if len(about) >= 3 and not _only_a_tool(about):  # "an automation for Asana"
            slots["about"] = about
    job = _job(body)
    if job and not have.get("task"):
        slots["task"] = job
    does = what_it_does(without_name(body))  # "lager-warnung" names it; it is no alert
    if does and (not have.get("action") or does != "Send the results"):
        slots["action"] = does
    if not opening and not is_question(body):
        _free_text(without_name(body), slots, have, asking)
    return slots


def _source_of(
    body: str, found: Mapping[str, str], have: Mapping[str, str], destination: str | None
) -> str:
    """The tool the answer names as the source, or "" when it names none or must not set it."""
    from intents.reading.reading import read  # the reading reads its details through here

    # "I meant Linear, not Asana": the tool taken back is not the source.
    sources = [tool for tool in found.get("source", "").split(",") if tool]
    source = next((tool for tool in sources if not taken_back(tool, body)), "")
    if not source and _LINEAR_RE.search(body):
        source = "linear"  # "scroll through Linear": the tool, written as its name
    dest_tool = _tool_of(destination or "")
    # A tool named as where results go ("in Slack", "por Slack") is not the source; nor does
    # a later mention replace a source already given unless the user says so.
    if (
        source
        and source != dest_tool
        and (not have.get("source") or read(body).matches(_NEW_SOURCE))
    ):
        return source
    return ""


def _read_when(
    body: str, found: Mapping[str, str], have: Mapping[str, str], zone: str, slots: dict[str, str]
) -> None:
    """The schedule and time zone the answer gives, put into ``slots``."""
    when = found.get("schedule") or found.get("frequency")
    if not when and have.get("frequency", "").startswith(("weekly", "biweekly")):
        # "nicht freitag sondern donnerstag": a new day for a weekly schedule.
        days = find_days(normalize(body))
        clock = find_time(normalize(body))
        when = " ".join(["weekly", *days, *([clock] if clock else [])]) if days else None
    said_zone = zone_in(body)
    if when or said_zone or (have.get("frequency") and (find_time(normalize(body)))):
        compact = _merge_when(have.get("frequency", ""), when, body)
        if compact and not re.search(r"\d{1,2}:\d{2}", compact):
            for part, clock in _PART_OF_DAY.items():
                if part in compact.split():
                    # "every morning": the usual hour, said back in the summary.
                    compact = compact.replace(part, clock)
                    slots["defaulted"] = "an exact time"
        if compact:
            slots["frequency"] = compact
            slots["zone"] = said_zone or have.get("zone") or zone
        elif said_zone:
            slots["zone"] = said_zone


# "Linear" is also an English word: the tool only when written as a name, inside a sentence.
_LINEAR_RE = re.compile(r"(?<![.!?]\s)(?<!^)(?<=\s)Linear\b")


# Words that take a tool back, before it (a word that starts with the tool's name): not a bare
# "no", since "no asana" is Portuguese for "in Asana".
_TAKES_BACK = (
    "=not|nicht|pas|nao|dropped|ditched|dejamos",
    "=instead =of",
    "=rather =than",
    "=moved|moving =off",
    "=moved =away =from",
    "=switched|migrated =away? =from",
    "=no =longer =use|on|in",
    "=stopped =using",
    "=weg =von",
)


@lru_cache(maxsize=256)
def _taking_back(word: str) -> Cues:
    return cues("\n".join(f"{lead} =from|in? {word}*" for lead in _TAKES_BACK))


def taken_back(tool: str, text: str) -> bool:
    from intents.reading.reading import read  # the reading reads its details through here

    return read(text).matches(_taking_back(tool.split("_")[0].lower()))


# Words that only interject (a no, a wait, an "I mean"): a part made of them says nothing.
_INTERJECTIONS = tuple(
    tuple(phrase.split())
    for phrase in (
        "ah", "oh", "uh", "um", "hmm", "no", "non", "nope", "nein", "nee", "nao", "wait",
        "attends", "warte", "espera", "actually", "en fait", "eigentlich", "rather", "plutot",
        "instead", "i mean", "je veux dire", "mejor", "melhor", "sorry", "pardon", "oops",
    )
)  # fmt: skip


def _only_interjections(part: str) -> bool:
    """Whether ``part`` is nothing but interjections, one after another."""
    from intents.reading.reading import read  # the reading reads its details through here

    said, at = read(part).words, 0
    while at < len(said):
        step = next((len(w) for w in _INTERJECTIONS if said[at : at + len(w)] == w), 0)
        if not step:
            return False
        at += step
    return at > 0


def _free_text(
    body: str, slots: dict[str, str], have: Mapping[str, str], asking: Sequence[str]
) -> None:
    """A plain answer to the free-text question being asked ("revenue by region")."""
    # Where the results go, asked as "which spreadsheet?", is answered by its name as well.
    open_fields = [
        f for f in asking if f in ("trigger", "action", "destination") and not have.get(f)
    ]
    parts = [p.strip(" .!") for p in re.split(r"\s*[,;]\s*|\s+and\s+(?=\w+ alerts?\b)", body)]
    plain = [
        p
        for p in parts
        if len(p) >= 3
        and not extract_entities(p)
        and not _NAME_RE.search(p)
        and not is_acknowledgement(p)
        and not zone_in(p)  # "9:15, Asia/Kolkata": a time zone, not what it watches
        and not find_days(normalize(p))  # "nicht freitag sondern donnerstag": a day
        and not find_time(normalize(p))  # "plutôt 7h45": a time put right
        and not _only_interjections(p)  # "ah non", "oh wait, no"
    ]
    if open_fields and not slots.get(open_fields[0]) and plain:
        slots[open_fields[0]] = plain.pop(0)[:160]
    # What answers no question still matters ("the PLATFORM project, past due date").
    used = " ".join(v for v in slots.values()).lower()
    extra = [p for p in plain if p.lower() not in used]
    if extra:
        slots["details"] = "; ".join(filter(None, [have.get("details", ""), *extra]))[:300]
