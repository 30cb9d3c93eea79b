"""Replies about the tenant's agents: which one is meant, list, details, run (deleting, pausing
and changing one are in ``agent_commands``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from conversations.agents import selectors as agents
from conversations.assistant.agent_replies import (
    listed_line,
    lowered,
    minute,
    run_said,
    running_said,
    shown_name,
    which_templates,
)
from conversations.assistant.effects import RunAgent
from conversations.assistant.outcome import Outcome, Reply, Turn
from conversations.assistant.state import AssistantState, PendingRequest
from conversations.assistant.text import LABELS, display, numbered
from conversations.models import Agent, new_id
from conversations.runs.runtime import runtime_connected
from conversations.runs.selectors import run_latest
from intents.reading.acts import Act
from intents.reading.reading import Reading
from intents.reading.referent import InView, referent
from intents.reading.said import stems_of
from intents.reading.topics import Topic
from intents.types import ActionType

MAX_LISTED = 20
_LIST_WORDS = frozenset({"list", "all"})
_WHICH_WORDS = frozenset({"which", "what", "whats", "cual", "quel", "welche"})


def resolve_agent(
    turn: Turn,
    state: AssistantState,
    entities: Mapping[str, str],
    said: Reading,
    *,
    guess: bool = False,
) -> Agent | None:
    """The agent a message means: the one the classifier named, else the reading's referent
    (by name, list position, a word of its own, "again", "the other one", "it")."""
    tenant = turn.tenant
    reference = entities.get("agent")
    if reference:
        agent = agents.agent_find(tenant=tenant, reference=reference)
        if agent is not None:
            return agent
    candidates = agents.agents_for_matching(tenant=tenant)
    in_view = InView(
        agents=[a.name for a in candidates],
        listed=state.listed_agents,
        last_agent=state.last_agent,
        last_run=state.last_agent_run,
    )
    meant = referent(said, in_view)
    if meant is not None:
        return agents.agent_find(tenant=tenant, reference=meant)
    if guess and entities.get("source"):
        matches = [a for a in candidates if entities["source"].replace("_", "-") in a.name]
        if len(matches) == 1:
            return matches[0]
    return None


def which_agent(turn: Turn, state: AssistantState, action: ActionType) -> Outcome:
    listed = agents.agents_first(tenant=turn.tenant, limit=5)
    if not listed:
        return Outcome(
            Reply(
                _(
                    "You don't have any agents yet. Tell me what one should do, for example "
                    '"create an agent that posts a daily Jira summary to #team".'
                ),
                decision=action.value + "_no_agents",
            ),
            state,
        )
    question, label = which_templates(action)
    options = [
        {"n": n, "action_type": action.value, "label": label % {"name": a.name}, "agent": a.name}
        for n, a in enumerate(listed, start=1)
    ]
    content = question + "\n" + numbered([str(o["label"]) for o in options])
    return Outcome(
        Reply(
            content,
            meta={"options": options, "listed_agents": [a.name for a in listed]},
            decision=action.value + "_which_agent",
        ),
        # "move the weekly digest to fridays" → "the finance one": the change asked for first.
        state.replace(pending=PendingRequest(turn.message[:2000], {})),
    )


def query(turn: Turn, state: AssistantState, entities: Mapping[str, str], said: Reading) -> Outcome:
    if Topic.WHAT_YOU_DO in said.topics:
        return Outcome(
            Reply(
                _("Here's what I can do:")
                + "\n"
                + numbered(
                    [
                        _(
                            'Create an agent from a description ("watch Jira for overdue tickets '
                            'and alert #platform every morning")'
                        ),
                        _('Run one of your agents ("run notion-reporter", "run the first one")'),
                        _('Change an agent ("make it weekly instead")'),
                        _('Show your agents and their last runs ("list my agents")'),
                    ]
                ),
                decision="help",
            ),
            state,
        )
    reading = said
    if reading.shows(Act.ASKS_WHICH_PAUSED) and not entities.get("agent"):
        return _paused_list(turn, state)
    wants_list = not _LIST_WORDS.isdisjoint(reading.words) or reading.says("my", "agents")
    how_many = reading.shows(Act.ASKS_HOW_MANY_AGENTS)
    agent = None if how_many else resolve_agent(turn, state, entities, said)
    went = how_it_went(turn, state, agent) if reading.shows(Act.ASKS_HOW_IT_WENT) else None
    if went is not None:
        return went
    if agent is not None and (entities.get("agent") or not wants_list):
        return _details(state, agent, said)
    listed = agents.agents_first(tenant=turn.tenant, limit=MAX_LISTED + 1)
    if not listed:
        return Outcome(
            Reply(
                _("You don't have any agents yet. Describe what one should do and I'll set it up."),
                meta={"listed_agents": []},
                decision="list_agents_empty",
            ),
            state,
        )
    shown = listed[:MAX_LISTED]
    lines = [listed_line(a) for a in shown]
    more = "\n" + _("(and more: ask for one by name)") if len(listed) > MAX_LISTED else ""
    count = ""
    if how_many:
        total = agents.agents_count(tenant=turn.tenant)
        count = (
            ngettext("You have %(count)d agent.", "You have %(count)d agents.", total)
            % {"count": total}
            + "\n"
        )
    return Outcome(
        Reply(
            count + _("Here are your agents:") + "\n" + numbered(lines) + more,
            meta={"listed_agents": [a.name for a in shown]},
            decision="list_agents",
        ),
        # One agent listed is the one "it" means next ("what time does it run?").
        state.replace(last_agent=shown[0].name) if len(shown) == 1 else state,
    )


def _paused_list(turn: Turn, state: AssistantState) -> Outcome:
    paused = agents.agents_paused(tenant=turn.tenant, limit=MAX_LISTED)
    if not paused:
        return Outcome(
            Reply(_("None of your agents is paused: they all run on their schedules."),
                  meta={"listed_agents": []}, decision="list_paused_agents"),
            state,
        )  # fmt: skip
    lines = [
        _("%(name)s, paused since %(time)s UTC") % {"name": a.name, "time": minute(a.paused_at)}
        for a in paused
        if a.paused_at
    ]
    return Outcome(
        Reply(
            _("These agents are paused right now:") + "\n" + numbered(lines) + "\n"
            + _('Say "resume" and the name or number to turn one back on.'),
            meta={"listed_agents": [a.name for a in paused]},
            decision="list_paused_agents",
        ),
        state,
    )  # fmt: skip


def _answer(agent: Agent, said: Reading | None) -> str | None:
    """The sentence that answers when the agent runs or where it sends, if the message asks."""
    if said is None:
        return None
    config = agent.config or {}
    if said.shows(Act.ASKS_WHEN_IT_RUNS):
        schedule = str(config.get("schedule") or "")
        values = {"name": agent.name, "schedule": lowered(schedule)}
        if schedule and agent.next_run_at:
            values["next"] = minute(agent.next_run_at)
            return _("%(name)s runs %(schedule)s; next at %(next)s UTC.") % values
        if schedule:
            return _("%(name)s runs %(schedule)s.") % values
        return _("%(name)s has no schedule: it runs when you ask.") % {"name": agent.name}
    if said.shows(Act.ASKS_WHERE_IT_SENDS):
        destination = str(config.get("destination") or "")
        if destination:
            return _("%(name)s sends what it finds to %(destination)s.") % {
                "name": agent.name,
                "destination": display(destination),
            }
        return _("%(name)s has no destination set: it shows its results here.") % {
            "name": agent.name
        }
    return None


def how_it_went(turn: Turn, state: AssistantState, agent: Agent | None = None) -> Outcome | None:
    """ "Did it work?", "why did it fail?": the run "it" means, from its record (None: there is
    no such run to talk about)."""
    named = agent or (
        agents.agent_find(tenant=turn.tenant, reference=state.last_agent_run)
        if state.last_agent_run
        else None
    )
    run = run_latest(
        tenant=turn.tenant, user=turn.user, conversation_id=turn.conversation_id, agent=named
    )
    if run is None:
        return None
    name = run.agent.name
    meta = {"agents_referenced": [name], "run_id": run.id}
    reply = Reply(run_said(run), meta=meta, decision="run_outcome")
    return Outcome(reply, state.replace(last_agent=name, last_agent_run=name))


def _details(state: AssistantState, agent: Agent, said: Reading | None = None) -> Outcome:
    last = agents.agent_last_run(agent=agent)
    name = shown_name(agent)
    lines = [
        _("%(name)s: %(description)s") % {"name": name, "description": agent.description}
        if agent.description
        else name
    ]
    answer = _answer(agent, said)
    if answer is not None:
        lines.insert(0, answer)
    lines += [
        _("- %(label)s: %(value)s")
        % {"label": LABELS.get(key, key.title()), "value": display(str(value))}
        for key, value in (agent.config or {}).items()
        if value
    ]
    if agent.paused and agent.paused_at is not None:
        lines.append(_("- Status: paused since %(time)s UTC") % {"time": minute(agent.paused_at)})
    lines.append(
        _("- Last run: %(status)s, requested %(time)s UTC")
        % {"status": last.status, "time": minute(last.requested_at)}
        if last
        else _("- Last run: never")
    )
    return Outcome(
        Reply("\n".join(lines), meta={"agents_referenced": [agent.name]}, decision="agent_details"),
        state.replace(last_agent=agent.name),
    )


# Words every agent's name or description may share; they single none out.
_GENERIC_STEMS = frozenset(
    {"agent", "which", "those", "these", "there", "does", "that", "this", "what", "with", "from",
     "have", "them", "they", "runs", "daily", "weekl", "month", "repor", "summa", "alert"}
)  # fmt: skip


def about_known_agent(turn: Turn, state: AssistantState) -> Outcome | None:
    """A question about the agent just talked about, or about one of the agents just listed
    ("which time zone is that in?", "which one of those handles the finance stuff?"),
    answered from its stored configuration; None when the message is not such a question."""
    said = turn.reading
    went = how_it_went(turn, state) if said.shows(Act.ASKS_HOW_IT_WENT) else None
    if went is not None or not said.ends_asking:
        return went
    if state.listed_agents and not _WHICH_WORDS.isdisjoint(said.words):
        listed = agents.agents_named(tenant=turn.tenant, names=state.listed_agents)
        stems = said.stems - _GENERIC_STEMS
        hits = [a for a in listed if stems & stems_of(a.name + " " + a.description)]
        if len(hits) == 1:
            return _details(state, hits[0], said)
    if state.last_agent and (
        said.shows(Act.ASKS_WHEN_IT_RUNS, Act.ASKS_WHERE_IT_SENDS)
        or said.says("what", "does", "it")
    ):
        agent = agents.agent_find(tenant=turn.tenant, reference=state.last_agent)
        if agent is not None:
            return _details(state, agent, said)
    return None


def execute(
    turn: Turn, state: AssistantState, entities: Mapping[str, str], said: Reading
) -> Outcome:
    agent = resolve_agent(turn, state, entities, said)
    if agent is None:
        # "run it" needs a name; a described task gets choices that say what would happen.
        if said.length >= 8 and turn.is_own(said):
            return task_options(turn, state)
        return which_agent(turn, state, ActionType.EXECUTE_TASK)
    run = RunAgent(run_id=new_id(), agent_id=agent.id)
    running = running_said(agent, run.run_id, runtime=runtime_connected(tenant_id=turn.tenant.pk))
    if agent.paused:
        # A paused agent still runs when asked; its schedule stays off.
        running += " " + _("It stays paused: it won't run on its schedule until you resume it.")
    return Outcome(
        Reply(
            running,
            meta={"agent_run": agent.name, "agents_referenced": [agent.name], "run_id": run.run_id},
            decision="agent_run_queued",
        ),
        state.replace(last_agent_run=agent.name, last_agent=agent.name),
        (run,),
    )


def _closest_agent(turn: Turn) -> Agent | None:
    """The agent whose name and description share the most word stems with the request."""
    stems = turn.reading.ascii_stems - {"agent", "about", "their"}
    best, best_score = None, 0
    for agent in agents.agents_for_matching(tenant=turn.tenant):
        score = len(stems & stems_of(agent.name + " " + agent.description, ascii_only=True))
        if score > best_score:
            best, best_score = agent, score
    return best


def task_options(turn: Turn, state: AssistantState) -> Outcome:
    """A described task no agent clearly does: say what each choice would do (journey 5)."""
    closest = _closest_agent(turn)
    options: list[dict[str, Any]] = []
    if closest is not None:
        label = (
            _("Run %(name)s anyway (%(description)s; it may partially help)")
            if closest.description
            else _("Run %(name)s anyway (it may partially help)")
        )
        options.append(
            {
                "action_type": ActionType.EXECUTE_TASK.value,
                # As written: a description says what it does in its own words and case.
                "label": label % {"name": closest.name, "description": closest.description},
                "agent": closest.name,
            }
        )
    options += [
        {
            "action_type": ActionType.CREATE_AGENT.value,
            "label": _("Create a new agent specifically for this"),
        },
        {
            "action_type": ActionType.QUERY_INFO.value,
            "label": _("Show your agents so you can pick one"),
        },
        {"action_type": ActionType.UNKNOWN.value, "label": _("Something else: tell me more")},
    ]
    for n, option in enumerate(options, start=1):
        option["n"] = n
    lead = (
        _("I found your %(name)s agent, but I'm not sure it does this.") % {"name": closest.name}
        if closest is not None
        else _("None of your agents clearly does this.")
    )
    content = (
        lead
        + " "
        + _("Would you like me to:")
        + "\n"
        + numbered([str(o["label"]) for o in options])
    )
    return Outcome(
        Reply(content, meta={"options": options}, decision="execute_task_options"),
        state.replace(pending=PendingRequest(turn.message[:2000], dict(turn.intent.entities))),
    )


def agent_named(turn: Turn, name: str) -> Agent | None:
    return agents.agent_find(tenant=turn.tenant, reference=name)
