"""Template clarifying questions, used whenever confidence is below the threshold."""

from __future__ import annotations

from collections.abc import Mapping

from django.utils.translation import gettext_noop

from intents.types import ActionType

# What each action would do, in the words a clarifying question uses (marked for translation;
# an option of the assistant says it capitalised, in the reply's language).
ACTION_PHRASES: dict[ActionType, str] = {
    ActionType.CREATE_AGENT: gettext_noop("create a new agent that does this automatically"),
    ActionType.CREATE_SKILL: gettext_noop("build a new reusable skill"),
    ActionType.EXECUTE_TASK: gettext_noop("run one of your existing agents now"),
    ActionType.UPDATE_AGENT: gettext_noop("change one of your existing agents"),
    ActionType.QUERY_INFO: gettext_noop("show you information about your agents or the platform"),
    ActionType.MANAGE_PLATFORM: gettext_noop(
        "change platform settings (users, keys, billing, integrations)"
    ),
    ActionType.UNKNOWN: gettext_noop("something else"),
}


def action_phrase(action: ActionType, entities: Mapping[str, str] | None = None) -> str:
    """What ``action`` would do, naming the agent or tool the message was about when known."""
    entities = entities or {}
    agent = entities.get("agent")
    source = (entities.get("source") or "").split(",")[0].replace("_", " ")
    if agent and action == ActionType.EXECUTE_TASK:
        return f"run {agent} now"
    if agent and action == ActionType.UPDATE_AGENT:
        return f"change {agent}"
    if agent and action == ActionType.QUERY_INFO:
        return f"show you what {agent} does and how it last ran"
    if source and action == ActionType.CREATE_AGENT:
        return f"create a new agent that works on {source.title()} automatically"
    return ACTION_PHRASES[action]


def clarifying_question_for(
    action: ActionType,
    alternative: ActionType | None = None,
    entities: Mapping[str, str] | None = None,
) -> str:
    """A specific question naming the likely action and, when known, the runner-up."""
    if action == ActionType.UNKNOWN and alternative in (None, ActionType.UNKNOWN):
        return (
            "I'm not sure what you'd like to do. Do you want me to create an agent, run one "
            "of your agents, change an agent, or show you what you have?"
        )
    if action == ActionType.UNKNOWN:
        assert alternative is not None
        action, alternative = alternative, ActionType.UNKNOWN
    first = action_phrase(action, entities)
    if alternative is not None and alternative != action:
        return f"Do you want me to {first}, or {action_phrase(alternative, entities)}?"
    return f"Just to check: do you want me to {first}?"
