"""Deleting several agents at once ("delete all my agents", "delete a-one and b-two").

A request to delete all of them (or several named) is never a skill to build nor a menu of
guesses, whatever the intent label says: the reply names every agent that would go and waits
for an explicit yes in the very next message. The yes deletes exactly the agents named then
(one ``DeleteAgent`` each, applied by the chat turn); a no, or anything else, keeps them all
and says so. Who may delete is the chat's rule for deleting one agent, unchanged: the label
grants nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from conversations.agents import selectors as agents
from conversations.assistant.agent_commands import delete_wanted, may_delete
from conversations.assistant.effects import DeleteAgent
from conversations.assistant.outcome import Outcome, Reply, Turn
from conversations.assistant.state import AssistantState
from conversations.assistant.text import as_written, numbered
from conversations.models import Agent
from intents.offline.lexicon import words
from intents.reading.acts import Act
from intents.reading.reading import Reading

NAMED_AT_MOST = 20  # agents a reply lists one by one; the rest are counted
AT_ONCE = 200  # agents one confirmation may delete
# "all my agents except notion-reporter", "todos menos …", "tous sauf …", "alle außer …"
_EXCEPT = words("except besides apart other excepto menos salvo sauf hormis ausser exceto tranne")
_BUT = words("but")  # "all but notion-reporter", and also "all of them, but ask me first"

Route = Callable[[Turn, AssistantState, Reading], Outcome]


def requested(turn: Turn, state: AssistantState, follow: Reading) -> Outcome | None:
    """ "delete all my agents", "supprime tous mes agents", "delete a-one and b-two": the
    agents named and the question whether to delete them; None when the message asks no such
    thing ("how do I delete all my agents?" asks about it)."""
    if follow.shows(Act.ASKS_HOW, Act.OPENS_WITH_QUESTION):
        return None
    if follow.shows(Act.DELETES_ALL):
        return _all_but(turn, state, follow)
    if "V_DELETE" not in follow.concepts or follow.question:
        return None
    if not delete_wanted(follow):  # "remove #random from the digest" deletes nothing
        return None
    named = named_in(follow, agents.agents_for_matching(tenant=turn.tenant))
    if len(named) < 2:
        return None  # one agent: the one-agent flow
    chosen = agents.agents_named(tenant=turn.tenant, names=[a.name for a in named])
    theirs = [a for a in chosen if may_delete(turn, a)]
    if len(theirs) < len(chosen):
        return _only_theirs(state, theirs, len(chosen) - len(theirs))
    question = ngettext(
        "Delete these %(count)d agents?", "Delete these %(count)d agents?", len(chosen)
    ) % {"count": len(chosen)}
    return confirm(state, chosen, question)


def _only_theirs(state: AssistantState, theirs: Sequence[Agent], others: int) -> Outcome:
    """A member asked to delete agents others made: the API's rule (the creator or a tenant
    admin) holds in the chat; the member's own agents can still go."""
    note = ngettext(
        "%(count)d of them was made by someone else: only its creator or a tenant admin can "
        "delete it.",
        "%(count)d of them were made by someone else: only their creators or a tenant admin "
        "can delete them.",
        others,
    ) % {"count": others}
    if not theirs:
        return _said(_("%(note)s Nothing was deleted.") % {"note": note}, state)
    outcome = confirm(
        state,
        theirs,
        _("Delete the agents you made?") if len(theirs) > 1 else _("Delete the agent you made?"),
    )
    outcome.reply.content = note + "\n\n" + outcome.reply.content
    return outcome


def _all_but(turn: Turn, state: AssistantState, follow: Reading) -> Outcome:
    """All the tenant's agents, but those the message keeps ("except notion-reporter")."""
    everyone = agents.agents_first(tenant=turn.tenant, limit=AT_ONCE)
    if not everyone:
        return _said(_("You don't have any agents, so there's nothing to delete."), state)
    theirs = [a for a in everyone if may_delete(turn, a)]
    if len(theirs) < len(everyone):
        return _only_theirs(state, theirs, len(everyone) - len(theirs))
    total = agents.agents_count(tenant=turn.tenant) if len(everyone) == AT_ONCE else len(everyone)
    kept = named_in(follow, everyone) if not (_EXCEPT | _BUT).isdisjoint(follow.words) else []
    if not kept and _EXCEPT.isdisjoint(follow.words):
        return confirm(state, everyone, _every_one(len(everyone), total))
    if not kept:
        return _said(
            _(
                "Which of your agents should I keep? Name them, for example \u201cdelete all my "
                "agents except %(name)s\u201d. Nothing was deleted."
            )
            % {"name": everyone[0].name},
            state,
        )
    chosen = [a for a in everyone if a not in kept]
    if not chosen:
        return _said(_("That keeps every one of your agents, so there's nothing to delete."), state)
    question = ngettext(
        "Delete %(count)d of your %(total)d agents (all but %(kept)s)?",
        "Delete %(count)d of your %(total)d agents (all but %(kept)s)?",
        total,
    ) % {"count": len(chosen), "total": total, "kept": ", ".join(a.name for a in kept)}
    return confirm(state, chosen, question)


def _every_one(listed: int, total: int) -> str:
    """The question for all the agents, or the first ``listed`` of them by name."""
    if total == 1:
        return _("Delete your only agent?")
    if listed < total:
        return ngettext(
            "Delete %(count)d of your %(total)d agents (the first %(count)d by name)?",
            "Delete %(count)d of your %(total)d agents (the first %(count)d by name)?",
            total,
        ) % {"count": listed, "total": total}
    if total == 2:
        return _("Delete both of your agents?")
    return ngettext(
        "Delete all %(count)d of your agents?", "Delete all %(count)d of your agents?", total
    ) % {"count": total}


def _said(content: str, state: AssistantState) -> Outcome:
    return Outcome(Reply(content, decision="agents_delete_nothing"), state)


def named_in(reading: Reading, candidates: Sequence[Agent]) -> list[Agent]:
    """The candidates the message names outright (whole, or their words in a row), in their
    order; a name met only inside a longer one named ("jira-watch" in "jira-watch-2") is not
    named."""
    spans = {agent.name: reading.spans_of(agent.name) for agent in candidates}
    every = [(name, span) for name, found in spans.items() for span in found]

    def on_its_own(name: str, span: tuple[int, int]) -> bool:
        return not any(
            other != name and at[0] <= span[0] and span[1] <= at[1] and at != span
            for other, at in every
        )

    return [a for a in candidates if any(on_its_own(a.name, span) for span in spans[a.name])]


def _listed(lines: Sequence[str], count: int) -> list[str]:
    """The first agents' lines, numbered, and how many more there are."""
    listed = [numbered(lines[:NAMED_AT_MOST])]
    if count > NAMED_AT_MOST:
        more = count - NAMED_AT_MOST
        listed.append(
            ngettext("...and %(count)d more.", "...and %(count)d more.", more) % {"count": more}
        )
    return listed


def confirm(state: AssistantState, chosen: Sequence[Agent], question: str) -> Outcome:
    """The agents ``chosen``, named, after ``question`` ("Delete both of your agents?");
    nothing deleted yet."""
    count = len(chosen)
    lines = [
        _("%(name)s - %(description)s")
        % {"name": as_written(a.name, a.config), "description": a.description}
        if a.description
        else as_written(a.name, a.config)
        for a in chosen[:NAMED_AT_MOST]
    ]
    warning = ngettext(
        "Once deleted, it stops for good and can't be brought back; past runs stay in the "
        'history. Say "yes" to delete it, or "no" to keep it.',
        "Once deleted, they stop for good and can't be brought back; past runs stay in the "
        'history. Say "yes" to delete them, or "no" to keep them.',
        count,
    )
    head = _("%(question)s This would delete:") % {"question": question}
    content = "\n".join([head, *_listed(lines, count), warning])
    names = [a.name for a in chosen]
    return Outcome(
        Reply(
            content,
            meta={
                "agents_referenced": names[:NAMED_AT_MOST],
                "offer": {"action_type": "update_agent"},
            },
            decision="agents_delete_confirm",
        ),
        state.replace(deleting=None, deleting_several=tuple((a.id, a.name) for a in chosen)),
    )


def answer(turn: Turn, state: AssistantState, follow: Reading, route: Route) -> Outcome:
    """The message after the confirmation: a yes deletes the agents it named; a no keeps
    them; anything else keeps them too, and is answered as itself (``route``)."""
    several = state.deleting_several
    state = state.replace(deleting_several=())
    if _explicit_yes(follow, [name for _, name in several]):
        return _deleted(turn, state, several)
    if len(several) == 1:
        kept = _("Okay, I haven't deleted anything: %(name)s stays as it is.") % {
            "name": several[0][1]
        }
    else:
        kept = _("Okay, I haven't deleted anything: your agents stay as they are.")
    if follow.no or follow.cancel or not follow.gives_details:
        return Outcome(Reply(kept, decision="agents_delete_declined"), state)
    outcome = route(turn, state, follow)
    if not outcome.state.deleting_several:  # asked again: the new question says it all
        outcome.reply.content = "(" + kept + ")\n\n" + outcome.reply.content
    return outcome


def _explicit_yes(follow: Reading, names: Sequence[str]) -> bool:
    """A yes said in so many words ("yes", "sí", "yes, delete them"); "please" alone, a yes
    that keeps one of them ("yes but not jira-watch"), or a no, is none."""
    if follow.no or follow.cancel or any(follow.mentions(name) for name in names):
        return False
    if follow.yes and "YES" in follow.concepts:
        return True
    return follow.opens_with_yes and "V_DELETE" in follow.concepts


def _deleted(turn: Turn, state: AssistantState, several: Sequence[tuple[str, str]]) -> Outcome:
    """One ``DeleteAgent`` for each agent the confirmation named that is still there as it was
    named (one renamed or deleted meanwhile is left alone)."""
    ids = {agent_id for agent_id, _ in several}
    found = agents.agents_named(tenant=turn.tenant, names=[name for _, name in several])
    gone = [a for a in found if a.id in ids]
    names = [a.name for a in gone]
    if not gone:
        return _said(_("Those agents were already gone: nothing was deleted."), state)
    count, missing = len(gone), len(several) - len(gone)
    deleted = ngettext("Deleted %(count)d agent:", "Deleted %(count)d agents:", count)
    lines = [deleted % {"count": count}]
    lines += _listed(names, count)
    if missing:
        lines.append(
            ngettext(
                "%(count)d of them had been renamed or deleted meanwhile: I left those alone.",
                "%(count)d of them had been renamed or deleted meanwhile: I left those alone.",
                missing,
            )
            % {"count": missing}
        )
    lines.append(
        ngettext(
            "Its past runs stay in the history.", "Their past runs stay in the history.", count
        )
    )
    return Outcome(
        Reply(
            "\n".join(lines),
            meta={
                "agents_referenced": names[:NAMED_AT_MOST],
                "deleted_agents": names,
                "listed_agents": [],
            },
            decision="agents_deleted",
        ),
        state.replace(
            last_agent=None if state.last_agent in names else state.last_agent,
            last_agent_run=None if state.last_agent_run in names else state.last_agent_run,
        ),
        tuple(DeleteAgent(agent_id=a.id) for a in gone),
    )
