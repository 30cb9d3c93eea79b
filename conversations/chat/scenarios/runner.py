"""One scenario through the chat turn, in a workspace made for it and removed afterwards."""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from asgiref.sync import async_to_sync
from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from conversations.agents.selectors import agent_name
from conversations.chat.frames import ChatError
from conversations.chat.scenarios.checks import Answered, turn_checks
from conversations.chat.scenarios.results import ScenarioResult
from conversations.chat.turn import ChatTurn
from conversations.models import Agent, Membership, Tenant
from conversations.tenancy.services import tenant_create, user_add


@dataclass(frozen=True)
class TurnSeen:
    """A turn as it was played, for whoever watches the run (``observe``)."""

    scenario: str
    number: int  # 1-based
    said: str
    reply: str  # "" when the turn was refused
    tenant: Tenant


Observer = Callable[[TurnSeen], None]


def scenarios_run(
    scenarios: list[dict[str, Any]],
    *,
    offline: bool,
    progress: Callable[[int], None] | None = None,
    observe: Observer | None = None,
) -> Iterator[ScenarioResult]:
    for done, scenario in enumerate(scenarios, start=1):
        yield scenario_run(scenario, offline=offline, observe=observe)
        if progress is not None:
            progress(done)


def scenario_run(
    scenario: dict[str, Any], *, offline: bool, observe: Observer | None = None
) -> ScenarioResult:
    """One scenario in a fresh tenant, removed afterwards whatever happened."""
    admin = scenario.get("role", "admin") == "admin"
    tenant, user = _fresh_workspace(admin=admin)
    try:
        for agent in (scenario.get("setup") or {}).get("agents", []):
            _seed(tenant, user, agent)
        role = Membership.Role.ADMIN if admin else Membership.Role.MEMBER
        return _play(
            scenario, tenant=tenant, user=user, role=role, offline=offline, observe=observe
        )
    finally:
        _remove(tenant)


def _fresh_workspace(*, admin: bool) -> tuple[Tenant, User]:
    slug = f"eval-{uuid.uuid4().hex[:12]}"
    tenant = tenant_create(slug=slug, name=f"Scenario {slug}")
    return tenant, user_add(tenant=tenant, username=slug, admin=admin).user


def _seed(tenant: Tenant, user: User, agent: dict[str, Any]) -> None:
    """An agent the scenario starts with, made by its user: under the slug of its name, with
    its config as written (not cleaned: a scenario may start from any stored state)."""
    Agent.objects.create(
        tenant=tenant,
        name=agent_name(agent["name"]),
        description=agent.get("description", ""),
        config=dict(agent.get("config") or {}),
        created_by=user,
        paused_at=timezone.now() if agent.get("paused") else None,
    )


@transaction.atomic
def _remove(tenant: Tenant) -> None:
    # cross-tenant: the workspace was made for one scenario; its users go with it.
    users = Membership.objects.cross_tenant().filter(tenant=tenant).values("user_id")
    User.objects.filter(pk__in=users).delete()
    tenant.delete()


def _play(
    scenario: dict[str, Any],
    *,
    tenant: Tenant,
    user: User,
    role: str,
    offline: bool,
    observe: Observer | None,
) -> ScenarioResult:
    result = ScenarioResult(id=scenario["id"])
    conversation_id: str | None = None
    replies: list[str] = []
    message_id = ""
    for number, turn in enumerate(scenario["turns"], start=1):
        if not turn.get("resend"):  # a re-send goes under the previous turn's id
            message_id = f"{scenario['id'][:50]}-{number}"
        chat = ChatTurn(
            tenant=tenant,
            user=user,
            role=role,
            content=turn["user"],
            conversation_id=conversation_id,
            client_message_id=message_id,
            offline_only=offline,
        )
        action, reply, refused = async_to_sync(_answer)(chat)
        if chat.conversation is not None:
            conversation_id = chat.conversation.id
        answered = Answered(number, turn["user"], action, reply, refused, tuple(replies), tenant)
        result.checks.extend(turn_checks(answered, turn["expect"]))
        replies.append("" if refused else reply)
        if observe is not None:
            observe(TurnSeen(scenario["id"], number, turn["user"], replies[-1], tenant))
    return result


async def _answer(chat: ChatTurn) -> tuple[str, str, bool]:
    """The turn's action and its whole reply (a refused turn: no action, the refusal)."""
    try:
        action, reply = await _events(chat)
    except ChatError as exc:
        return "", f"[refused: {exc.code}: {exc.detail}]", True
    return action, reply, False


async def _events(chat: ChatTurn) -> tuple[str, str]:
    await chat.open()
    action, reply = "", ""
    async for event in chat.events():
        if event["type"] == "intent":
            action = str(event["intent"].get("action_type") or "")
        elif event["type"] == "done":
            reply = str(event["content"])
            intent = event.get("intent") or {}
            action = action or str(intent.get("action_type") or "")
    return action, reply
