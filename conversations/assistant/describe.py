"""How the wizard says what an agent does: the clause ``describe`` writes in the user's words
(English verbs put in the third person), the detail lines under it, and the configuration the
agent is stored with. Every wording comes from a template of ``wizard_replies``.
"""

from __future__ import annotations

from collections.abc import Mapping

from conversations.assistant.text import called, display, with_title
from conversations.assistant.wizard_replies import (
    AND_SENDS_THE_RESULTS_TO,
    AT_WHEN,
    DETAIL_LINE,
    DOES_THIS,
    FOR_ABOUT,
    IN_SCOPE,
    LABELS,
    PICKED,
    PICKED_OTHER,
    RUNS,
    SENDS_TO,
    TO,
    WATCHING,
    WATCHING_AND_DOING,
    WORKS_ON,
)
from intents.reading.details import Schedule, schedule_words

_ENGLISH_VERBS = frozenset(
    [
        "send",
        "build",
        "write",
        "copy",
        "paste",
        "pull",
        "export",
        "move",
        "compile",
        "update",
        "transfer",
        "sync",
        "enter",
        "type",
        "post",
        "watch",
        "check",
        "collect",
        "summarize",
        "summarise",
        "notify",
        "alert",
        "email",
        "ping",
        "track",
        "analyze",
        "analyse",
        "prepare",
        "put",
    ]
)


def schedule_of(gathered: Mapping[str, str]) -> Schedule | None:
    frequency = gathered.get("frequency")
    return Schedule(frequency, gathered.get("zone") or "UTC") if frequency else None


def detail_values(gathered: Mapping[str, str]) -> dict[str, str]:
    """The values of the detail lines, by field, in the order the lines come."""
    values = dict(gathered)
    if values.get("source"):
        values["source"] = display(values["source"])
    schedule = schedule_of(gathered)
    if schedule is not None:
        values["schedule"] = schedule.words()
        picked = gathered.get("defaulted")
        if picked:
            template = PICKED.get(picked, PICKED_OTHER)
            values["schedule"] = template % {"schedule": values["schedule"], "what": picked}
    if values.get("name"):
        values["name"] = with_title(values["name"], gathered.get("title"))
    return {key: values[key] for key in LABELS if values.get(key)}


def detail_line(label: str, value: str) -> str:
    return DETAIL_LINE % {"label": label, "value": value}


def detail_lines(gathered: Mapping[str, str]) -> list[str]:
    return [detail_line(LABELS[key], value) for key, value in detail_values(gathered).items()]


def _conjugated(verb: str) -> str:
    lowered = verb.lower()
    if lowered.endswith(("sh", "ch", "s", "x")):
        return lowered + "es"
    if lowered.endswith("y"):
        return lowered[:-1] + "ies"
    return lowered + "s"


def _third_person(phrase: str) -> str:
    """ "Build a report" -> "builds a report" (English verbs; other languages stay as said)."""
    verb, _, rest = phrase.partition(" ")
    if verb.lower() not in _ENGLISH_VERBS:
        return DOES_THIS % {"task": phrase}
    # "... and put together a deck" -> "and puts together": the second verb of the clause too.
    return (_conjugated(verb) + " " + _verbs_after_and(rest)).strip()


def _verbs_after_and(phrase: str) -> str:
    """``phrase`` with each English verb right after the word "and" conjugated."""
    out, at = [], 0
    while (found := phrase.find("and ", at)) >= 0:
        start = found + len("and ")
        end = start
        while end < len(phrase) and (phrase[end].isalnum() or phrase[end] == "_"):
            end += 1
        word = phrase[start:end]
        after_a_word = found > 0 and (phrase[found - 1].isalnum() or phrase[found - 1] == "_")
        if word in _ENGLISH_VERBS and not after_a_word:
            out.append(phrase[at:start] + _conjugated(word))
        else:
            out.append(phrase[at:end])
        at = max(end, start)
    return "".join(out) + phrase[at:]


def _lower_first(value: str) -> str:
    return value[:1].lower() + value[1:]


def _watching(gathered: Mapping[str, str]) -> str:
    """What the agent watches or reads, and where (the sheet, board or repository named)."""
    watched = gathered.get("trigger", "")
    source = display(gathered["source"]) if gathered.get("source") else ""
    if watched and source and source.lower() not in watched.lower():
        form = "source_for"
    elif watched:
        form = "watched"
    elif source:
        form = "source"
    else:
        return ""
    values = {"source": source, "watched": watched, "scope": gathered.get("scope", "")}
    return WATCHING[form, bool(gathered.get("scope"))] % values


def describe(gathered: Mapping[str, str]) -> str:
    """One clause naming what the agent would do, in the user's words."""
    watching = ""
    if gathered.get("task"):
        text = _third_person(gathered["task"])
    else:
        watching = _watching(gathered)
        doing = _third_person(gathered["action"]) if gathered.get("action") else ""
        text = (
            WATCHING_AND_DOING % {"watching": watching, "doing": doing}
            if watching and doing
            else watching or doing
        )
        about = gathered.get("about")
        if about:
            text = (
                FOR_ABOUT % {"what": text, "about": about} if text else WORKS_ON % {"about": about}
            )
    destination = gathered.get("destination")
    place = gathered.get("place", "")
    if destination and place and place in text:
        # The place named by its kind in the task, then which one: into that one.
        text = text.replace(place, destination, 1)
    elif destination:
        values = {"what": text, "destination": destination}
        if watching and not gathered.get("action"):
            # It watches, and nothing says what it does with what it finds.
            text = AND_SENDS_THE_RESULTS_TO % values
        else:
            text = TO % values if text else SENDS_TO % values
    schedule = schedule_of(gathered)
    if schedule is not None:
        when = schedule.words() if schedule.complete else schedule_words(schedule.compact)
        # "runs every Monday at 06:00" when nothing else is known yet.
        values = {"what": text, "when": _lower_first(when)}
        text = AT_WHEN % values if text else RUNS % values
    return text.strip()


def planned_config(gathered: Mapping[str, str]) -> dict[str, str]:
    schedule = schedule_of(gathered)
    config = {
        "source": gathered.get("source", ""),
        "trigger": gathered.get("trigger", ""),
        "action": gathered.get("task") or gathered.get("action", ""),
        "destination": gathered.get("destination", ""),
        "schedule": schedule.words() if schedule else "",
        "details": "; ".join(
            filter(
                None,
                [
                    called("", gathered.get("title", "")),
                    IN_SCOPE % {"scope": gathered["scope"]} if gathered.get("scope") else "",
                    gathered.get("about"),
                    gathered.get("details"),
                ],
            )
        ),
    }
    return {k: v[:500] for k, v in config.items() if v}
