"""Writes of the tenant's agent registry: create, change, delete, request a run."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone

from conversations.agents.selectors import agent_name
from conversations.models import Agent, AgentRun, Tenant, new_id

CONFIG_KEYS = ("source", "trigger", "action", "schedule", "destination", "details")


class AgentNameTaken(Exception):
    """The tenant already has an agent of that name (a 409: the request conflicts with state)."""

    def __init__(self, name: str) -> None:
        super().__init__(f"An agent named {name!r} already exists.")
        self.name = name


def clean_config(config: Mapping[str, Any]) -> dict[str, str]:
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
    config: Mapping[str, Any] | None = None,
    created_by: User | None = None,
    agent_id: str | None = None,
    paused: bool = False,
) -> Agent:
    """Create the agent; with ``agent_id`` (chosen up front) a second call returns the first's."""
    slug = agent_name(name)
    if not slug:
        raise ValidationError({"name": ["Use letters, digits or dashes."]})
    if agent_id is not None:
        existing = Agent.objects.for_tenant(tenant).filter(id=agent_id).first()
        if existing is not None:
            return existing
    try:
        with transaction.atomic():
            return Agent.objects.create(
                id=agent_id or new_id(),
                tenant=tenant,
                name=slug,
                description=description.strip()[:500],
                config=clean_config(config or {}),
                created_by=created_by,
                paused_at=timezone.now() if paused else None,
            )
    except IntegrityError:
        raise AgentNameTaken(slug) from None


def agent_update(
    *,
    agent: Agent,
    name: str | None = None,
    description: str | None = None,
    config: Mapping[str, Any] | None = None,
    paused: bool | None = None,
) -> Agent:
    if paused is not None and paused != agent.paused:
        agent.paused_at = timezone.now() if paused else None
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
        raise AgentNameTaken(agent.name) from None
    return agent


def agent_deletable_by(*, agent: Agent, user: User, admin: bool) -> bool:
    """Who may delete an agent, over every door (the API, the chat): its creator or a tenant
    admin. Members create and change the tenant's agents; removing one is not theirs to do."""
    return admin or (agent.created_by_id is not None and agent.created_by_id == user.pk)


def agent_delete(*, agent: Agent) -> None:
    agent.delete()


def agent_run_request(
    *,
    agent: Agent,
    user: User | None,
    conversation_id: str = "",
    message_id: str = "",
    run_id: str | None = None,
) -> AgentRun:
    """Queue a run; with ``run_id`` (chosen up front) a second call returns the first's."""
    run, _ = AgentRun.objects.for_tenant(agent.tenant_id).get_or_create(
        id=run_id or new_id(),
        tenant_id=agent.tenant_id,
        defaults={
            "agent": agent,
            "requested_by": user,
            "conversation_id": conversation_id,
            "message_id": message_id,
        },
    )
    return run
