"""The create-agent wizard: gather the details from answers in any order, then create it."""

from __future__ import annotations

import re
from collections.abc import Mapping

from conversations.agents import selectors as agents
from conversations.agents.services import CONFIG_KEYS
from conversations.assistant.effects import CreateAgent
from conversations.assistant.outcome import Outcome, Reply, Turn
from conversations.assistant.state import AssistantState, Wizard
from conversations.assistant.text import LABELS, display, numbered
from conversations.models import new_id
from intents.offline.entities import extract_entities

MAX_QUESTIONS = 3
FIELDS = ("source", "trigger", "action", "schedule")
QUESTIONS = {
    "source": "Where does the data come from (for example Notion, Jira, Google Sheets, Slack)?",
    "trigger": "What should it watch for or work on?",
    "action": "What should it do with it: send an alert, write a summary, or build a report?",
    "schedule": "How often should it run: hourly, every morning at a set time, or weekly?",
}
# Words a generated agent name leaves out ("our jira board" -> jira-...).
NAME_STOPWORDS = frozenset((
    "the", "a", "an", "our", "my", "for", "of", "to", "on", "in", "and", "any", "all", "that",
    "when", "with", "from", "every", "monitor", "monitors", "watch", "watches", "daily",
    "weekly", "monthly", "hourly", "new", "board",
))  # fmt: skip
_FREE_TEXT_SPLIT = re.compile(r"\s*(?:,|;|\band then\b|\band\b|\bplus\b)\s*", re.IGNORECASE)
_FILLER_RE = re.compile(
    r"^(?:ok(?:ay)?|sure|yes|yeah|yep|great|fine|well|so|hmm|um|uh)[,.! ]+", re.IGNORECASE
)


def answers_wizard(message: str, wizard: Wizard) -> bool:
    found = extract_entities(message)
    if any(found.get(key) for key in ("source", "schedule", "destination")):
        return True
    # A short free-text answer to a free-text question ("revenue by region") is an answer.
    return (
        bool(wizard.asking)
        and wizard.asking[0] in ("trigger", "action")
        and (len(message.split()) <= 12)
    )


def _describe_destination(destination: str) -> str:
    if destination.startswith("slack"):
        channel = destination.partition(":")[2]
        return f"Send a Slack message{' to ' + channel if channel else ''}"
    if destination == "email":
        return "Send an email"
    return f"Send it to {display(destination)}"


def _gather(
    gathered: dict[str, str], asking: list[str], entities: Mapping[str, str], text: str
) -> None:
    found = {**extract_entities(text), **{k: v for k, v in entities.items() if v}}
    if found.get("source"):
        gathered["source"] = found["source"]
    if found.get("schedule") or found.get("frequency"):
        gathered["schedule"] = found.get("schedule") or found["frequency"]
    if found.get("destination"):
        gathered["destination"] = found["destination"]
        if not gathered.get("action"):
            gathered["action"] = _describe_destination(found["destination"])
    if not gathered.get("trigger") and (found.get("task") or found.get("data")):
        gathered["trigger"] = found.get("task") or f"{found['data']} data"
    if found.get("new_name"):
        gathered["name"] = found["new_name"]
    # Free text answers the free-text questions being asked, in the order they were asked;
    # parts that carry a recognized entity (a tool, a schedule, a channel) were used above.
    open_fields = [
        f for f in asking if f in ("trigger", "action", "source") and not gathered.get(f)
    ]
    if not asking:
        return  # the opening request: its entities are all we take from it
    body = _FILLER_RE.sub("", text.strip()).strip(" .!")
    parts = [p.strip(" .!") for p in _FREE_TEXT_SPLIT.split(body) if p and p.strip(" .!")]
    parts = [p for p in parts if not extract_entities(p)]
    if len(parts) > len(open_fields) and len(open_fields) == 1:
        parts = [", ".join(parts)]
    extras = []
    for part in parts:
        if open_fields:
            gathered[open_fields.pop(0)] = part[:200]
        else:
            extras.append(part)
    if extras:
        gathered["details"] = ", ".join(filter(None, [gathered.get("details", ""), *extras]))[:200]


def gathered_lines(gathered: Mapping[str, str]) -> list[str]:
    return [
        f"- {LABELS[key]}: {display(gathered[key])}"
        for key in ("source", "trigger", "action", "destination", "schedule", "details")
        if gathered.get(key)
    ]


def _questions(asking: tuple[str, ...]) -> str:
    if len(asking) == 1:
        return QUESTIONS[asking[0]]
    return numbered([QUESTIONS[f] for f in asking])


def wizard_step(
    turn: Turn, state: AssistantState, entities: Mapping[str, str], text: str
) -> Outcome:
    starting = state.wizard is None
    wizard = state.wizard or Wizard()
    gathered = dict(wizard.gathered)
    _gather(gathered, list(wizard.asking), entities, text)
    missing = [f for f in FIELDS if not gathered.get(f)]
    if not missing:
        return _finish(turn, state.replace(wizard=None), gathered)
    asking = tuple(missing[:MAX_QUESTIONS])
    lead = "I'll help you create an agent for that." if starting else "Got it!"
    parts = [lead]
    so_far = gathered_lines(gathered)
    if so_far:
        parts.append("So far:\n" + "\n".join(so_far))
    parts.append(
        _questions(asking) if len(asking) == 1 else "A few questions:\n" + _questions(asking)
    )
    return Outcome(
        Reply("\n\n".join(parts), decision="wizard_ask"),
        state.replace(wizard=Wizard(wizard.kind, gathered, asking)),
    )


def wizard_recap(wizard: Wizard) -> Reply:
    lines = gathered_lines(wizard.gathered)
    parts = ["No problem! We were setting up a new agent."]
    parts.append(
        "So far we have:\n" + "\n".join(lines) if lines else "We haven't settled any details yet."
    )
    if wizard.asking:
        parts.append(f"I was asking:\n{_questions(wizard.asking)}")
    return Reply("\n\n".join(parts), decision="wizard_recap")


def wizard_summary(wizard: Wizard) -> dict[str, object]:
    """The open wizard in short form, for a page picking the conversation back up."""
    gathered = wizard.gathered
    return {
        "kind": wizard.kind,
        "title": "Setting up a new agent",
        "gathered": [
            {"field": key, "label": LABELS[key], "value": display(gathered[key])}
            for key in ("source", "trigger", "action", "destination", "schedule", "details")
            if gathered.get(key)
        ],
        "question": _questions(wizard.asking) if wizard.asking else None,
    }


def _agent_name_for(gathered: Mapping[str, str]) -> str:
    """A readable slug: source, the last words of what it watches, and what it is."""
    if gathered.get("name"):
        return gathered["name"]
    source = gathered.get("source", "").replace("_", "-")
    skip = NAME_STOPWORDS | set(source.split("-"))
    words = [
        w for w in re.findall(r"[a-z0-9]+", gathered.get("trigger", "").lower()) if w not in skip
    ]
    action = gathered.get("action", "").lower()
    role = "reporter" if re.search(r"summar|report|digest", action) else "monitor"
    if words and re.search(r"summar|report|digest|alert|monitor", words[-1]):
        role = ""
    return "-".join(part for part in [source, *words[-2:], role] if part) or "agent"


def _finish(turn: Turn, state: AssistantState, gathered: dict[str, str]) -> Outcome:
    name = agents.agent_unique_name(tenant=turn.tenant, base=_agent_name_for(gathered))
    effect = CreateAgent(
        agent_id=new_id(),
        name=name,
        description=f"{display(gathered['action'])}: {gathered['trigger']}"[:500],
        config={key: gathered[key] for key in CONFIG_KEYS if gathered.get(key)},
    )
    content = (
        "Done! I've created your agent:\n"
        + "\n".join([f"- Name: {name}", *gathered_lines(gathered)])
        + '\n\nSay "run it" to start it now.'
    )
    return Outcome(
        Reply(
            content,
            meta={"agents_referenced": [name], "created_agent": name},
            decision="agent_created",
        ),
        state.replace(last_agent=name),
        (effect,),
    )
