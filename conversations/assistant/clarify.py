"""Clarifying questions: numbered options, each saying what would happen."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from conversations.agents import selectors as agent_selectors
from conversations.assistant.agents import resolve_agent
from conversations.assistant.outcome import Outcome, Reply, Turn
from conversations.assistant.state import AssistantState, PendingRequest
from conversations.assistant.text import numbered
from conversations.models import Agent
from intents.clarify import ACTION_PHRASES
from intents.types import ActionType

_AGENT_ACTIONS = (ActionType.EXECUTE_TASK, ActionType.UPDATE_AGENT)
# Options that say more than the phrase a clarifying question uses for their action.
_LABELS = {
    ActionType.EXECUTE_TASK: gettext_lazy("Run one of your existing agents now (I'll ask which)"),
    ActionType.UNKNOWN: gettext_lazy("Something else: tell me in your own words"),
}


def _option_label(action: ActionType, agent: Agent | None) -> str:
    if action == ActionType.EXECUTE_TASK and agent is not None:
        if agent.description:
            return _("Run %(name)s now (%(description)s)") % {
                "name": agent.name,
                "description": agent.description,
            }
        return _("Run %(name)s now") % {"name": agent.name}
    if action == ActionType.UPDATE_AGENT and agent is not None:
        return _("Change %(name)s") % {"name": agent.name}
    if action in _LABELS:
        return str(_LABELS[action])
    phrase = _(ACTION_PHRASES[action])  # marked for translation where it is defined
    return phrase[0].upper() + phrase[1:]


def _agents_meant(turn: Turn) -> list[Agent]:
    """ "can u do the weekly report" with pipeline-weekly-report and support-weekly-report: the
    agents whose names share the most words with the request, when more than one does."""
    # The words the message reads as (a slug is its parts), of four letters or more.
    said = {word for word in turn.reading.words if len(word) >= 4 and word.isalpha()}
    said -= {"agent", "agents", "please"}
    scored: list[tuple[int, Agent]] = []
    for agent in agent_selectors.agents_for_matching(tenant=turn.tenant):
        parts = set(agent.name.lower().replace("_", "-").split("-"))
        scored.append((len(said & parts), agent))
    best = max((score for score, _ in scored), default=0)
    tied = [agent for score, agent in scored if score == best]
    return tied if best >= 2 and 2 <= len(tied) <= 4 else []


def clarify(turn: Turn, state: AssistantState) -> Outcome:
    intent = turn.intent
    meant = _agents_meant(turn)
    if meant:
        # Which of the agents it names: each one an option, with what would happen to it.
        action = intent.action_type if intent.action_type in _AGENT_ACTIONS else None
        action = action or ActionType.EXECUTE_TASK
        options = [
            {
                "n": n,
                "action_type": action.value,
                "label": _option_label(action, agent),
                "agent": agent.name,
            }
            for n, agent in enumerate(meant, start=1)
        ]
        options.append(
            {
                "n": len(options) + 1,
                "action_type": ActionType.UNKNOWN.value,
                "label": _option_label(ActionType.UNKNOWN, None),
            }
        )
        content = _(
            "Which one do you mean: %(names)s or %(last)s?\n%(options)s\n"
            "Reply with a number, or tell me more."
        ) % {
            "names": ", ".join(a.name for a in meant[:-1]),
            "last": meant[-1].name,
            "options": numbered([str(o["label"]) for o in options]),
        }
        return Outcome(
            Reply(content, meta={"options": options}, decision="clarify_which_agent"),
            state.replace(pending=PendingRequest(turn.message[:2000], dict(intent.entities))),
        )
    # Running or changing an agent is no option in a workspace that has none.
    has_agents = agent_selectors.agents_first(tenant=turn.tenant, limit=1)
    ruled_out = {ActionType.UNKNOWN} | (set() if has_agents else set(_AGENT_ACTIONS))
    ranked: list[ActionType] = []
    for candidate in (intent.action_type, intent.alternative_action):
        if candidate and candidate not in ruled_out and candidate not in ranked:
            ranked.append(candidate)
    for fallback in (ActionType.CREATE_AGENT, ActionType.EXECUTE_TASK, ActionType.QUERY_INFO):
        if len(ranked) >= 2:
            break
        if fallback not in ranked and fallback not in ruled_out:
            ranked.append(fallback)
    ranked.append(ActionType.UNKNOWN)
    agent = resolve_agent(turn, state, dict(intent.entities), turn.reading, guess=True)
    options = [
        {
            "n": n,
            "action_type": action.value,
            "label": _option_label(action, agent),
            **({"agent": agent.name} if agent and action in _AGENT_ACTIONS else {}),
        }
        for n, action in enumerate(ranked, start=1)
    ]
    listed = numbered([str(o["label"]) for o in options])
    if intent.clarifying_question:
        # The question the reading asked ("Do you want me to run it or change it?").
        content = _(
            "I want to get this right. %(question)s\n%(options)s\n"
            "Reply with a number, or tell me more."
        ) % {"question": intent.clarifying_question, "options": listed}
    else:
        content = _(
            "I want to get this right. I'm not sure what you'd like me to do.\n%(options)s\n"
            "Reply with a number, or tell me more."
        ) % {"options": listed}
    return Outcome(
        Reply(content, meta={"options": options}, decision="clarify"),
        state.replace(pending=PendingRequest(turn.message[:2000], dict(intent.entities))),
    )
