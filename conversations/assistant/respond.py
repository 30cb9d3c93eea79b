"""The master agent: a function of (state, classified turn) to (reply, new state, effects).

Replies are templates (no model writes prose). It reads what it needs through selectors and
writes nothing: the chat turn applies the effects and stores the reply and the new state in
one transaction. The intent label routes; it never grants anything: whatever would change
platform settings checks the caller's role. The router is here; what counts as a detour from an
open flow is in ``detours``, and the action done once it is settled in ``actions``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from conversations.agents import selectors as agent_selectors
from conversations.assistant import agent_commands as commands
from conversations.assistant import agents
from conversations.assistant import deleting as several
from conversations.assistant.actions import act_on, picked_option
from conversations.assistant.clarify import clarify
from conversations.assistant.detours import (
    adds_to_proposal,
    detour_from_skill,
    detour_from_wizard,
    gives_details_for,
    keep_wizard_open,
)
from conversations.assistant.outcome import Outcome, Reply, Turn
from conversations.assistant.platform import greet, not_for_me, thank
from conversations.assistant.skills import open_session, skill_session_continue, skill_summary
from conversations.assistant.state import AssistantState, Created, Option, Wizard
from conversations.assistant.wizard import (
    amend_created,
    proposal_accepted,
    tenant_zone,
    undo_created,
    wizard_recap,
    wizard_step,
    wizard_summary,
)
from conversations.models import Tenant
from intents.reading.acts import Act
from intents.reading.reading import Reading
from intents.reading.referent import by_own_word
from intents.types import CLARIFY_BELOW, ActionType
from skill_sessions.services import LoadedSession
from skill_sessions.services import session_load as services_load

# What a pause or a resume of an agent may be read as (it resolves an agent, or is nothing).
_PAUSE_READINGS = frozenset(
    {
        ActionType.UPDATE_AGENT,
        ActionType.EXECUTE_TASK,
        ActionType.UNKNOWN,
        ActionType.MANAGE_PLATFORM,
    }
)
_WIZARD_CANCELLED = gettext_lazy("Okay, I've cancelled setting up that agent. Nothing was created.")
_NOTHING_OPEN = gettext_lazy(
    "There's nothing half-finished here. You can ask me to create an agent, run or change one of "
    "your agents, or show what you have."
)


def _takes_up(declined: Wizard, reading: Reading) -> bool:
    """Whether a message takes up the proposal turned down earlier: "after all", or a yes that
    names it (its tool, or "that idea")."""
    if reading.shows(Act.TAKES_UP):
        return True
    source = str(declined.gathered.get("source") or "")
    names_it = (source and source in reading.tools) or reading.shows(Act.THE_PROPOSAL)
    return bool(names_it) and reading.opens_with_yes


def assistant_respond(state: AssistantState, turn: Turn) -> Outcome:
    """Decide one turn. The new state remembers what the reply offered ("2" picks it)."""
    outcome = _route(turn, state, turn.reading)
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
    return Outcome(outcome.reply, remembered, outcome.effects, _flow_action(outcome.reply))


def _flow_action(reply: Reply) -> ActionType | None:
    """The action of the flow a reply goes on with: setting up an agent, building a skill."""
    decision = reply.decision
    if decision.startswith("wizard_") and decision != "wizard_cancelled":
        return ActionType.CREATE_AGENT
    if decision == "agent_created":
        return ActionType.CREATE_AGENT
    if decision.startswith("skill_") and decision != "skill_cancelled":
        return ActionType.CREATE_SKILL
    return None


def _route(turn: Turn, state: AssistantState, follow: Reading) -> Outcome:
    """The turn through the flows, in order: what the last reply left waiting (a deletion, a
    creation, an open skill or proposal, the options shown), then a detour or an answer in the
    open wizard, then the request on its own."""
    created = state.created
    # Only the very next message amends or undoes a creation, or confirms a deletion.
    waiting = _waiting(turn, state.replace(created=None, deleting=None), follow, state)
    if isinstance(waiting, Outcome):
        return waiting
    state = waiting
    answered = _what_was_asked(turn, state, follow)
    if answered is not None:
        return answered
    if state.wizard:
        return _in_the_wizard(turn, state, follow)
    return _request(turn, state, follow, created)


def _waiting(
    turn: Turn, state: AssistantState, follow: Reading, before: AssistantState
) -> Outcome | AssistantState:
    """The answer to what the last reply left waiting for one message (a deletion to confirm,
    a creation to undo, a skill session, a proposal, one turned down, the options shown); else
    the state that goes on, with what the message passed over let go."""
    deleted = _deletion(turn, state, follow, before.deleting)
    if deleted is not None:
        return deleted
    wizard = state.wizard
    if before.created and not wizard and (follow.cancel or follow.shows(Act.UNDO)):
        return undo_created(state.replace(created=before.created))
    session = open_session(turn, state) if state.skill_session else None
    if state.skill_session and session is None:
        state = state.replace(skill_session=None)  # finished, deleted or purged meanwhile
    if session is not None:
        return _in_a_skill_session(turn, state, session)
    if wizard and wizard.proposed:
        answered = _answer_to_proposal(turn, state, follow, wizard)
        if answered is not None:
            return answered
        # Turned down or passed over, it can still be taken up later ("let's do it after all").
        state = state.replace(wizard=None, declined=wizard)
    revived = _declined_taken_up(turn, state, follow)
    if revived is not None:
        return revived
    if state.wizard and follow.cancel:
        return Outcome(
            Reply(str(_WIZARD_CANCELLED), decision="wizard_cancelled"), state.replace(wizard=None)
        )
    if state.options:
        pick = follow.pick(len(state.options))
        if pick is None and follow.length <= 6:
            # "the support one": the option whose agent alone has that word.
            names = [option.agent or "" for option in state.options]
            pick = by_own_word(follow, names, shortest=3, generic=frozenset())
        if pick is not None:
            return picked_option(turn, state, state.options[pick])
    return state.replace(pending=None)


def _declined_taken_up(turn: Turn, state: AssistantState, follow: Reading) -> Outcome | None:
    """The proposal turned down earlier, taken up ("let's do that agent after all", a yes that
    names it) or brought back with details for it; None otherwise."""
    declined = state.declined
    if state.wizard or declined is None:
        return None
    if _takes_up(declined, follow):
        # "ok you know what, let's do that agent after all. 8:40 every weekday …"
        revived = dataclasses.replace(declined, proposed=True)
        rest = follow.after(Act.OPENS_WITH_YES, Act.TAKES_UP)
        return proposal_accepted(turn, state.replace(wizard=revived, declined=None), rest)
    if follow.shows(Act.RECONSIDERS) and gives_details_for(follow, declined):
        # The proposal turned down, back with details for it, still waiting for a yes.
        revived = dataclasses.replace(declined, proposed=True)
        details = follow.after(Act.RECONSIDERS)
        return wizard_step(
            turn, state.replace(wizard=revived, declined=None), details, proposal=True
        )
    return None


def _what_was_asked(turn: Turn, state: AssistantState, follow: Reading) -> Outcome | None:
    """ "Where were we?", "back to the setup", a greeting, thanks, an errand that is not ours,
    or a question about the agent being set up; None for anything else."""
    wizard = state.wizard
    if wizard and follow.shows(Act.BACK_TO_TASK) and not follow.recap:
        # Back from a detour: more details for the setup, or (with none) where it stands.
        rest = follow.after(Act.BACK_TO_TASK)
        if rest.gives_details:
            return wizard_step(turn, state, rest)
        return Outcome(wizard_recap(wizard, tenant_zone(turn)), state)
    if follow.recap:
        if wizard:
            return Outcome(wizard_recap(wizard, tenant_zone(turn)), state)
        return Outcome(Reply(str(_NOTHING_OPEN), decision="recap_nothing_open"), state)
    if follow.shows(Act.GREETING) and not wizard:
        return Outcome(greet(turn), state)
    if follow.shows(Act.THANKS) and not wizard:
        return Outcome(thank(turn), state)
    if _not_for_me(turn, follow):
        outcome = Outcome(not_for_me(turn), state)
        return keep_wizard_open(outcome, state, turn) if wizard else outcome
    named = turn.intent.entities.get("agent", "").lower()
    if wizard and follow.shows(Act.ASKS_ABOUT_SETUP) and (not named or not follow.mentions(named)):
        # "what does it watch?" while setting one up: the one being set up.
        return Outcome(wizard_recap(wizard, tenant_zone(turn), asked=True), state)
    return None


def _in_the_wizard(turn: Turn, state: AssistantState, follow: Reading) -> Outcome:
    """A message while an agent is being set up: its answer, or a detour with the setup kept."""
    detour = detour_from_wizard(turn, state)
    if detour is None:
        return wizard_step(turn, state, follow)
    outcome = act_on(turn, state, detour.action_type, dict(detour.entities), follow)
    return keep_wizard_open(outcome, state, turn)


def _request(
    turn: Turn, state: AssistantState, follow: Reading, created: Created | None
) -> Outcome:
    """The message as a request of its own: what it asks done to an agent, a chore to take
    on, or (when it says too little) the question which it is."""
    intent = turn.intent
    action = intent.action_type
    entities = dict(intent.entities)
    if created and (action != ActionType.CREATE_AGENT or not _asked_for(turn)):
        amended = amend_created(turn, state.replace(created=created), follow)
        if amended is not None and not _names_another_agent(turn, created.name):
            return amended
    if action == ActionType.UPDATE_AGENT and _chore_without_agents(turn, entities):
        # A change to an agent in a workspace that has none: it describes a chore to take on.
        return wizard_step(turn, state, follow, proposal=True)
    if action == ActionType.CREATE_AGENT and intent.confidence >= 0.45 and not _asked_for(turn):
        # A described chore, even one read with doubt: the proposal is itself the question.
        return wizard_step(turn, state, follow, proposal=True)
    if action == ActionType.CREATE_AGENT and _asked_for(turn):
        # "quero criar um agente": asked for in so many words; the wizard asks what it needs.
        return act_on(turn, state, action, entities, follow)
    done = _to_an_agent(turn, state, follow, entities)
    if done is not None:
        return done
    vague = (
        follow.shows(Act.VAGUE)
        and action != ActionType.UNKNOWN
        and not entities.get("frequency")  # "handle refunds every day" says what it wants
    )
    if intent.method != "fast_path" and (
        action == ActionType.UNKNOWN
        or intent.confidence < CLARIFY_BELOW
        or intent.is_ambiguous
        or vague  # "do something about the hubspot leads" names no action: ask which
    ):
        about = agents.about_known_agent(turn, state) or _same_for_listed(turn, state, follow)
        return about if about is not None else clarify(turn, state)
    return act_on(turn, state, action, entities, follow)


def _to_an_agent(
    turn: Turn, state: AssistantState, follow: Reading, entities: dict[str, str]
) -> Outcome | None:
    """A deletion, a pause or resume, or a change asked of an agent, however the words were
    classified; None when the message asks none of these."""
    action = turn.intent.action_type
    if (
        action in (ActionType.UPDATE_AGENT, ActionType.MANAGE_PLATFORM, ActionType.UNKNOWN)
        and commands.delete_wanted(follow)
        and not follow.question
    ):
        # "delete the last one", "get rid of the jira monitor": that agent, once confirmed.
        deleted = commands.delete_or_confirm(turn, state, entities, follow)
        if deleted is not None:
            return deleted
    if action in _PAUSE_READINGS and not follow.question:
        # "resume the third one again", "setz ihn wieder fort": pausing or resuming that agent,
        # whatever else the words could be read as (never a run).
        paused = commands.pause_or_resume(turn, state, entities, follow)
        if paused is not None:
            return paused
    if state.last_agent and _changes_it(follow):
        # "Could you please move it to 16:00?", "send its results to talent@… instead": a change
        # to the agent just talked about, however the words were classified.
        return commands.update(turn, state, {"agent": state.last_agent}, follow)
    return None


def _deletion(
    turn: Turn, state: AssistantState, follow: Reading, deleting: str | None
) -> Outcome | None:
    """A deletion asked for, or the answer to one that waits for a yes; None otherwise."""
    if state.deleting_several:
        # The agents named for deletion at once: a yes deletes them, anything else keeps them.
        return several.answer(turn, state, follow, _route)
    if deleting and (follow.yes or (follow.opens_with_yes and not follow.no)):
        agent = agents.agent_named(turn, deleting)
        if agent is not None:
            return commands.delete_confirmed(state, agent.id, agent.name)
    if deleting and (follow.no or follow.cancel):
        return Outcome(
            Reply(
                _("Okay, %(name)s stays as it is.") % {"name": deleting},
                decision="agent_delete_declined",
            ),
            state,
        )
    # "delete all my agents", whatever the label says (never a skill, never the menu).
    return several.requested(turn, state, follow)


def _in_a_skill_session(turn: Turn, state: AssistantState, session: LoadedSession) -> Outcome:
    """A message while a skill is being built: its answer, or a detour with the session kept."""
    detour = detour_from_skill(turn)
    if detour is None:
        return skill_session_continue(turn, state, session)
    outcome = act_on(turn, state, detour.action_type, dict(detour.entities), turn.reading)
    outcome.reply.content += _(
        "\n\n(Your skill %(name)s is still open: answer my last question when you're ready, "
        'or say "cancel" to drop it.)'
    ) % {"name": session.context.name or _("in progress")}
    return Outcome(
        outcome.reply,
        outcome.state.replace(skill_session=state.skill_session),
        outcome.effects,
    )


def _answer_to_proposal(
    turn: Turn, state: AssistantState, follow: Reading, wizard: Wizard
) -> Outcome | None:
    """A reply to the proposal (or the duplicate warning) just made: taken up, turned down,
    added to, or asked about; None when the message passes it over."""
    accepted = follow.yes or (follow.opens_with_yes and not follow.no)
    if wizard.duplicate_of and follow.shows(Act.INSISTS) and not follow.shows(Act.NO_NEED):
        accepted = True  # "create a second one anyway", whatever the label says
    elif wizard.duplicate_of and follow.run:
        # "ah right, I forgot about that one. just run it then": the one pointed out.
        return agents.execute(
            turn, state.replace(wizard=None), {"agent": wizard.duplicate_of}, follow
        )
    if follow.recap or follow.shows(Act.BACK_TO_TASK):
        # "Where were we?" with a proposal (or a duplicate warning) open: that, again.
        return Outcome(wizard_recap(wizard, tenant_zone(turn)), state)
    if accepted:
        # The yes, the go-ahead and an "anyway" are instructions, not details of the agent.
        return proposal_accepted(turn, state, follow.after(Act.OPENS_WITH_YES, Act.INSISTS))
    if not (follow.no or follow.cancel) and adds_to_proposal(turn, state, wizard):
        # More about what was proposed, which still waits for a yes.
        return wizard_step(turn, state, follow, proposal=True)
    if follow.no or follow.cancel:
        declined = state.replace(wizard=None, declined=wizard)
        return Outcome(
            Reply(
                _("Okay, I won't set that up. Nothing was created."), decision="proposal_declined"
            ),
            declined,
        )
    return None


def _same_for_listed(turn: Turn, state: AssistantState, follow: Reading) -> Outcome | None:
    """ "now do the third one too" after a run from the list shown: run that one as well."""
    if not (state.listed_agents and state.last_agent_run):
        return None
    pick = follow.pick(len(state.listed_agents))
    if pick is None or not follow.shows(Act.AGAIN):
        return None
    name = state.listed_agents[pick]
    return agents.execute(turn, state, {"agent": name}, follow)


def _chore_without_agents(turn: Turn, entities: Mapping[str, str]) -> bool:
    described = bool(entities.get("source") or entities.get("frequency"))
    return described and not agent_selectors.agents_first(tenant=turn.tenant, limit=1)


def _asked_for(turn: Turn) -> bool:
    return turn.reading.shows(Act.ASKS_FOR_AGENT)


def _names_another_agent(turn: Turn, name: str) -> bool:
    mentioned = turn.intent.entities.get("agent")
    return bool(mentioned) and mentioned != name


def _changes_it(follow: Reading) -> bool:
    """A change asked of "it" with a new time or destination in the same breath."""
    if not follow.shows(Act.CHANGES_IT) or follow.shows(Act.OPENS_WITH_QUESTION):
        return False  # "why did you move it to 9?" asks, "could you move it to 16:00?" asks for
    found = follow.details({"source": "set"})
    return bool(found.keys() & {"destination", "frequency"}) or bool(follow.clock)


def _not_for_me(turn: Turn, follow: Reading) -> bool:
    """A confident "nothing to do with agents": small talk or an errand, not a decline, an
    acknowledgement or a question about the workspace."""
    intent = turn.intent
    if intent.action_type != ActionType.UNKNOWN or intent.confidence < 0.85:
        return False
    if follow.no or follow.cancel or follow.yes or follow.acknowledgement:
        return False
    return follow.off_topic or follow.shows(Act.SMALL_TALK)


def state_summary(state: AssistantState, tenant: Tenant | None = None) -> dict[str, Any] | None:
    """What a returning user needs to pick up where they were; None when nothing is open.

    The open wizard or skill session in short form (what is gathered, the open question) and
    the numbered options last offered, as a page shows them without another request. The skill
    session is read only when ``tenant`` is given.
    """
    skill = None
    if state.skill_session and tenant is not None:
        loaded = services_load(tenant=tenant, session_id=state.skill_session)
        if loaded is not None and loaded.row.status == "active":
            skill = skill_summary(loaded)
    if state.wizard is None and not state.options and skill is None:
        return None
    return {
        "wizard": wizard_summary(state.wizard) if state.wizard else None,
        "skill_session": skill,
        "options": [{"n": option.n, "label": option.label} for option in state.options],
    }
