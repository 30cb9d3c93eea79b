"""The tenant's agent registry: create, change, find and run agents."""

from __future__ import annotations

import re
from typing import Any

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.text import slugify

from conversations.models import Agent, AgentRun, Tenant

CONFIG_KEYS = ("source", "trigger", "action", "schedule", "destination", "details")
NAME_MAX = 80


def agent_name(value: str) -> str:
    """The canonical form of an agent name: a lowercase slug ("Jira Monitor" -> jira-monitor)."""
    return slugify(value)[:NAME_MAX].strip("-")


def clean_config(config: dict[str, Any]) -> dict[str, str]:
    unknown = sorted(set(config) - set(CONFIG_KEYS))
    if unknown:
        raise ValidationError({"config": [f"Unknown keys: {', '.join(unknown)}."]})
    cleaned = {}
    for key, value in config.items():
        if not isinstance(value, str):
            raise ValidationError({"config": [f"{key} must be a string."]})
        cleaned[key] = str(value).strip()[:200]
    return cleaned


def agent_create(
    *,
    tenant: Tenant,
    name: str,
    description: str = "",
    config: dict[str, Any] | None = None,
    created_by: User | None = None,
) -> Agent:
    slug = agent_name(name)
    if not slug:
        raise ValidationError({"name": ["Use letters, digits or dashes."]})
    try:
        with transaction.atomic():
            return Agent.objects.create(
                tenant=tenant,
                name=slug,
                description=description.strip()[:500],
                config=clean_config(config or {}),
                created_by=created_by,
            )
    except IntegrityError:
        raise ValidationError({"name": [f"An agent named {slug!r} already exists."]}) from None


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


def agent_update(
    *,
    agent: Agent,
    name: str | None = None,
    description: str | None = None,
    config: dict[str, Any] | None = None,
) -> Agent:
    if name is not None:
        slug = agent_name(name)
        if not slug:
            raise ValidationError({"name": ["Use letters, digits or dashes."]})
        agent.name = slug
    if description is not None:
        agent.description = description.strip()[:500]
    if config is not None:
        agent.config = {**agent.config, **clean_config(config)}
    agent.updated_at = timezone.now()
    try:
        with transaction.atomic():
            agent.save()
    except IntegrityError:
        raise ValidationError(
            {"name": [f"An agent named {agent.name!r} already exists."]}
        ) from None
    return agent


def agent_delete(*, agent: Agent) -> None:
    agent.delete()


def agent_get(*, tenant: Tenant, agent_id: str) -> Agent:
    return Agent.objects.for_tenant(tenant).get(id=str(agent_id))


def agent_find(*, tenant: Tenant, reference: str) -> Agent | None:
    """The agent a user named, however written ("Notion Reporter", "@notion_reporter")."""
    slug = agent_name(re.sub(r"[_\s]+", "-", reference.strip().lstrip("@")))
    if not slug:
        return None
    return Agent.objects.for_tenant(tenant).filter(name=slug).first()


def agent_run_request(
    *, agent: Agent, user: User | None, conversation_id: str = "", message_id: str = ""
) -> AgentRun:
    return AgentRun.objects.create(
        tenant_id=agent.tenant_id,
        agent=agent,
        requested_by=user,
        conversation_id=conversation_id,
        message_id=message_id,
    )


def agent_last_run(*, agent: Agent) -> AgentRun | None:
    return agent.runs.order_by("-requested_at").first()
