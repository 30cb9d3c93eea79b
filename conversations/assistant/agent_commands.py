"""What is done to one of the tenant's agents when asked: deleted (once confirmed, and only by
its creator or an admin), paused or resumed, or changed (schedule, destination, source, name).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _

from conversations.agents import selectors as agents
from conversations.agents import services as agent_services
from conversations.assistant.agent_replies import change_lines, paused_said, shown_name
from conversations.assistant.agents import resolve_agent, which_agent
from conversations.assistant.effects import DeleteAgent, UpdateAgent
from conversations.assistant.outcome import Outcome, Reply, Turn
from conversations.assistant.state import AssistantState
from conversations.assistant.text import called, with_title
from conversations.assistant.wizard import tenant_zone
from conversations.models import Agent, Membership
from intents.reading.acts import Act
from intents.reading.details import Schedule
from intents.reading.reading import Reading
from intents.reading.values import Setting
from intents.types import ActionType

_SOURCE_WORDS = frozenset({"source", "from", "switch", "use"})


def may_delete(turn: Turn, agent: Agent) -> bool:
    """The API's rule, whatever the intent label says: the agent's creator or a tenant admin."""
    admin = turn.role == Membership.Role.ADMIN
    return agent_services.agent_deletable_by(agent=agent, user=turn.user, admin=admin)


def delete_wanted(said: Reading) -> bool:
    return said.shows(Act.ASKS_TO_DELETE)


def delete_or_confirm(
    turn: Turn, state: AssistantState, entities: Mapping[str, str], said: Reading
) -> Outcome | None:
    """ "delete the last one": the agent it names, deleted once the user says yes (or at once
    when they waived that); None when no agent of the tenant is meant."""
    agent = resolve_agent(turn, state, entities, said)
    if agent is None:
        return None
    if not may_delete(turn, agent):
        return Outcome(
            Reply(
                _(
                    "Only the agent's creator or a tenant admin can delete %(name)s, so I "
                    "haven't. Ask one of your admins if it should go."
                )
                % {"name": agent.name},
                meta={"agents_referenced": [agent.name]},
                decision="agent_delete_not_allowed",
            ),
            state.replace(last_agent=agent.name),
        )
    if said.shows(Act.WAIVES_CONFIRMATION):
        return delete_confirmed(state, agent.id, agent.name)
    question = (
        _("Delete %(name)s (%(description)s)?") if agent.description else _("Delete %(name)s?")
    ) % {"name": agent.name, "description": agent.description}
    return Outcome(
        Reply(
            question
            + " "
            + _(
                "It stops for good and can't be undone; its past runs stay in the history. "
                'Say "yes" to delete it, or "no" to keep it.'
            ),
            meta={"agents_referenced": [agent.name], "offer": {"action_type": "update_agent"}},
            decision="agent_delete_confirm",
        ),
        state.replace(deleting=agent.name, last_agent=agent.name),
    )


def delete_confirmed(state: AssistantState, agent_id: str, name: str) -> Outcome:
    return Outcome(
        Reply(
            _("Deleted %(name)s. Nothing else changed.") % {"name": name},
            meta={"agents_referenced": [name], "deleted_agent": name},
            decision="agent_deleted",
        ),
        state.replace(
            deleting=None,
            last_agent=None if state.last_agent == name else state.last_agent,
            last_agent_run=None if state.last_agent_run == name else state.last_agent_run,
        ),
        (DeleteAgent(agent_id=agent_id),),
    )


def pause_wanted(said: Reading) -> bool | None:
    """True for "pause it", False for "resume it", None when the message asks neither."""
    if "resume" in said.agent_commands:
        return False
    if "pause" in said.agent_commands:
        return True
    return None


def _pause_or_resume(state: AssistantState, agent: Agent, paused: bool) -> Outcome:
    meta = {"agents_referenced": [agent.name]}
    said = paused_said(agent, paused)
    if paused == agent.paused:
        return Outcome(Reply(said, meta=meta, decision="agent_pause_unchanged"), state)
    return Outcome(
        Reply(said, meta={**meta, "changes": {"paused": paused}}, decision="agent_paused"
              if paused else "agent_resumed"),
        state,
        (UpdateAgent(agent_id=agent.id, paused=paused),),
    )  # fmt: skip


def pause_or_resume(
    turn: Turn, state: AssistantState, entities: Mapping[str, str], said: Reading
) -> Outcome | None:
    """ "pause the second one", "setz ihn wieder fort": done, or None when the message asks
    neither or names no agent."""
    paused = pause_wanted(said)
    if paused is None:
        return None
    agent = resolve_agent(turn, state, entities, said)
    if agent is None:
        return None
    return _pause_or_resume(state.replace(last_agent=agent.name), agent, paused)


def update(
    turn: Turn, state: AssistantState, entities: Mapping[str, str], said: Reading
) -> Outcome:
    paused = pause_or_resume(turn, state, entities, said)
    if paused is not None:
        return paused
    agent = resolve_agent(turn, state, entities, said)
    if agent is None:
        return which_agent(turn, state, ActionType.UPDATE_AGENT)
    state = state.replace(last_agent=agent.name)
    found = {**said.entities, **{k: v for k, v in entities.items() if v}}
    before = dict(agent.config or {})
    schedule = Setting(str(before.get("schedule") or ""))
    changes: dict[str, str] = {}
    if found.get("schedule") or found.get("frequency"):
        # In the zone the user names, else the one the agent runs in, else the tenant's.
        zone = said.zone or schedule.zone or tenant_zone(turn)
        changes["schedule"] = Schedule(found.get("schedule") or found["frequency"], zone).words()
    elif found.get("time") and schedule.clock is not None:
        # "Verschieb den Standup-Agenten auf 10:15": the same days, at the new time.
        changes["schedule"] = schedule.with_clock(found["time"])
    destination = said.destination(found.get("destination"))
    if destination:
        changes["destination"] = destination
    if found.get("source") and (
        not _SOURCE_WORDS.isdisjoint(said.words) or said.says("instead", "of")
    ):
        changes["source"] = found["source"]
    written = said.renamed_as_written(found["new_name"]) if found.get("new_name") else ""
    new_name = agents.agent_name(written) if written else None
    if new_name and written != new_name:
        # "rename sentry-digest to Crash Morning Brief": the name as written stays with it.
        changes["details"] = called(str(before.get("details") or ""), written)
    if not changes and not new_name:
        return Outcome(
            Reply(
                _(
                    "What should I change about %(name)s: its schedule, where it sends results, "
                    "its source, or its name?"
                )
                % {"name": agent.name},
                meta={"agents_referenced": [agent.name]},
                decision="update_agent_ask_what",
            ),
            state,
        )
    name = new_name or agent.name
    lines = change_lines(before, changes)
    if new_name:
        lines.insert(
            0,
            _("- Name: %(old)s \u2192 %(new)s")
            % {"old": agent.name, "new": with_title(new_name, written)},
        )
        state = state.replace(
            last_agent=new_name,
            last_agent_run=new_name if state.last_agent_run == agent.name else state.last_agent_run,
        )
    description = _described_anew(agent.description, before, changes)
    return Outcome(
        Reply(
            _("Updated %(name)s:") % {"name": name if new_name else shown_name(agent)}
            + "\n"
            + "\n".join(lines),
            meta={"agents_referenced": [name], "changes": changes},
            decision="agent_updated",
        ),
        state,
        (UpdateAgent(agent_id=agent.id, name=new_name, config=changes, description=description),),
    )


def _described_anew(
    description: str, before: Mapping[str, Any], changes: Mapping[str, str]
) -> str | None:
    """The description with each changed value written in place of the old one, so it never
    says the old channel or time; None when it does not quote any of them."""
    new = description
    for key, value in changes.items():
        old = str(before.get(key) or "")
        at = new.lower().find(old.lower()) if old else -1
        if at >= 0:
            new = new[:at] + value + new[at + len(old) :]
    return new if new != description else None
