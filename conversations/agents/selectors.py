"""Reads of the tenant's agent registry: by id, by name as people write it, pages, refs."""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from django.utils.text import slugify

from conversations.api.pagination import Page, by_name
from conversations.models import Agent, AgentRun, Tenant
from intents.types import AgentRef

NAME_MAX = 80
# How many of the tenant's agents the classifiers see (the prompt bounds tokens as well).
AGENTS_IN_CONTEXT = 50


def agent_name(value: str) -> str:
    """The canonical form of an agent name: a lowercase slug ("Jira Monitor" -> jira-monitor)."""
    return slugify(value)[:NAME_MAX].strip("-")


def agent_unique_name(*, tenant: Tenant, base: str) -> str:
    """``base``, or ``base-2``, ``base-3``… whichever the tenant does not use yet."""
    base = agent_name(base) or "agent"
    taken = set(
        Agent.objects.for_tenant(tenant)
        .filter(name__startswith=base)
        .values_list("name", flat=True)
    )
    if base not in taken:
        return base
    n = 2
    while f"{base}-{n}" in taken:
        n += 1
    return f"{base}-{n}"


def agent_list(*, tenant: Tenant, limit: int = 50, cursor: str | None = None) -> Page[Agent]:
    """One page of the tenant's agents by name (unique per tenant, so a stable position)."""
    return by_name(Agent.objects.for_tenant(tenant), limit=limit, cursor=cursor)


def agent_get(*, tenant: Tenant, agent_id: str) -> Agent:
    return Agent.objects.for_tenant(tenant).get(id=str(agent_id))


def agent_get_or_none(*, tenant: Tenant, agent_id: str) -> Agent | None:
    return Agent.objects.for_tenant(tenant).filter(id=str(agent_id)).first()


def agent_find(*, tenant: Tenant, reference: str) -> Agent | None:
    """The agent a user named, however written ("Notion Reporter", "@notion_reporter")."""
    runs = itertools.groupby(reference.strip().lstrip("@"), lambda ch: ch == "_" or ch.isspace())
    slug = agent_name("".join("-" if gap else "".join(run) for gap, run in runs))
    if not slug:
        return None
    # One query; a name the admin stored with capitals ("Lieferanten-Check") is still that
    # agent, and the exact slug wins when both exist.
    found = list(Agent.objects.for_tenant(tenant).filter(name__iexact=slug)[:2])
    return next((a for a in found if a.name == slug), found[0] if found else None)


def agents_named(*, tenant: Tenant, names: Sequence[str]) -> list[Agent]:
    """The tenant's agents of those names, in one query and in the order given."""
    found = {a.name: a for a in Agent.objects.for_tenant(tenant).filter(name__in=names)}
    return [found[name] for name in names if name in found]


def agents_first(*, tenant: Tenant, limit: int) -> list[Agent]:
    """The tenant's first agents by name, for a numbered list."""
    return list(Agent.objects.for_tenant(tenant).order_by("name")[:limit])


def agents_paused(*, tenant: Tenant, limit: int) -> list[Agent]:
    """The tenant's paused agents by name."""
    return list(
        Agent.objects.for_tenant(tenant).filter(paused_at__isnull=False).order_by("name")[:limit]
    )


def agents_count(*, tenant: Tenant) -> int:
    return Agent.objects.for_tenant(tenant).count()


def agents_for_matching(*, tenant: Tenant) -> list[Agent]:
    """Names and descriptions to match a request's words against (bounded)."""
    return list(Agent.objects.for_tenant(tenant).only("id", "name", "description")[:200])


def agent_last_run(*, agent: Agent) -> AgentRun | None:
    return agent.runs.order_by("-requested_at").first()


def agent_refs(tenant: Tenant, *, mentioned: Sequence[str] = ()) -> list[AgentRef]:
    """The tenant's most recently updated agents, plus any agent the message mentions by name."""
    agents = Agent.objects.for_tenant(tenant)
    rows = list(
        agents.order_by("-updated_at").values_list("name", "description")[:AGENTS_IN_CONTEXT]
    )
    seen = {name for name, _ in rows}
    wanted = [name.lower() for name in mentioned if name.lower() not in seen]
    if wanted:
        rows += list(agents.filter(name__in=wanted).values_list("name", "description"))
    return [AgentRef(name=name, description=description) for name, description in rows]
