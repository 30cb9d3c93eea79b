"""Template clarifying questions, used whenever confidence is below the threshold."""

from __future__ import annotations

from collections.abc import Mapping

from intents.types import ActionType

# What each action would do, in the words a clarifying question uses.
ACTION_PHRASES: dict[ActionType, str] = {
    ActionType.CREATE_AGENT: "create a new agent that does this automatically",
    ActionType.CREATE_SKILL: "build a new reusable skill",
    ActionType.EXECUTE_TASK: "run one of your existing agents now",
    ActionType.UPDATE_AGENT: "change one of your existing agents",
    ActionType.QUERY_INFO: "show you information about your agents or the platform",
    ActionType.MANAGE_PLATFORM: "change platform settings (users, keys, billing, integrations)",
    ActionType.UNKNOWN: "something else",
}


def clarifying_question_for(
    action: ActionType,
    alternative: ActionType | None = None,
    entities: Mapping[str, str] | None = None,
) -> str:
    """A specific question naming the likely action and, when known, the runner-up."""
    subject = ""
    if entities:
        for key in ("agent", "source", "task", "data"):
            if entities.get(key):
                subject = f" for {entities[key]}"
                break
    if action == ActionType.UNKNOWN and alternative is None:
        return (
            "I'm not sure what you'd like to do. Do you want me to create an agent, run one "
            "of your agents, change an agent, or show you what you have?"
        )
    first = ACTION_PHRASES[action]
    if alternative is not None and alternative != action:
        return f"Do you want me to {first}{subject}, or {ACTION_PHRASES[alternative]}?"
    return f"Just to check: do you want me to {first}{subject}?"
