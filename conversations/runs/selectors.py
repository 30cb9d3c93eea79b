"""Reads of agent runs: pages newest first, one run, an agent's last."""

from __future__ import annotations

from django.contrib.auth.models import User

from conversations.api.pagination import Page, newest_first
from conversations.models import Agent, AgentRun, Membership, Tenant


def run_list(
    *, tenant: Tenant, agent: Agent | None = None, limit: int = 50, cursor: str | None = None
) -> Page[AgentRun]:
    """The tenant's runs (or one agent's), newest first."""
    runs = AgentRun.objects.for_tenant(tenant).select_related("agent")
    if agent is not None:
        runs = runs.filter(agent=agent)
    return newest_first(runs, field="requested_at", limit=limit, cursor=cursor)


def run_get(*, tenant: Tenant, run_id: str) -> AgentRun:
    return AgentRun.objects.for_tenant(tenant).select_related("agent").get(id=str(run_id))


def run_latest(
    *, tenant: Tenant, user: User, conversation_id: str, agent: Agent | None = None
) -> AgentRun | None:
    """The run a question about "it" means: the agent's last run; else the last run asked for
    in this conversation; in the user's "Agent runs" conversation, their agents' last
    scheduled run."""
    runs = AgentRun.objects.for_tenant(tenant).select_related("agent").order_by("-requested_at")
    if agent is not None:
        return runs.filter(agent=agent).first()
    asked_here = runs.filter(conversation_id=conversation_id).first() if conversation_id else None
    if asked_here is not None or not conversation_id:
        return asked_here
    mine = Membership.objects.for_tenant(tenant).filter(user=user).first()
    if mine is None or mine.runs_conversation_id != conversation_id:
        return None
    scheduled = runs.filter(trigger=AgentRun.Trigger.SCHEDULE, agent__created_by=user)
    return scheduled.exclude(status=AgentRun.Status.CANCELLED).first()
