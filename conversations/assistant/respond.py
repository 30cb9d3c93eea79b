"""The master agent: a function of (state, classified turn) to (reply, new state, effects).

Replies are templates (no model writes prose). It reads what it needs through selectors and
writes nothing: the chat turn applies the effects and stores the reply and the new state in
one transaction. The intent label routes; it never grants anything: whatever would change
platform settings checks the caller's role.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from conversations.assistant import agents
from conversations.assistant.clarify import clarify
from conversations.assistant.outcome import Outcome, Reply, Turn
from conversations.assistant.state import AssistantState, Option
from conversations.assistant.wizard import (
    answers_wizard,
    wizard_recap,
    wizard_step,
    wizard_summary,
)
from intents.offline.followups import FollowUp, read_followup
from intents.types import CLARIFY_BELOW, ActionType


def assistant_respond(state: AssistantState, turn: Turn) -> Outcome:
    """Decide one turn. The new state remembers what the reply offered ("2" picks it)."""
    outcome = _route(turn, state, read_followup(turn.message))
    shown = outcome.reply.meta
    remembered = outcome.state.replace(
        options=tuple(
            Option(n=o["n"], action_type=o["action_type"], label=o["label"], agent=o.get("agent"))
            for o in shown.get("options", ())
        ),
        listed_agents=tuple(shown["listed_agents"])
        if "listed_agents" in shown
        else outcome.state.listed_agents,
    )
    return Outcome(outcome.reply, remembered, outcome.effects)


def _route(turn: Turn, state: AssistantState, follow: FollowUp) -> Outcome:
    wizard = state.wizard
    if wizard and follow.cancel:
        return Outcome(
            Reply(
                "Okay, I've cancelled setting up that agent. Nothing was created.",
                decision="wizard_cancelled",
            ),
            state.replace(wizard=None),
        )
    if state.options:
        pick = follow.pick(len(state.options))
        if pick is not None:
            return _picked_option(turn, state, state.options[pick])
    state = state.replace(pending=None)

    if follow.recap:
        if wizard:
            return Outcome(wizard_recap(wizard), state)
        return Outcome(
            Reply(
                "There's nothing half-finished here. You can ask me to create an agent, run or "
                "change one of your agents, or show what you have.",
                decision="recap_nothing_open",
            ),
            state,
        )

    intent = turn.intent
    action = intent.action_type
    entities = dict(intent.entities)
    if wizard and (action == ActionType.CREATE_AGENT or answers_wizard(turn.message, wizard)):
        return wizard_step(turn, state, entities, turn.message)
    if intent.method != "fast_path" and (
        action == ActionType.UNKNOWN or intent.confidence < CLARIFY_BELOW or intent.is_ambiguous
    ):
        return clarify(turn, state)
    return _act(turn, state, action, entities, turn.message)


def _picked_option(turn: Turn, state: AssistantState, option: Option) -> Outcome:
    pending = state.pending
    state = state.replace(pending=None)
    try:
        action = ActionType(option.action_type)
    except ValueError:
        action = ActionType.UNKNOWN
    entities = dict(pending.entities) if pending else {}
    if option.agent:
        entities["agent"] = option.agent
    text = pending.message if pending else turn.message
    outcome = _act(turn, state, action, entities, text)
    outcome.reply.decision = f"picked_option_{option.n}:{outcome.reply.decision}"
    return outcome


def _act(
    turn: Turn, state: AssistantState, action: ActionType, entities: Mapping[str, str], text: str
) -> Outcome:
    if action == ActionType.CREATE_AGENT:
        return wizard_step(turn, state, entities, text)
    if action == ActionType.QUERY_INFO:
        return agents.query(turn, state, entities, text)
    if action == ActionType.EXECUTE_TASK:
        return agents.execute(turn, state, entities, text)
    if action == ActionType.UPDATE_AGENT:
        return agents.update(turn, state, entities, text)
    if action == ActionType.MANAGE_PLATFORM:
        return agents.manage(turn, state)
    if action == ActionType.CREATE_SKILL:
        return Outcome(
            Reply(
                "Building a new skill happens in the skill-creation chat, which I'm handing you "
                "over to. It isn't open in this conversation yet: for now I can create agents, "
                "run or change your agents, and show what you have.",
                meta={"handoff": "skill_creation"},
                decision="create_skill_handoff",
            ),
            state,
        )
    return Outcome(
        Reply("Sure: tell me in your own words what you'd like to do.", decision="something_else"),
        state,
    )


def state_summary(state: AssistantState) -> dict[str, Any] | None:
    """What a returning user needs to pick up where they were; None when nothing is open.

    The open wizard in short form (what is gathered, the open question) and the numbered
    options last offered, as a page shows them without another request.
    """
    if state.wizard is None and not state.options:
        return None
    return {
        "wizard": wizard_summary(state.wizard) if state.wizard else None,
        "options": [{"n": option.n, "label": option.label} for option in state.options],
    }
