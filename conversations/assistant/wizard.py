"""The create-agent wizard: gather the details in any order and over any turns, then create it.

What is gathered comes from ``slots.read_slots`` (clean phrases in the user's words). A request
the user did not make (a described chore answered with "I can set up an agent that …") waits
for a yes; so does a second agent identical to one that exists. The agent created last can be
amended ("call it …", "in Berlin time") or undone ("actually cancel that") on the next turn.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from conversations.agents import selectors as agents
from conversations.assistant.effects import CreateAgent, DeleteAgent, UpdateAgent
from conversations.assistant.outcome import Outcome, Reply, Turn
from conversations.assistant.slots import Schedule, is_one_off, read_slots, schedule_words
from conversations.assistant.state import AssistantState, Created, Wizard
from conversations.assistant.text import (
    TOOL_NAMES,
    as_written,
    called,
    display,
    generated_name,
    name_objects,
    numbered,
    with_title,
)
from conversations.models import Agent, new_id

MAX_QUESTIONS = 3
QUESTIONS = {
    "source": "Where does the data come from (for example Jira, Notion, Google Sheets, HubSpot)?",
    "trigger": "What should it watch for or work on?",
    "action": "What should it do with what it finds: send an alert, write a summary, or build "
    "a report? And where should that go (a Slack channel, an email address)?",
    "schedule": "How often should it run, and at what time?",
    "when": "On which day and at what time should it run?",
}
LABELS = {
    "name": "Name",
    "source": "Source",
    "scope": "In",
    "trigger": "Watches",
    "about": "For",
    "task": "Does",
    "action": "Action",
    "destination": "Sends to",
    "schedule": "Schedule",
    "details": "Details",
}
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


def detail_lines(gathered: Mapping[str, str]) -> list[str]:
    values = dict(gathered)
    if values.get("source"):
        values["source"] = _tool(values["source"])
    schedule = schedule_of(gathered)
    if schedule is not None:
        values["schedule"] = schedule.words()
        if gathered.get("defaulted"):
            values["schedule"] += f" (you didn't say {gathered['defaulted']}, so I picked it)"
    if values.get("name"):
        values["name"] = with_title(values["name"], gathered.get("title"))
    return [f"- {label}: {values[key]}" for key, label in LABELS.items() if values.get(key)]


def _missing(gathered: Mapping[str, str]) -> list[str]:
    missing = []
    if not gathered.get("source"):
        missing.append("source")
    # "email a cost summary of the 'Fuel' tab": a summary or report of a named sheet, board or
    # repository works on all of it.
    whole = bool(gathered.get("scope")) and bool(
        re.search(r"summar|report", gathered.get("action", ""), re.IGNORECASE)
    )
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
    texts = [QUESTIONS[f] for f in asking]
    if "when" in asking and not frequency.startswith(("weekly", "biweekly", "monthly")):
        # "daily" or "hourly" has its days; only the time is open.
        texts[asking.index("when")] = "At what time should it run?"
    if any(f in ("schedule", "when") for f in asking):
        texts.append(f"(Times are in {zone} unless you name a time zone.)")
        if len(asking) == 1:
            return " ".join(texts)
        texts = texts[:-1]
        texts[-1] += f" (Times are in {zone} unless you name a time zone.)"
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
        return f"does this: {phrase}"
    # "... and put together a deck" -> "and puts together": the second verb of the clause too.
    rest = re.sub(
        r"\band (\w+)\b",
        lambda m: f"and {_conjugated(m.group(1))}" if m.group(1) in _ENGLISH_VERBS else m.group(0),
        rest,
    )
    return f"{_conjugated(verb)} {rest}".strip()


def _lower_first(text: str) -> str:
    return text[:1].lower() + text[1:]


def describe(gathered: Mapping[str, str]) -> str:
    """One clause naming what the agent would do, in the user's words."""
    parts = []
    if gathered.get("task"):
        parts.append(_third_person(gathered["task"]))
    else:
        watched = gathered.get("trigger")
        source = _tool(gathered["source"]) if gathered.get("source") else ""
        if watched and source and source.lower() not in watched.lower():
            parts.append(f"watches {source} for {watched}")
        elif watched:
            parts.append(f"watches {watched}")
        elif source:
            parts.append(f"reads {source}")
        if gathered.get("scope") and parts:
            parts[-1] += f" ({gathered['scope']})"
        action = gathered.get("action")
        if action:
            parts.append(_third_person(action))
    text = " and ".join(parts)
    if gathered.get("about") and not gathered.get("task"):
        text = f"{text} for {gathered['about']}" if text else f"works on {gathered['about']}"
    if gathered.get("destination"):
        if parts and not gathered.get("action") and not gathered.get("task"):
            text += " and sends the results"
        text += f" to {gathered['destination']}" if text else f"sends to {gathered['destination']}"
    schedule = schedule_of(gathered)
    if schedule is not None:
        when = schedule.words() if schedule.complete else schedule_words(schedule.compact)
        # "runs every Monday at 06:00" when nothing else is known yet.
        text += f" {_lower_first(when)}" if text else f"runs {_lower_first(when)}"
    return text.strip()


_PROBLEM_LEAD_RE = re.compile(
    r"^(?:\W*(?:ugh|argh|honestly|so|well|hey|hi|hello|ok|okay|sigh|help|hmm)\b[\W]*)+", re.I
)
_PROBLEM_END_RE = re.compile(
    r"[.;!?\n]|,? (?:and (?:nobody|no one|we|i|it)|until|but|because|so that|which means|"
    r"y nadie|et personne|und niemand|e ningu[eé]m)\b",
    re.IGNORECASE,
)


def _problem_of(text: str) -> str | None:
    """The first clause of a described problem, as the user wrote it, when it says enough."""
    clause = _PROBLEM_END_RE.split(_PROBLEM_LEAD_RE.sub("", text.strip()), maxsplit=1)[0]
    clause = clause.strip(" ,:-")
    if len(clause.split()) < 4 or len(clause) > 140:
        return None
    return (
        clause[0].lower() + clause[1:] if clause[:1].isupper() and clause[1:2].islower() else clause
    )


def _merge(gathered: dict[str, str], found: Mapping[str, str]) -> None:
    for key, value in found.items():
        if value:
            gathered[key] = value


def wizard_step(
    turn: Turn, state: AssistantState, text: str, *, proposal: bool = False, accepted: bool = False
) -> Outcome:
    """One answer (or the opening request) of the wizard; creates the agent once complete."""
    opening = state.wizard is None
    wizard = state.wizard or Wizard()
    gathered = dict(wizard.gathered)
    zone = tenant_zone(turn)
    found = read_slots(text, have=gathered, asking=wizard.asking, zone=zone, opening=opening)
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
    rest = text.replace(gathered.get("trigger") or "\0", " ")
    if opening and "frequency" not in gathered and is_one_off(rest):
        gathered["frequency"], gathered["zone"] = "once", gathered.get("zone") or zone
    if (
        "when" in wizard.asking
        and "when" in _missing(gathered)
        and ({"frequency", "zone"} & found.keys())
    ):
        # Asked, and answered without a day or time: a stated default beats asking again.
        _default_when(gathered)
    if proposal and opening and not (gathered.get("trigger") or gathered.get("task")):
        # "candidates keep sitting in the 'Phone Screen' stage for weeks and nobody notices":
        # the problem described is what the agent looks out for.
        problem = _problem_of(text)
        if problem:
            gathered["trigger"] = problem
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
    known = describe(gathered)
    # The name given so far is said back with what the agent does: "call it delayed-loads"
    # mid-wizard is heard.
    name = gathered.get("title") or gathered.get("name")
    if opening:
        lead = (
            f"I'll create a new agent{f', {name},' if name else ''} that {known}."
            if known
            else "I'll help you create a new agent" + (f" called {name}." if name else ".")
        )
    else:
        lead = "Got it." + (
            f" So far: {f'{name}, ' if name else ''}an agent that {known}."
            if known
            else (f" I'll call it {name}." if name else "")
        )
    question = _questions(asking, gathered.get("zone") or zone, gathered.get("frequency", ""))
    joiner = "\n\n" if "\n" in question else " "
    content = lead + joiner + ("A few questions:\n" if "\n" in question else "") + question
    return Outcome(
        Reply(content, decision="wizard_ask"),
        state.replace(wizard=Wizard(wizard.kind, gathered, asking)),
    )


def _default_when(gathered: dict[str, str]) -> None:
    frequency = gathered.get("frequency", "")
    said = []
    if frequency.startswith(("weekly", "biweekly")) and not any(
        day in frequency for day in ("monday", "tuesday", "wednesday", "thursday", "friday")
    ):
        frequency += " monday"
        said.append("a day")
    if not re.search(r"\d{1,2}:\d{2}", frequency):
        frequency += " 09:00"
        said.append("a time")
    gathered["frequency"] = frequency
    gathered["defaulted"] = " or ".join(said)


def _propose(state: AssistantState, gathered: dict[str, str]) -> Outcome:
    known = describe(gathered) or "takes this off your hands"
    lines = "\n".join(detail_lines(gathered))
    content = (
        f"That sounds like a job for an agent. I can set up an agent that {known}."
        + (f"\n{lines}\n" if lines else " ")
        + "Shall I set it up?"
    )
    return Outcome(
        Reply(content, meta={"offer": {"action_type": "create_agent"}}, decision="wizard_propose"),
        state.replace(wizard=Wizard("create_agent", gathered, (), proposed=True)),
    )


def proposal_accepted(turn: Turn, state: AssistantState, rest: str) -> Outcome:
    """A yes to a proposal (or to a second, identical agent): go on as if asked, with what the
    message said after its yes (or its "anyway") as more details."""
    wizard = state.wizard or Wizard()
    accepted = Wizard(wizard.kind, wizard.gathered, wizard.asking, duplicate_of=wizard.duplicate_of)
    return wizard_step(turn, state.replace(wizard=accepted), rest, accepted=True)


def _words(value: str) -> set[str]:
    return {w for w in re.findall(r"[a-z0-9]{3,}", value.lower()) if w not in FILLER_WORDS}


def _when_key(value: str) -> tuple[frozenset[str], str]:
    lowered = value.lower()
    days = frozenset(d for d in ("mon", "tue", "wed", "thu", "fri", "sat", "sun") if d in lowered)
    clock = re.search(r"(\d{1,2}):(\d{2})", lowered)
    return days, (f"{int(clock.group(1))}:{clock.group(2)}" if clock else "")


def _identical_agent(turn: Turn, gathered: Mapping[str, str]) -> Agent | None:
    """An agent of the tenant that already does this: same source and most details alike."""
    config = planned_config(gathered)
    ours_where = set(re.findall(r"#[\w-]+|[\w.+-]+@[\w.-]+", config.get("destination", "")))
    ours_what = _words(config.get("trigger", "") + " " + config.get("action", ""))
    for agent in agents.agents_for_matching(tenant=turn.tenant):
        theirs = {k: str(v) for k, v in (agent.config or {}).items()}
        if theirs.get("source", "").lower() != config.get("source", "").lower():
            continue
        score = 1
        where = set(re.findall(r"#[\w-]+|[\w.+-]+@[\w.-]+", theirs.get("destination", "")))
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
        f"- {k.title()}: {v}" for k, v in (agent.config or {}).items() if v and k != "details"
    )
    content = (
        f"You already have an agent that does this: {as_written(agent.name, agent.config)}."
        f"\n{lines}\n\n"
        f'I can run {agent.name} now, or create a second one anyway: say "create it anyway" '
        '(and give it a name if you like), or "no" to leave things as they are.'
    )
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
                    f"In {gathered['scope']}" if gathered.get("scope") else "",
                    gathered.get("about"),
                    gathered.get("details"),
                ],
            )
        ),
    }
    return {k: v[:500] for k, v in config.items() if v}


def _agent_name_for(gathered: Mapping[str, str]) -> str:
    """The name the user gave, else one made of the product's words: the source, the objects
    of what it watches, and what it is ("jira-tickets-monitor")."""
    if gathered.get("name"):
        return gathered["name"]
    action = (gathered.get("action") or "").lower()
    role = "reporter" if re.search(r"summar|report|digest", action) else "monitor"
    if gathered.get("task"):
        role = "sync"
    watched = gathered.get("trigger") or gathered.get("task", "")
    return generated_name(
        tool=gathered.get("source", ""), objects=name_objects(watched), role=role, fallback="agent"
    )


def _finish(turn: Turn, state: AssistantState, gathered: dict[str, str]) -> Outcome:
    name = agents.agent_unique_name(tenant=turn.tenant, base=_agent_name_for(gathered))
    config = planned_config(gathered)
    effect = CreateAgent(
        agent_id=new_id(),
        name=name,
        description=describe(gathered)[:500],
        config=config,
    )
    shown = {**gathered, "name": name}
    content = (
        f"Done! I've created {with_title(name, gathered.get('title'))}, an agent that "
        f"{describe(gathered)}.\n"
        + "\n".join(detail_lines(shown))
        + '\n\nSay "run it" to start it now, or "actually cancel that" to undo.'
    )
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
            f"Okay, I've undone that: {created.name} is deleted and nothing else changed.",
            meta={"agents_referenced": [created.name], "deleted_agent": created.name},
            decision="agent_creation_undone",
        ),
        state.replace(created=None, last_agent=None),
        (DeleteAgent(agent_id=created.agent_id),),
    )


def amend_created(turn: Turn, state: AssistantState, text: str) -> Outcome | None:
    """Details given right after creation ("call it X", "in #ops", "Madrid time") amend it."""
    created = state.created
    if created is None:
        return None
    have = {"frequency": created.frequency, "zone": created.zone, "source": "set", "trigger": "x"}
    found = read_slots(text, have=have, asking=(), zone=tenant_zone(turn), opening=False)
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
    lines = [f"- {LABELS.get(k, k.title())}: {v}" for k, v in changes.items()]
    if name:
        lines.insert(0, f"- Name: {created.name} → {with_title(name, found.get('title'))}")
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
    content = f"Updated {shown}:\n" + "\n".join(lines)
    if description:
        content += f"\n\nSo {shown} now {description}."
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
    parts = [
        "Here's the agent we're setting up."
        if asked
        else "No problem! We were setting up a new agent."
    ]
    parts.append(
        "So far we have:\n" + "\n".join(lines) if lines else "We haven't settled any details yet."
    )
    if wizard.duplicate_of:
        parts.append(
            f"I pointed out that {wizard.duplicate_of} already does this: say \u201ccreate it "
            "anyway\u201d for a second one, or \u201cno\u201d to leave things as they are."
        )
    elif wizard.proposed:
        parts.append("I offered to set it up: say yes to go ahead, or no to leave it.")
    elif wizard.asking:
        questions = _questions(wizard.asking, zone, wizard.gathered.get("frequency", ""))
        parts.append(f"I was asking:\n{questions}")
    return Reply("\n\n".join(parts), decision="wizard_recap")


def wizard_summary(wizard: Wizard) -> dict[str, object]:
    """The open wizard in short form, for a page picking the conversation back up."""
    return {
        "kind": wizard.kind,
        "title": "Setting up a new agent",
        "gathered": [
            {"field": key, "label": label, "value": value}
            for key, label in LABELS.items()
            for line in detail_lines(wizard.gathered)
            if line.startswith(f"- {label}: ")
            for value in [line.removeprefix(f"- {label}: ")]
        ],
        "question": _questions(
            wizard.asking,
            wizard.gathered.get("zone") or "UTC",
            wizard.gathered.get("frequency", ""),
        )
        if wizard.asking
        else None,
    }
