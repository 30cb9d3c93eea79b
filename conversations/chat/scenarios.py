"""Scenario files through the chat turn: the service behind ``manage.py eval_scenarios``.

A scenario is one conversation: agents that exist before it, then turns, each with what it
must give (its action, and substrings its reply must contain). Each scenario runs as the admin
of a tenant of its own, made for it and removed afterwards, through the same ``ChatTurn`` as
``POST chat/``; with ``offline`` the intent tier is the offline engine even when a provider is
configured, so the two engines can be compared on the same conversations. A check is one
turn's action or one substring, counted one by one.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from asgiref.sync import async_to_sync
from django.contrib.auth.models import User
from django.db import transaction

from conversations.agents.services import agent_create
from conversations.chat.frames import ChatError
from conversations.chat.serializers import ScenarioSerializer
from conversations.chat.turn import ChatTurn
from conversations.models import Membership, Tenant
from conversations.tenancy.services import tenant_create, user_add


class ScenarioFileError(ValueError):
    """The file is not a scenario file; the message says where and why, in one line."""


@dataclass(frozen=True)
class Check:
    turn: int  # 1-based
    check: str  # "action_type" or "reply_mentions"
    expected: str | list[str]
    actual: str
    ok: bool


@dataclass(frozen=True)
class ScenarioResult:
    id: str
    checks: list[Check] = field(default_factory=list)

    @property
    def passed(self) -> int:
        return sum(check.ok for check in self.checks)

    @property
    def total(self) -> int:
        return len(self.checks)

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "passed": self.passed,
            "total": self.total,
            "failures": [
                {"turn": c.turn, "check": c.check, "expected": c.expected, "actual": c.actual}
                for c in self.checks
                if not c.ok
            ],
        }


def scenarios_load(path: Path) -> list[dict[str, Any]]:
    """The file's scenarios, validated; ``ScenarioFileError`` naming the first problem."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise ScenarioFileError(f"{path} is not a JSON file: {exc}") from exc
    if not isinstance(data, list) or not data:
        raise ScenarioFileError(f"{path} must hold a non-empty JSON list of scenarios")
    scenarios = []
    for index, raw in enumerate(data):
        scenario = ScenarioSerializer(data=raw)
        if not scenario.is_valid():
            raise ScenarioFileError(
                f"{path}: scenario {index + 1} is invalid: {json.dumps(scenario.errors)}"
            )
        scenarios.append(dict(scenario.validated_data))
    return scenarios


def scenarios_run(
    scenarios: list[dict[str, Any]],
    *,
    offline: bool,
    progress: Callable[[int], None] | None = None,
) -> Iterator[ScenarioResult]:
    for done, scenario in enumerate(scenarios, start=1):
        yield scenario_run(scenario, offline=offline)
        if progress is not None:
            progress(done)


def scenario_run(scenario: dict[str, Any], *, offline: bool) -> ScenarioResult:
    """One scenario in a fresh tenant, removed afterwards whatever happened."""
    tenant, admin = _fresh_workspace()
    try:
        for agent in (scenario.get("setup") or {}).get("agents", []):
            agent_create(
                tenant=tenant,
                name=agent["name"],
                description=agent["description"],
                created_by=admin,
            )
        return _play(scenario, tenant=tenant, admin=admin, offline=offline)
    finally:
        _remove(tenant)


def _fresh_workspace() -> tuple[Tenant, User]:
    slug = f"eval-{uuid.uuid4().hex[:12]}"
    tenant = tenant_create(slug=slug, name=f"Scenario {slug}")
    return tenant, user_add(tenant=tenant, username=slug, admin=True).user


@transaction.atomic
def _remove(tenant: Tenant) -> None:
    # cross-tenant: the workspace was made for one scenario; its users go with it.
    users = Membership.objects.cross_tenant().filter(tenant=tenant).values("user_id")
    User.objects.filter(pk__in=users).delete()
    tenant.delete()


def _play(
    scenario: dict[str, Any], *, tenant: Tenant, admin: User, offline: bool
) -> ScenarioResult:
    result = ScenarioResult(id=scenario["id"])
    conversation_id: str | None = None
    for number, turn in enumerate(scenario["turns"], start=1):
        chat = ChatTurn(
            tenant=tenant,
            user=admin,
            role=Membership.Role.ADMIN,
            content=turn["user"],
            conversation_id=conversation_id,
            client_message_id=f"{scenario['id'][:50]}-{number}",
            offline_only=offline,
        )
        action, reply = async_to_sync(_answer)(chat)
        conversation_id = chat.conversation.id if chat.conversation is not None else None
        result.checks.extend(_checks(number, turn["expect"], action, reply))
    return result


async def _answer(chat: ChatTurn) -> tuple[str, str]:
    """The turn's action and its whole reply (a refused turn: no action, the refusal)."""
    try:
        return await _events(chat)
    except ChatError as exc:
        return "", f"[refused: {exc.code}: {exc.detail}]"


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


def _checks(number: int, expect: dict[str, Any], action: str, reply: str) -> list[Check]:
    allowed = [expect["action_type"], *expect.get("also_ok", [])]
    checks = [
        Check(
            turn=number,
            check="action_type",
            expected=allowed if len(allowed) > 1 else allowed[0],
            actual=action,
            ok=action in allowed,
        )
    ]
    lowered = reply.lower()
    checks += [
        Check(
            turn=number,
            check="reply_mentions",
            expected=wanted,
            actual=reply,
            ok=wanted.lower() in lowered,
        )
        for wanted in expect.get("reply_mentions", [])
    ]
    return checks


def report(results: list[ScenarioResult]) -> dict[str, Any]:
    """The ``--json`` object: ``{"passed", "total", "scenarios": [...]}``."""
    return {
        "passed": sum(r.passed for r in results),
        "total": sum(r.total for r in results),
        "scenarios": [r.to_dict() for r in results],
    }
