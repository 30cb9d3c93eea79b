"""The create-agent wizard: gather the details in any order and over any turns, then create it.

What is gathered comes from ``slots.read_slots`` (clean phrases in the user's words). A request
the user did not make (a described chore answered with "I can set up an agent that …") waits
for a yes; so does a second agent identical to one that exists. The agent created last can be
amended ("call it …", "in Berlin time") or undone ("actually cancel that") on the next turn.
Every reply comes from a template of ``wizard_replies`` (marked for translation); how the
agent is described is ``describe``'s, and a second, identical agent is found by ``duplicates``.
"""

from __future__ import annotations

from collections.abc import Mapping

from conversations.agents import selectors as agents
from conversations.assistant.describe import (
    describe,
    detail_line,
    detail_lines,
    detail_values,
    planned_config,
    schedule_of,
)
from conversations.assistant.duplicates import identical_agent, point_out
from conversations.assistant.effects import CreateAgent, DeleteAgent, UpdateAgent
from conversations.assistant.outcome import Outcome, Reply, Turn
from conversations.assistant.state import AssistantState, Created, Wizard
from conversations.assistant.text import called, numbered, with_title
from conversations.assistant.wizard_replies import (
    A_FEW_QUESTIONS,
    CREATED,
    GOT_IT,
    LABELS,
    OPENING,
    PROPOSE,
    PROPOSE_WITH_DETAILS,
    QUESTION_PLACE,
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
    SUMMARY_TITLE,
    TAKES_THIS_OFF_YOUR_HANDS,
    TIMES_IN,
    UNDONE,
    UPDATED,
    UPDATED_NOW_DOES,
)
from conversations.models import new_id
from intents.reading.acts import Act
from intents.reading.details import Schedule
from intents.reading.names import agent_name_for
from intents.reading.reading import Reading
from intents.reading.values import Setting

MAX_QUESTIONS = 3


def tenant_zone(turn: Turn) -> str:
    zone = (turn.tenant.settings or {}).get("time_zone")
    return zone if isinstance(zone, str) and zone else "UTC"


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
    if gathered.get("place") and not gathered.get("destination"):
        # A place named only by its kind: where the results go, but not which one.
        missing.append("destination")
    schedule = schedule_of(gathered)
    if schedule is None:
        missing.append("schedule")
    elif not schedule.complete:
        missing.append("when")
    return missing


def _questions(asking: tuple[str, ...], zone: str, gathered: Mapping[str, str]) -> str:
    frequency = gathered.get("frequency", "")
    texts = [
        QUESTION_PLACE % {"kind": gathered.get("place", "").partition(" ")[2]}
        if f == "destination"
        else str(QUESTIONS[f])
        for f in asking
    ]
    if "when" in asking and not frequency.startswith(("weekly", "biweekly", "monthly")):
        # "daily" or "hourly" has its days; only the time is open.
        texts[asking.index("when")] = str(QUESTION_TIME)
    if any(f in ("schedule", "when") for f in asking):
        # The time zone said once, after the last question.
        texts[-1] += " " + TIMES_IN % {"zone": zone}
    return texts[0] if len(texts) == 1 else numbered(texts)


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
    if accepted and [gap for gap in _missing(gathered) if gap != "destination"] == ["when"]:
        # A yes to what was proposed, whose only gap is the hour or the day (beside which
        # place, say): a default the summary states, not one more question after the yes.
        _default_when(gathered)
    missing = _missing(gathered)
    if not missing:
        duplicate = identical_agent(turn, gathered)
        if duplicate is not None and not wizard.duplicate_of:
            return point_out(state, gathered, duplicate)
        return _finish(turn, state.replace(wizard=None), gathered)
    asking = tuple(missing[:MAX_QUESTIONS])
    question = _questions(asking, gathered.get("zone") or zone, gathered)
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
    narrowed = dict(created.gathered)
    if said.shows(Act.RESTRICTS) and found.get("details"):
        # A narrowing reply ("only the …"): which of them it works on.
        before = created.gathered.get("details", "")
        narrowed["details"] = "; ".join(filter(None, [before, found["details"]]))
        changes["details"] = planned_config(narrowed)["details"]
    new_name = found.get("name")
    if not changes and not new_name:
        return None
    name = agents.agent_unique_name(tenant=turn.tenant, base=new_name) if new_name else None
    shown = name or created.name
    lines = [detail_line(LABELS.get(k, k.title()), v) for k, v in changes.items()]
    if name:
        new = with_title(name, found.get("title"))
        lines.insert(0, RENAMED_LINE % {"old": created.name, "new": new})
        if found.get("title"):
            # "call it Late Load Digest": the name as written is kept with the agent.
            details = planned_config(narrowed).get("details", "")
            changes["details"] = called(details, found["title"])
    gathered = {**narrowed, "frequency": frequency or "", "zone": zone or ""}
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
        questions = _questions(wizard.asking, zone, wizard.gathered)
        parts.append(RECAP_ASKING % {"questions": questions})
    return Reply("\n\n".join(parts), decision="wizard_recap")


def wizard_summary(wizard: Wizard) -> dict[str, object]:
    """The open wizard in short form, for a page picking the conversation back up."""
    return {
        "kind": wizard.kind,
        "title": str(SUMMARY_TITLE),
        "gathered": [
            {"field": key, "label": LABELS[key], "value": value}
            for key, value in detail_values(wizard.gathered).items()
        ],
        "question": _questions(wizard.asking, wizard.gathered.get("zone") or "UTC", wizard.gathered)
        if wizard.asking
        else None,
    }
