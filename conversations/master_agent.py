"""The master agent: what to answer, and what to do, for one classified chat turn.

Replies are templates (no model writes prose). State that must survive the turn lives in the
conversation's metadata (the open wizard, the pending clarification, the last agent run) and in
the reply's metadata (the numbered list or options shown), so a later turn, another device or a
restarted process resolves "the second one" the same way.

The intent label routes; it never grants anything. Whatever changes platform state checks the
user's role here.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.models import User

from conversations import agent_services
from conversations.models import Agent, Conversation, Membership, Tenant
from intents.clarify import ACTION_PHRASES
from intents.entities import extract_entities
from intents.followups import FollowUp, read_followup
from intents.types import CLARIFY_BELOW, ActionType, HistoryTurn, IntentResult

MAX_LISTED = 20
MAX_QUESTIONS = 3
WIZARD_FIELDS = ("source", "trigger", "action", "schedule")
NAME_STOPWORDS = frozenset(
    {
        "the",
        "a",
        "an",
        "our",
        "my",
        "for",
        "of",
        "to",
        "on",
        "in",
        "and",
        "any",
        "all",
        "that",
        "when",
        "with",
        "from",
        "every",
        "monitor",
        "monitors",
        "watch",
        "watches",
        "daily",
        "weekly",
        "monthly",
        "hourly",
        "new",
        "board",
    }
)
QUESTIONS = {
    "source": "Where does the data come from (for example Notion, Jira, Google Sheets, Slack)?",
    "trigger": "What should it watch for or work on?",
    "action": "What should it do with it: send an alert, write a summary, or build a report?",
    "schedule": "How often should it run: hourly, every morning at a set time, or weekly?",
}
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
_HELP_RE = re.compile(
    r"\b(help|what can you do|what do you do|how (?:do|does) (?:this|it|you) work|capabilit"
    r"|que puedes hacer|que peux-tu faire|was kannst du)",
    re.IGNORECASE,
)
_SAME_AGAIN_RE = re.compile(
    r"\b(same (?:thing |one |agent )?as (?:last time|before)|again|last one I ran"
    r"|like last time)\b",
    re.IGNORECASE,
)
_PRONOUN_RE = re.compile(r"\b(it|that one|this one|that agent|this agent|the agent)\b", re.I)
_FREE_TEXT_SPLIT = re.compile(r"\s*(?:,|;|\band then\b|\band\b|\bplus\b)\s*", re.IGNORECASE)
_FILLER_RE = re.compile(
    r"^(?:ok(?:ay)?|sure|yes|yeah|yep|great|fine|well|so|hmm|um|uh)[,.! ]+", re.IGNORECASE
)


@dataclass(frozen=True)
class Turn:
    tenant: Tenant
    user: User
    role: str  # the caller's membership role
    conversation: Conversation
    message: str
    message_id: str
    intent: IntentResult
    history: Sequence[HistoryTurn] = ()


@dataclass
class Reply:
    content: str
    meta: dict[str, Any] = field(default_factory=dict)  # TurnMeta keys for the stored reply
    decision: str = ""  # the routing decision, for the audit trail


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


def last_assistant_meta(history: Sequence[HistoryTurn]) -> Mapping[str, Any]:
    for turn in reversed(history):
        if turn["role"] == "assistant":
            return turn.get("metadata") or {}
    return {}


def last_listed_agents(history: Sequence[HistoryTurn]) -> list[str]:
    for turn in reversed(history):
        listed = (
            (turn.get("metadata") or {}).get("listed_agents")
            if turn["role"] == "assistant"
            else None
        )
        if listed:
            return list(listed)
    return []


def master_agent_respond(turn: Turn) -> Reply:
    """Decide and act on one turn; the conversation's metadata is saved with the changes.

    Not one transaction: a reply that only reads (a list, help, a recap) must not need the
    write lock, so that it is still answered while storage refuses writes. Each write below is
    a single statement or an atomic service of its own.
    """
    state = dict(turn.conversation.metadata or {})
    follow = read_followup(turn.message)
    reply = _route(turn, state, follow)
    if state != (turn.conversation.metadata or {}):
        turn.conversation.metadata = state
        Conversation.objects.for_tenant(turn.tenant).filter(id=turn.conversation.id).update(
            metadata=state
        )
    return reply


def _route(turn: Turn, state: dict[str, Any], follow: FollowUp) -> Reply:
    wizard = state.get("wizard")
    previous = last_assistant_meta(turn.history)

    if wizard and follow.cancel:
        state.pop("wizard", None)
        return Reply(
            "Okay, I've cancelled setting up that agent. Nothing was created.",
            decision="wizard_cancelled",
        )

    options = previous.get("options") or []
    if options:
        pick = follow.pick(len(options))
        if pick is not None:
            return _picked_option(turn, state, options[pick])
    state.pop("pending", None)

    if follow.recap:
        if wizard:
            return _wizard_recap(wizard, welcome=True)
        return Reply(
            "There's nothing half-finished here. You can ask me to create an agent, run or "
            "change one of your agents, or show what you have.",
            decision="recap_nothing_open",
        )

    intent = turn.intent
    action = intent.action_type
    entities = dict(intent.entities)
    if wizard and (action == ActionType.CREATE_AGENT or _answers_wizard(turn.message, wizard)):
        return _wizard_step(turn, state, entities, turn.message)
    if intent.method != "fast_path" and (
        action == ActionType.UNKNOWN or intent.confidence < CLARIFY_BELOW or intent.is_ambiguous
    ):
        return _clarify(turn, state)
    return _act(turn, state, action, entities, turn.message)


def _act(
    turn: Turn, state: dict[str, Any], action: ActionType, entities: dict[str, str], text: str
) -> Reply:
    if action == ActionType.CREATE_AGENT:
        return _wizard_step(turn, state, entities, text)
    if action == ActionType.QUERY_INFO:
        return _query(turn, state, entities, text)
    if action == ActionType.EXECUTE_TASK:
        return _execute(turn, state, entities, text)
    if action == ActionType.UPDATE_AGENT:
        return _update(turn, state, entities, text)
    if action == ActionType.MANAGE_PLATFORM:
        return _manage(turn)
    if action == ActionType.CREATE_SKILL:
        return Reply(
            "Building a new skill happens in the skill-creation chat, which I'm handing you over "
            "to. It isn't open in this conversation yet: for now I can create agents, run or "
            "change your agents, and show what you have.",
            meta={"handoff": "skill_creation"},
            decision="create_skill_handoff",
        )
    return Reply(
        "Sure: tell me in your own words what you'd like to do.", decision="something_else"
    )


# --- Clarification with numbered options ---------------------------------------------------


def _option_label(turn: Turn, action: ActionType, agent: Agent | None) -> str:
    if action == ActionType.EXECUTE_TASK:
        if agent is not None:
            return f"Run {agent.name} now" + (
                f" ({agent.description})" if agent.description else ""
            )
        return "Run one of your existing agents now (I'll ask which)"
    if action == ActionType.UPDATE_AGENT and agent is not None:
        return f"Change {agent.name}"
    if action == ActionType.UNKNOWN:
        return "Something else: tell me in your own words"
    phrase = ACTION_PHRASES[action]
    return phrase[0].upper() + phrase[1:]


def _clarify(turn: Turn, state: dict[str, Any]) -> Reply:
    intent = turn.intent
    ranked: list[ActionType] = []
    for candidate in (intent.action_type, intent.alternative_action):
        if candidate and candidate != ActionType.UNKNOWN and candidate not in ranked:
            ranked.append(candidate)
    for fallback in (ActionType.CREATE_AGENT, ActionType.EXECUTE_TASK, ActionType.QUERY_INFO):
        if len(ranked) >= 2:
            break
        if fallback not in ranked:
            ranked.append(fallback)
    ranked.append(ActionType.UNKNOWN)
    agent = _resolve_agent(turn, state, dict(intent.entities), turn.message, guess=True)
    options = [
        {
            "n": n,
            "action_type": action.value,
            "label": _option_label(turn, action, agent),
            **({"agent": agent.name} if agent and action in _AGENT_ACTIONS else {}),
        }
        for n, action in enumerate(ranked, start=1)
    ]
    state["pending"] = {"message": turn.message[:2000], "entities": dict(intent.entities)}
    question = intent.clarifying_question or "I'm not sure what you'd like me to do."
    content = (
        f"I want to get this right. {question}\n"
        + numbered([str(o["label"]) for o in options])
        + "\nReply with a number, or tell me more."
    )
    return Reply(content, meta={"options": options}, decision="clarify")


_AGENT_ACTIONS = (ActionType.EXECUTE_TASK, ActionType.UPDATE_AGENT)


def _picked_option(turn: Turn, state: dict[str, Any], option: Mapping[str, Any]) -> Reply:
    pending = state.pop("pending", None) or {}
    try:
        action = ActionType(str(option.get("action_type")))
    except ValueError:
        action = ActionType.UNKNOWN
    entities = dict(pending.get("entities") or {})
    if option.get("agent"):
        entities["agent"] = str(option["agent"])
    text = str(pending.get("message") or turn.message)
    reply = _act(turn, state, action, entities, text)
    reply.decision = f"picked_option_{option.get('n')}:{reply.decision}"
    return reply


# --- The create-agent wizard -----------------------------------------------------------------


def _answers_wizard(message: str, wizard: Mapping[str, Any]) -> bool:
    found = extract_entities(message)
    if any(found.get(key) for key in ("source", "schedule", "destination")):
        return True
    asking = wizard.get("asking") or []
    # A short free-text answer to a free-text question ("revenue by region") is an answer.
    return bool(asking) and asking[0] in ("trigger", "action") and len(message.split()) <= 12


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


def _gathered_lines(gathered: Mapping[str, str]) -> list[str]:
    return [
        f"- {LABELS[key]}: {display(gathered[key])}"
        for key in ("source", "trigger", "action", "destination", "schedule", "details")
        if gathered.get(key)
    ]


def _wizard_step(
    turn: Turn, state: dict[str, Any], entities: Mapping[str, str], text: str
) -> Reply:
    starting = not state.get("wizard")
    wizard = dict(state.get("wizard") or {"kind": "create_agent", "gathered": {}, "asking": []})
    gathered = dict(wizard.get("gathered") or {})
    _gather(gathered, list(wizard.get("asking") or []), entities, text)
    missing = [f for f in WIZARD_FIELDS if not gathered.get(f)]
    if not missing:
        state.pop("wizard", None)
        return _wizard_finish(turn, state, gathered)
    asking = missing[:MAX_QUESTIONS]
    wizard.update(gathered=gathered, asking=asking)
    state["wizard"] = wizard
    lead = "I'll help you create an agent for that." if starting else "Got it!"
    so_far = _gathered_lines(gathered)
    parts = [lead]
    if so_far:
        parts.append("So far:\n" + "\n".join(so_far))
    if len(asking) == 1:
        parts.append(QUESTIONS[asking[0]])
    else:
        parts.append("A few questions:\n" + numbered([QUESTIONS[f] for f in asking]))
    return Reply("\n\n".join(parts), meta={"wizard": wizard}, decision="wizard_ask")


def _wizard_recap(wizard: Mapping[str, Any], *, welcome: bool) -> Reply:
    gathered = wizard.get("gathered") or {}
    asking = list(wizard.get("asking") or [])
    lines = _gathered_lines(gathered)
    parts = [
        "No problem! We were setting up a new agent."
        if welcome
        else "We're setting up a new agent."
    ]
    parts.append(
        "So far we have:\n" + "\n".join(lines) if lines else "We haven't settled any details yet."
    )
    if asking:
        question = (
            QUESTIONS[asking[0]] if len(asking) == 1 else numbered([QUESTIONS[f] for f in asking])
        )
        parts.append(f"I was asking:\n{question}")
    return Reply("\n\n".join(parts), meta={"wizard": dict(wizard)}, decision="wizard_recap")


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


def _wizard_finish(turn: Turn, state: dict[str, Any], gathered: dict[str, str]) -> Reply:
    name = agent_services.agent_unique_name(tenant=turn.tenant, base=_agent_name_for(gathered))
    config = {key: gathered[key] for key in agent_services.CONFIG_KEYS if gathered.get(key)}
    description = f"{display(gathered['action'])}: {gathered['trigger']}"[:500]
    agent = agent_services.agent_create(
        tenant=turn.tenant, name=name, description=description, config=config, created_by=turn.user
    )
    state["last_agent"] = agent.name
    content = (
        "Done! I've created your agent:\n"
        + "\n".join([f"- Name: {agent.name}", *_gathered_lines(gathered)])
        + '\n\nSay "run it" to start it now.'
    )
    return Reply(
        content,
        meta={"agents_referenced": [agent.name], "created_agent": agent.name},
        decision="agent_created",
    )


# --- Agents: list, details, run, change -----------------------------------------------------


def _resolve_agent(
    turn: Turn,
    state: Mapping[str, Any],
    entities: Mapping[str, str],
    text: str,
    *,
    guess: bool = False,
) -> Agent | None:
    tenant = turn.tenant
    reference = entities.get("agent")
    if reference:
        agent = agent_services.agent_find(tenant=tenant, reference=reference)
        if agent is not None:
            return agent
    for mention in re.findall(r"@([\w-]+)", text):
        agent = agent_services.agent_find(tenant=tenant, reference=mention)
        if agent is not None:
            return agent
    listed = last_listed_agents(turn.history)
    if listed:
        pick = read_followup(text).pick(len(listed))
        if pick is not None:
            return agent_services.agent_find(tenant=tenant, reference=listed[pick])
    if _SAME_AGAIN_RE.search(text) and state.get("last_agent_run"):
        return agent_services.agent_find(tenant=tenant, reference=state["last_agent_run"])
    agents = list(Agent.objects.for_tenant(tenant).only("id", "name", "description")[:200])
    lowered = text.lower()
    for agent in agents:
        if agent.name in lowered or agent.name.replace("-", " ") in lowered:
            return agent
    if _PRONOUN_RE.search(text) and state.get("last_agent"):
        return agent_services.agent_find(tenant=tenant, reference=state["last_agent"])
    if guess and entities.get("source"):
        matches = [a for a in agents if entities["source"].replace("_", "-") in a.name]
        if len(matches) == 1:
            return matches[0]
    return None


def _which_agent(turn: Turn, action: ActionType, verb: str) -> Reply:
    agents = list(Agent.objects.for_tenant(turn.tenant).order_by("name")[:5])
    if not agents:
        return Reply(
            "You don't have any agents yet. Tell me what one should do, for example "
            '"create an agent that posts a daily Jira summary to #team".',
            decision=f"{action.value}_no_agents",
        )
    options = [
        {"n": n, "action_type": action.value, "label": f"{verb} {a.name}", "agent": a.name}
        for n, a in enumerate(agents, start=1)
    ]
    content = f"Which agent should I {verb.lower()}?\n" + numbered(
        [str(o["label"]) for o in options]
    )
    return Reply(
        content,
        meta={"options": options, "listed_agents": [a.name for a in agents]},
        decision=f"{action.value}_which_agent",
    )


def _query(turn: Turn, state: dict[str, Any], entities: Mapping[str, str], text: str) -> Reply:
    if _HELP_RE.search(text):
        return Reply(
            "Here's what I can do:\n"
            + numbered(
                [
                    'Create an agent from a description ("watch Jira for overdue tickets and '
                    'alert #platform every morning")',
                    'Run one of your agents ("run notion-reporter", "run the first one")',
                    'Change an agent ("make it weekly instead")',
                    'Show your agents and their last runs ("list my agents")',
                ]
            ),
            decision="help",
        )
    agent = _resolve_agent(turn, state, entities, text)
    wants_list = re.search(r"\b(list|all|my agents)\b", text, re.IGNORECASE)
    if agent is not None and (entities.get("agent") or not wants_list):
        return _details(turn, state, agent)
    agents = list(Agent.objects.for_tenant(turn.tenant).order_by("name")[: MAX_LISTED + 1])
    if not agents:
        return Reply(
            "You don't have any agents yet. Describe what one should do and I'll set it up.",
            meta={"listed_agents": []},
            decision="list_agents_empty",
        )
    shown = agents[:MAX_LISTED]
    lines = [f"{a.name} - {a.description}" if a.description else a.name for a in shown]
    more = "\n(and more: ask for one by name)" if len(agents) > MAX_LISTED else ""
    return Reply(
        "Here are your agents:\n" + numbered(lines) + more,
        meta={"listed_agents": [a.name for a in shown]},
        decision="list_agents",
    )


def _details(turn: Turn, state: dict[str, Any], agent: Agent) -> Reply:
    state["last_agent"] = agent.name
    last = agent_services.agent_last_run(agent=agent)
    lines = [f"{agent.name}" + (f": {agent.description}" if agent.description else "")]
    lines += [
        f"- {LABELS.get(key, key.title())}: {display(str(value))}"
        for key, value in (agent.config or {}).items()
        if value
    ]
    lines.append(
        f"- Last run: {last.status}, requested {last.requested_at:%Y-%m-%d %H:%M} UTC"
        if last
        else "- Last run: never"
    )
    return Reply(
        "\n".join(lines), meta={"agents_referenced": [agent.name]}, decision="agent_details"
    )


def _closest_agent(tenant: Tenant, text: str) -> Agent | None:
    """The agent whose name and description share the most word stems with the request."""
    stems = {w[:5] for w in re.findall(r"[a-z]{4,}", text.lower())} - {"agent", "about", "their"}
    best, best_score = None, 0
    for agent in Agent.objects.for_tenant(tenant).only("id", "name", "description")[:200]:
        words = re.findall(r"[a-z]{4,}", f"{agent.name} {agent.description}".lower())
        score = len(stems & {w[:5] for w in words})
        if score > best_score:
            best, best_score = agent, score
    return best


def _task_options(turn: Turn, state: dict[str, Any]) -> Reply:
    """A described task no agent clearly does: say what each choice would do (journey 5)."""
    closest = _closest_agent(turn.tenant, turn.message)
    options: list[dict[str, Any]] = []
    if closest is not None:
        what = f", which does {closest.description.lower()}" if closest.description else ""
        options.append(
            {
                "action_type": ActionType.EXECUTE_TASK.value,
                "label": f"Run {closest.name} anyway{what} (it may partially help)",
                "agent": closest.name,
            }
        )
    options.append(
        {
            "action_type": ActionType.CREATE_AGENT.value,
            "label": "Create a new agent specifically for this",
        }
    )
    options.append(
        {
            "action_type": ActionType.QUERY_INFO.value,
            "label": "Show all your agents so you can pick one",
        }
    )
    options.append(
        {"action_type": ActionType.UNKNOWN.value, "label": "Something else: tell me more"}
    )
    for n, option in enumerate(options, start=1):
        option["n"] = n
    state["pending"] = {"message": turn.message[:2000], "entities": dict(turn.intent.entities)}
    lead = (
        f"I found your {closest.name} agent, but I'm not sure it does this."
        if closest is not None
        else "None of your agents clearly does this."
    )
    content = f"{lead} Would you like me to:\n" + numbered([str(o["label"]) for o in options])
    return Reply(content, meta={"options": options}, decision="execute_task_options")


def _execute(turn: Turn, state: dict[str, Any], entities: Mapping[str, str], text: str) -> Reply:
    agent = _resolve_agent(turn, state, entities, text)
    if agent is None:
        # "run it" needs a name; a described task gets choices that say what would happen.
        if len(text.split()) >= 8 and text == turn.message:
            return _task_options(turn, state)
        return _which_agent(turn, ActionType.EXECUTE_TASK, "Run")
    run = agent_services.agent_run_request(
        agent=agent,
        user=turn.user,
        conversation_id=turn.conversation.id,
        message_id=turn.message_id,
    )
    state["last_agent_run"] = state["last_agent"] = agent.name
    what = f" ({agent.description})" if agent.description else ""
    return Reply(
        f"Running {agent.name}{what}. I've queued it (run {run.id}).",
        meta={"agent_run": agent.name, "agents_referenced": [agent.name], "run_id": run.id},
        decision="agent_run_queued",
    )


def _update(turn: Turn, state: dict[str, Any], entities: Mapping[str, str], text: str) -> Reply:
    agent = _resolve_agent(turn, state, entities, text)
    if agent is None:
        return _which_agent(turn, ActionType.UPDATE_AGENT, "Change")
    state["last_agent"] = agent.name
    found = {**extract_entities(text), **{k: v for k, v in entities.items() if v}}
    before = dict(agent.config or {})
    changes: dict[str, str] = {}
    if found.get("schedule") or found.get("frequency"):
        changes["schedule"] = found.get("schedule") or found["frequency"]
    if found.get("destination"):
        changes["destination"] = found["destination"]
    if found.get("source") and re.search(r"\b(source|from|switch|instead of|use)\b", text, re.I):
        changes["source"] = found["source"]
    old_name = agent.name
    new_name = found.get("new_name")
    if not changes and not new_name:
        return Reply(
            f"What should I change about {agent.name}: its schedule, where it sends results, "
            "its source, or its name?",
            meta={"agents_referenced": [agent.name]},
            decision="update_agent_ask_what",
        )
    agent = agent_services.agent_update(agent=agent, name=new_name, config=changes or None)
    lines = [
        f"- {LABELS[key]}: {display(before.get(key) or 'not set')} → {display(value)}"
        for key, value in changes.items()
    ]
    if new_name:
        lines.insert(0, f"- Name: {old_name} → {agent.name}")
        state["last_agent"] = agent.name
        if state.get("last_agent_run") == old_name:
            state["last_agent_run"] = agent.name
    return Reply(
        f"Updated {agent.name}:\n" + "\n".join(lines),
        meta={"agents_referenced": [agent.name], "changes": changes},
        decision="agent_updated",
    )


def _manage(turn: Turn) -> Reply:
    # Routing said "platform settings"; what the caller may do depends on their role alone.
    if turn.role == Membership.Role.ADMIN:
        return Reply(
            "Platform settings live in the admin console (/admin/): users and their roles, "
            "API tokens, and your tenant's agents and conversations. As a tenant admin you can "
            "change them there; I don't change platform settings from the chat.",
            decision="manage_platform_admin",
        )
    return Reply(
        "Users, roles, API keys and integrations are managed by your tenant's admins in the "
        "admin console. Your role is member, so I can't change them for you; ask an admin.",
        decision="manage_platform_not_allowed",
    )
