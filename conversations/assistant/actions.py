"""The action done once the router has settled which (set up an agent, answer a question, run
or change an agent, manage the platform, build a skill), for the message or for the request an
option picked from those shown was about.
"""

from __future__ import annotations

from collections.abc import Mapping

from django.utils.translation import gettext as _

from conversations.assistant import agent_commands as commands
from conversations.assistant import agents
from conversations.assistant.outcome import Outcome, Reply, Turn
from conversations.assistant.platform import answer_platform_question, manage
from conversations.assistant.skills import (
    asks_for_skills,
    skill_session_resume,
    skill_session_start,
    skills_reply,
    wants_to_resume,
)
from conversations.assistant.state import AssistantState, Option
from conversations.assistant.wizard import wizard_step
from intents.reading.acts import Act
from intents.reading.reading import Reading
from intents.types import ActionType


def _about_an_agent(state: AssistantState, entities: Mapping[str, str], reading: Reading) -> bool:
    """A question with "its" asks about the agent just talked about, not how things work."""
    return bool(entities.get("agent")) or bool(state.last_agent and reading.shows(Act.ABOUT_IT))


def picked_option(turn: Turn, state: AssistantState, option: Option) -> Outcome:
    pending = state.pending
    state = state.replace(pending=None)
    try:
        action = ActionType(option.action_type)
    except ValueError:
        action = ActionType.UNKNOWN
    entities = dict(pending.entities) if pending else {}
    if option.agent:
        entities["agent"] = option.agent
    # The request the options were about, kept from the turn that asked which.
    said = turn.reading_of(pending.message) if pending else turn.reading
    outcome = act_on(turn, state, action, entities, said)
    outcome.reply.decision = "picked_option_" + str(option.n) + ":" + outcome.reply.decision
    return outcome


def act_on(
    turn: Turn,
    state: AssistantState,
    action: ActionType,
    entities: Mapping[str, str],
    said: Reading,
) -> Outcome:
    """The action done, for what ``said`` asks (this turn's message, or the request kept from
    the turn whose options it picks from)."""
    if wants_to_resume(said) and action != ActionType.CREATE_AGENT:
        # "Let's finish that skill": the session this conversation left open, if any.
        resumed = skill_session_resume(turn, state)
        if resumed is not None:
            return resumed
    if action == ActionType.CREATE_AGENT:
        asked = said.shows(Act.ASKS_FOR_AGENT) or turn.intent.method == "fast_path"
        return wizard_step(turn, state, said, proposal=not asked and turn.is_own(said))
    if action == ActionType.QUERY_INFO and asks_for_skills(said):
        return Outcome(skills_reply(turn), state)
    if (
        action == ActionType.QUERY_INFO
        and said.question
        and not _about_an_agent(state, entities, said)
    ):
        answered = answer_platform_question(turn, said)
        if answered is not None:
            return Outcome(answered, state)
    if action == ActionType.QUERY_INFO:
        return agents.query(turn, state, entities, said)
    if action == ActionType.EXECUTE_TASK:
        return agents.execute(turn, state, entities, said)
    if action == ActionType.UPDATE_AGENT:
        return commands.update(turn, state, entities, said)
    if action == ActionType.MANAGE_PLATFORM:
        # "can you add maria@… as a viewer?" asks for something done, not how things work.
        asks_how = said.question and not said.shows(Act.ASKS_FOR_IT)
        answered = answer_platform_question(turn, said) if asks_how else None
        return Outcome(answered or manage(turn, said), state)
    if action == ActionType.CREATE_SKILL:
        return skill_session_start(turn, state, said)
    return Outcome(
        Reply(
            _("Sure: tell me in your own words what you'd like to do."), decision="something_else"
        ),
        state,
    )
