"""Writes of the tenant's agent registry: create, change, delete, request a run."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone

from conversations.agents.schedules import ScheduleSpec, schedule_clean, schedule_next
from conversations.agents.selectors import agent_name
from conversations.models import Agent, AgentRun, Tenant, new_id
from conversations.runs.services import run_request

CONFIG_KEYS = ("source", "trigger", "action", "schedule", "destination", "details")
# agent_update's default for ``schedule``: leave it as it is (None removes it).
KEEP: Any = object()


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
    schedule: object = None,
) -> Agent:
    """Create the agent; with ``agent_id`` (chosen up front) a second call returns the first's.

    ``schedule`` is ``{"rrule", "timezone"}`` or None (it runs only when asked).
    """
    slug = agent_name(name)
    if not slug:
        raise ValidationError({"name": ["Use letters, digits or dashes."]})
    spec = schedule_clean(schedule)
    now = timezone.now()
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
                created_at=now,
                updated_at=now,
                paused_at=now if paused else None,
                schedule=spec,
                next_run_at=_next_run(spec, paused=paused, now=now),
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
    schedule: object = KEEP,
) -> Agent:
    """Change what is given; ``next_run_at`` follows every change, pause and resume."""
    now = timezone.now()
    if schedule is not KEEP:
        agent.schedule = schedule_clean(schedule)
    if paused is not None and paused != agent.paused:
        agent.paused_at = now if paused else None
    if name is not None:
        slug = agent_name(name)
        if not slug:
            raise ValidationError({"name": ["Use letters, digits or dashes."]})
        agent.name = slug
    if description is not None:
        agent.description = description.strip()[:500]
    if config is not None:
        agent.config = {**agent.config, **clean_config(config)}
    agent.next_run_at = _next_run(agent.schedule, paused=agent.paused, now=now)
    agent.updated_at = now
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


def _next_run(spec: ScheduleSpec | None, *, paused: bool, now: datetime) -> datetime | None:
    """The next slot to fire: none while paused (a resumed agent does not catch up)."""
    if spec is None or paused:
        return None
    return schedule_next(spec, after=now)


def agent_run_request(
    *,
    agent: Agent,
    user: User | None,
    trigger: str = AgentRun.Trigger.CHAT,
    conversation_id: str = "",
    message_id: str = "",
    run_id: str | None = None,
) -> AgentRun:
    """Request a run now; it is handed to the runtime once the transaction commits. With
    ``run_id`` (chosen up front) a second call returns the first's."""
    return run_request(
        agent=agent,
        user=user,
        trigger=trigger,
        conversation_id=conversation_id,
        message_id=message_id,
        run_id=run_id,
    )
