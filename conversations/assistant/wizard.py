"""The create-agent wizard: gather the details in any order and over any turns, then create it.

What is gathered comes from ``slots.read_slots`` (clean phrases in the user's words). A request
the user did not make (a described chore answered with "I can set up an agent that …") waits
for a yes; so does a second agent identical to one that exists. The agent created last can be
amended ("call it …", "in Berlin time") or undone ("actually cancel that") on the next turn.
Every reply comes from a template of ``wizard_replies`` (marked for translation).
"""

from __future__ import annotations

import string
from collections.abc import Mapping

from conversations.agents import selectors as agents
from conversations.assistant.effects import CreateAgent, DeleteAgent, UpdateAgent
from conversations.assistant.outcome import Outcome, Reply, Turn
from conversations.assistant.state import AssistantState, Created, Wizard
from conversations.assistant.text import (
    TOOL_NAMES,
    as_written,
    called,
    display,
    numbered,
    with_title,
)
from conversations.assistant.wizard_replies import (
    A_FEW_QUESTIONS,
    ALREADY_HAVE,
    AND_SENDS_THE_RESULTS_TO,
    AT_WHEN,
    CREATED,
    DETAIL_LINE,
    DOES_THIS,
    FOR_ABOUT,
    GOT_IT,
    IN_SCOPE,
    LABELS,
    OPENING,
    PICKED,
    PICKED_OTHER,
    PROPOSE,
    PROPOSE_WITH_DETAILS,
    QUESTION_TIME,
    QUESTIONS,
    RECAP,
    RECAP_ASKED,
    RECAP_ASKING,
    RECAP_DUPLICATE,
    RECAP_NOTHING_YET,
    RECAP_PROPOSED,
    RECAP_SO_FAR,
    RENAMED_LINE,
    RUNS,
    SENDS_TO,
    SETTING_LABELS,
    SUMMARY_TITLE,
    TAKES_THIS_OFF_YOUR_HANDS,
    TIMES_IN,
    TO,
    UNDONE,
    UPDATED,
    UPDATED_NOW_DOES,
    WATCHING,
    WATCHING_AND_DOING,
    WORKS_ON,
)
from conversations.models import Agent, new_id
from intents.reading.details import Schedule, schedule_words
from intents.reading.names import agent_name_for
from intents.reading.reading import Reading
from intents.reading.values import Setting

MAX_QUESTIONS = 3
# Words that say nothing of what an agent does: two agents are compared on their other words.
FILLER_WORDS = frozenset((
    "the", "a", "an", "our", "my", "for", "of", "to", "on", "in", "and", "any", "all", "that",
    "when", "with", "from", "every", "monitor", "monitors", "watch", "watches", "daily",
    "weekly", "monthly", "hourly", "new", "board", "than", "more", "de", "la", "le", "les",
    "los", "las", "der", "die", "das", "des", "du", "et", "y", "und", "into", "dashboard",
))  # fmt: skip
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


def tenant_zone(turn: Turn) -> str:
    zone = (turn.tenant.settings or {}).get("time_zone")
    return zone if isinstance(zone, str) and zone else "UTC"


def _tool(value: str) -> str:
    return TOOL_NAMES.get(value, display(value))


def schedule_of(gathered: Mapping[str, str]) -> Schedule | None:
    frequency = gathered.get("frequency")
    return Schedule(frequency, gathered.get("zone") or "UTC") if frequency else None


def _detail_values(gathered: Mapping[str, str]) -> dict[str, str]:
    """The values of the detail lines, by field, in the order the lines come."""
    values = dict(gathered)
    if values.get("source"):
        values["source"] = _tool(values["source"])
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


def _detail_line(label: str, value: str) -> str:
    return DETAIL_LINE % {"label": label, "value": value}


def detail_lines(gathered: Mapping[str, str]) -> list[str]:
    return [_detail_line(LABELS[key], value) for key, value in _detail_values(gathered).items()]


def _missing(gathered: Mapping[str, str]) -> list[str]:
    missing = []
    if not gathered.get("source"):
        missing.append("source")
    # "email a cost summary of the 'Fuel' tab": a summary or report of a named sheet, board or
    # repository works on all of it.
    action = gathered.get("action", "").lower()
    whole = bool(gathered.get("scope")) and ("summar" in action or "report" in action)
    if not (gathered.get("trigger") or gathered.get("task") or whole):
        missing.append("trigger")
    if not (gathered.get("action") or gathered.get("destination") or gathered.get("task")):
        missing.append("action")
    schedule = schedule_of(gathered)
    if schedule is None:
        missing.append("schedule")
    elif not schedule.complete:
        missing.append("when")
    return missing


def _questions(asking: tuple[str, ...], zone: str, frequency: str = "") -> str:
    texts = [str(QUESTIONS[f]) for f in asking]
    if "when" in asking and not frequency.startswith(("weekly", "biweekly", "monthly")):
        # "daily" or "hourly" has its days; only the time is open.
        texts[asking.index("when")] = str(QUESTION_TIME)
    if any(f in ("schedule", "when") for f in asking):
        # The time zone said once, after the last question.
        texts[-1] += " " + TIMES_IN % {"zone": zone}
    return texts[0] if len(texts) == 1 else numbered(texts)


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
    source = _tool(gathered["source"]) if gathered.get("source") else ""
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
    if destination:
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


def _merge(gathered: dict[str, str], found: Mapping[str, str]) -> None:
    for key, value in found.items():
        if value:
            gathered[key] = value


def wizard_step(
    turn: Turn,
    state: AssistantState,
    said: Reading,
    *,
    proposal: bool = False,
    accepted: bool = False,
) -> Outcome:
    """One answer (or the opening request) of the wizard; creates the agent once complete."""
    opening = state.wizard is None
    wizard = state.wizard or Wizard()
    gathered = dict(wizard.gathered)
    zone = tenant_zone(turn)
    found = said.details(gathered, asking=wizard.asking, zone=zone, opening=opening)
    _merge(gathered, found)
    if opening:
        # What the classifier read (an LLM may know a tool this text reader does not).
        entities = turn.intent.entities
        if not gathered.get("source") and entities.get("source"):
            gathered["source"] = entities["source"].split(",")[0]
        if not gathered.get("frequency") and (
            entities.get("schedule") or entities.get("frequency")
        ):
            gathered["frequency"] = entities.get("schedule") or entities["frequency"]
            gathered["zone"] = gathered.get("zone") or zone
    # "posts due tomorrow" is what it watches, not when it runs.
    watched = gathered.get("trigger", "")
    if opening and "frequency" not in gathered and said.one_off(besides=watched):
        gathered["frequency"], gathered["zone"] = "once", gathered.get("zone") or zone
    if (
        "when" in wizard.asking
        and "when" in _missing(gathered)
        and ({"frequency", "zone"} & found.keys())
    ):
        # Asked, and answered without a day or time: a stated default beats asking again.
        _default_when(gathered)
    described = not (gathered.get("trigger") or gathered.get("task"))
    if proposal and opening and described and said.problem:
        # "candidates keep sitting in the 'Phone Screen' stage for weeks and nobody notices":
        # the problem described is what the agent looks out for.
        gathered["trigger"] = said.problem
    if proposal:
        return _propose(state, gathered)
    if accepted and _missing(gathered) == ["when"]:
        # A yes to what was proposed, whose only gap is the hour or the day: a default the
        # summary states, rather than one more question after the user said yes.
        _default_when(gathered)
    missing = _missing(gathered)
    if not missing:
        duplicate = _identical_agent(turn, gathered)
        if duplicate is not None and not wizard.duplicate_of:
            return _point_out(state, gathered, duplicate)
        return _finish(turn, state.replace(wizard=None), gathered)
    asking = tuple(missing[:MAX_QUESTIONS])
    question = _questions(asking, gathered.get("zone") or zone, gathered.get("frequency", ""))
    return Outcome(
        Reply(_asking(gathered, question, opening=opening), decision="wizard_ask"),
        state.replace(wizard=Wizard(wizard.kind, gathered, asking)),
    )


def _asking(gathered: Mapping[str, str], question: str, *, opening: bool) -> str:
    """What the agent would do so far, then the questions still open."""
    known = describe(gathered)
    # The name given so far is said back with what the agent does: "call it delayed-loads"
    # mid-wizard is heard.
    name = gathered.get("title") or gathered.get("name") or ""
    lead = (OPENING if opening else GOT_IT)[bool(name), bool(known)] % {"name": name, "what": known}
    if "\n" in question:
        return lead + "\n\n" + A_FEW_QUESTIONS % {"questions": question}
    return lead + " " + question


def _default_when(gathered: dict[str, str]) -> None:
    frequency = gathered.get("frequency", "")
    day = frequency.startswith(("weekly", "biweekly")) and not any(
        day in frequency for day in ("monday", "tuesday", "wednesday", "thursday", "friday")
    )
    if day:
        frequency += " monday"
    hour = Setting(frequency).clock is None
    if hour:
        frequency += " 09:00"
    gathered["frequency"] = frequency
    # What was picked, said back with the schedule (``PICKED``).
    picked = {(True, True): "a day or a time", (True, False): "a day", (False, True): "a time"}
    gathered["defaulted"] = picked.get((day, hour), "")


def _propose(state: AssistantState, gathered: dict[str, str]) -> Outcome:
    known = describe(gathered) or str(TAKES_THIS_OFF_YOUR_HANDS)
    lines = "\n".join(detail_lines(gathered))
    template = PROPOSE_WITH_DETAILS if lines else PROPOSE
    content = template % {"what": known, "details": lines}
    return Outcome(
        Reply(content, meta={"offer": {"action_type": "create_agent"}}, decision="wizard_propose"),
        state.replace(wizard=Wizard("create_agent", gathered, (), proposed=True)),
    )


def proposal_accepted(turn: Turn, state: AssistantState, more: Reading) -> Outcome:
    """A yes to a proposal (or to a second, identical agent): go on as if asked, with what the
    message said after its yes (or its "anyway") as more details."""
    wizard = state.wizard or Wizard()
    accepted = Wizard(wizard.kind, wizard.gathered, wizard.asking, duplicate_of=wizard.duplicate_of)
    return wizard_step(turn, state.replace(wizard=accepted), more, accepted=True)


_WORD_CHARACTERS = frozenset(string.ascii_lowercase + string.digits)


def _words(value: str) -> set[str]:
    kept = "".join(c if c in _WORD_CHARACTERS else " " for c in value.lower())
    return {w for w in kept.split() if len(w) >= 3 and w not in FILLER_WORDS}


def _when_key(value: str) -> tuple[frozenset[str], str]:
    lowered = value.lower()
    days = frozenset(d for d in ("mon", "tue", "wed", "thu", "fri", "sat", "sun") if d in lowered)
    clock = Setting(lowered).clock
    return days, (str(int(clock[0])) + ":" + clock[1] if clock else "")


def _identical_agent(turn: Turn, gathered: Mapping[str, str]) -> Agent | None:
    """An agent of the tenant that already does this: same source and most details alike."""
    config = planned_config(gathered)
    ours_where = Setting(config.get("destination", "")).addresses
    ours_what = _words(config.get("trigger", "") + " " + config.get("action", ""))
    for agent in agents.agents_for_matching(tenant=turn.tenant):
        theirs = {k: str(v) for k, v in (agent.config or {}).items()}
        if theirs.get("source", "").lower() != config.get("source", "").lower():
            continue
        score = 1
        where = Setting(theirs.get("destination", "")).addresses
        if ours_where and where:
            score += 1 if ours_where == where else -1
        what = _words(theirs.get("trigger", "") + " " + theirs.get("action", ""))
        if what and ours_what and len(what & ours_what) / min(len(what), len(ours_what)) >= 0.5:
            score += 1
        if _when_key(theirs.get("schedule", "")) == _when_key(config.get("schedule", "")):
            score += 1
        if score >= 3:
            return agent
    return None


def _point_out(state: AssistantState, gathered: dict[str, str], agent: Agent) -> Outcome:
    lines = "\n".join(
        _detail_line(SETTING_LABELS.get(k, k.title()), _tool(str(v)) if k == "source" else str(v))
        for k, v in (agent.config or {}).items()
        if v and k != "details"
    )
    content = ALREADY_HAVE % {
        "agent": as_written(agent.name, agent.config),
        "details": lines,
        "name": agent.name,
    }
    return Outcome(
        Reply(
            content,
            meta={"agents_referenced": [agent.name], "offer": {"action_type": "create_agent"}},
            decision="wizard_duplicate",
        ),
        state.replace(
            wizard=Wizard("create_agent", gathered, (), proposed=True, duplicate_of=agent.name),
            last_agent=agent.name,
        ),
    )


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


def _finish(turn: Turn, state: AssistantState, gathered: dict[str, str]) -> Outcome:
    name = agents.agent_unique_name(tenant=turn.tenant, base=agent_name_for(gathered))
    config = planned_config(gathered)
    effect = CreateAgent(
        agent_id=new_id(),
        name=name,
        description=describe(gathered)[:500],
        config=config,
    )
    shown = {**gathered, "name": name}
    content = CREATED % {
        "name": with_title(name, gathered.get("title")),
        "what": describe(gathered),
        "details": "\n".join(detail_lines(shown)),
    }
    created = Created(
        agent_id=effect.agent_id,
        name=name,
        frequency=gathered.get("frequency", ""),
        zone=gathered.get("zone", ""),
        gathered={k: v for k, v in gathered.items() if isinstance(v, str)},
    )
    return Outcome(
        Reply(
            content,
            meta={"agents_referenced": [name], "created_agent": name},
            decision="agent_created",
        ),
        state.replace(last_agent=name, created=created),
        (effect,),
    )


def undo_created(state: AssistantState) -> Outcome:
    created = state.created
    assert created is not None
    return Outcome(
        Reply(
            UNDONE % {"name": created.name},
            meta={"agents_referenced": [created.name], "deleted_agent": created.name},
            decision="agent_creation_undone",
        ),
        state.replace(created=None, last_agent=None),
        (DeleteAgent(agent_id=created.agent_id),),
    )


def amend_created(turn: Turn, state: AssistantState, said: Reading) -> Outcome | None:
    """Details given right after creation ("call it X", "in #ops", "Madrid time") amend it."""
    created = state.created
    if created is None:
        return None
    have = {"frequency": created.frequency, "zone": created.zone, "source": "set", "trigger": "x"}
    found = said.details(have, zone=tenant_zone(turn))
    changes: dict[str, str] = {}
    if found.get("destination"):
        changes["destination"] = found["destination"]
    frequency = found.get("frequency") or created.frequency
    zone = found.get("zone") or created.zone
    if frequency and (frequency, zone) != (created.frequency, created.zone):
        changes["schedule"] = Schedule(frequency, zone or "UTC").words()
    new_name = found.get("name")
    if not changes and not new_name:
        return None
    name = agents.agent_unique_name(tenant=turn.tenant, base=new_name) if new_name else None
    shown = name or created.name
    lines = [_detail_line(LABELS.get(k, k.title()), v) for k, v in changes.items()]
    if name:
        new = with_title(name, found.get("title"))
        lines.insert(0, RENAMED_LINE % {"old": created.name, "new": new})
        if found.get("title"):
            # "call it Late Load Digest": the name as written is kept with the agent.
            details = planned_config(created.gathered).get("details", "")
            changes["details"] = called(details, found["title"])
    gathered = {**created.gathered, "frequency": frequency or "", "zone": zone or ""}
    if found.get("title"):
        gathered["title"] = found["title"]
    if changes.get("destination"):
        gathered["destination"] = changes["destination"]
    # What it does, said again with the change in it (and stored, so the description agrees).
    description = describe(gathered) if created.gathered else ""
    template = UPDATED_NOW_DOES if description else UPDATED
    content = template % {"name": shown, "details": "\n".join(lines), "what": description}
    return Outcome(
        Reply(
            content,
            meta={"agents_referenced": [shown], "changes": changes},
            decision="agent_amended",
        ),
        state.replace(
            last_agent=shown,
            created=Created(created.agent_id, shown, frequency or "", zone or "", gathered),
        ),
        (
            UpdateAgent(
                agent_id=created.agent_id,
                name=name,
                config=changes,
                description=description[:500] or None,
            ),
        ),
    )


def wizard_recap(wizard: Wizard, zone: str, *, asked: bool = False) -> Reply:
    """Where the wizard stands; ``asked``: a question about the agent being set up ("what
    does it watch?") rather than "where were we?"."""
    lines = detail_lines(wizard.gathered)
    parts = [str(RECAP_ASKED if asked else RECAP)]
    parts.append(RECAP_SO_FAR % {"details": "\n".join(lines)} if lines else str(RECAP_NOTHING_YET))
    if wizard.duplicate_of:
        parts.append(RECAP_DUPLICATE % {"name": wizard.duplicate_of})
    elif wizard.proposed:
        parts.append(str(RECAP_PROPOSED))
    elif wizard.asking:
        questions = _questions(wizard.asking, zone, wizard.gathered.get("frequency", ""))
        parts.append(RECAP_ASKING % {"questions": questions})
    return Reply("\n\n".join(parts), decision="wizard_recap")


def wizard_summary(wizard: Wizard) -> dict[str, object]:
    """The open wizard in short form, for a page picking the conversation back up."""
    return {
        "kind": wizard.kind,
        "title": str(SUMMARY_TITLE),
        "gathered": [
            {"field": key, "label": LABELS[key], "value": value}
            for key, value in _detail_values(wizard.gathered).items()
        ],
        "question": _questions(
            wizard.asking,
            wizard.gathered.get("zone") or "UTC",
            wizard.gathered.get("frequency", ""),
        )
        if wizard.asking
        else None,
    }
