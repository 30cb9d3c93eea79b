"""The console at 1280 px, as a superuser and as a tenant admin: every changelist of the
product's own models (and the users and sign-ins) opens with its columns whole (no header or
cell cut, the table as wide as the room it has, nothing beyond the window's right edge), with
long names of the kind people have (an e-mail as a username, a long tenant slug and agent name).
Screenshots of each are saved in the test's output directory (and OMNIFORGE_SCREENSHOT_DIR when
set)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connections
from django.utils import timezone
from playwright.sync_api import BrowserContext, Page, expect

from conversations.models import (
    Agent,
    AgentRun,
    Conversation,
    Message,
    RuntimeConnection,
    Tenant,
)
from conversations.tenancy.services import tenant_create, transcript_view_record, user_add
from conversations.tenancy.tokens import token_issue
from skill_sessions.models import RetentionRun, Skill, SkillCreationSession
from tests.conftest import World
from tests.live import Server

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ADMIN_NAME = "bartholomew.richardson@globex-international.example.com"
MEMBER_NAME = "alexandria.montgomery-smythe@globex-international.example.com"
# Each changelist, and the columns naming people (the ones that were cut) it must show.
CHANGELISTS = {
    "conversations/agentrun": ("requested_by",),
    "conversations/agent": (),
    "conversations/apitoken": ("user",),
    "conversations/conversation": ("user",),
    "conversations/membership": ("user",),
    "conversations/message": (),
    "conversations/runtimeconnection": (),
    "conversations/tenant": (),
    "conversations/transcriptview": ("viewer_username",),
    "skill_sessions/skillcreationsession": ("user",),
    "skill_sessions/skill": ("created_by",),
    "skill_sessions/retentionrun": (),
    "auth/user": (),
    "axes/accesslog": (),  # the sign-ins of this test
}
SUPERUSERS_ONLY = {"skill_sessions/retentionrun", "auth/user", "axes/accesslog"}
MEASURE = """() => {
  const table = document.querySelector('#result_list');
  const results = table.closest('.results');
  const cut = [...table.querySelectorAll('th, td')]
    .filter(cell => cell.scrollWidth > cell.clientWidth + 1)
    .map(cell => `${cell.className}: ${cell.textContent.trim().slice(0, 60)}`);
  return {
    table: table.scrollWidth, room: results.clientWidth, scrolls: results.scrollWidth,
    right: table.getBoundingClientRect().right, window: window.innerWidth, cut,
    columns: [...table.querySelectorAll('thead th')].map(th => th.className),
  };
}"""


def a_busy_tenant(world: World) -> tuple[Tenant, User]:
    """A tenant with a long slug, people named by e-mail, and a row in every list."""
    tenant = tenant_create(slug="globex-international-holdings", name="Globex International")
    admin = user_add(tenant=tenant, username=ADMIN_NAME, password="pw-bart-1", admin=True).user
    member = user_add(tenant=tenant, username=MEMBER_NAME, password="pw-alex-1").user
    now = timezone.now()
    for user in (admin, member):
        token_issue(user=user)
    agent = Agent.objects.create(
        tenant=tenant, name="quarterly-revenue-forecast-analyzer", config={}, created_by=member,
        description="Forecasts quarterly revenue from the finance team's sheets, every Monday",
    )  # fmt: skip
    for hours, status in enumerate(AgentRun.Status.values[:6]):
        AgentRun.objects.create(
            tenant=tenant, agent=agent, requested_by=member, status=status,
            requested_at=now - timedelta(hours=hours), started_at=now - timedelta(hours=hours),
            finished_at=now - timedelta(hours=hours) + timedelta(seconds=1234.5),
        )  # fmt: skip
    # Written directly: the store's services tell open chats, which needs no running loop.
    conversation = Conversation.objects.create(
        tenant=tenant, user=member, title="Board meeting preparation: customer churn analysis",
        message_count=1,
    )  # fmt: skip
    Message.objects.create(
        tenant=tenant, conversation=conversation, seq=1, role="user", author=member,
        content="I need to analyze our customer churn data and put together a presentation "
        "for the board meeting next week",
    )  # fmt: skip
    transcript_view_record(conversation=conversation, viewer=admin)
    SkillCreationSession.objects.create(
        tenant=tenant, user=member, session_id="sk_Q3kZ9fXw2LmP7aBcDe",
        state="gathering_examples", skill_name="customer-churn-presentation-builder",
    )  # fmt: skip
    Skill.objects.create(
        tenant=tenant, created_by=member, name="customer-churn-presentation-builder",
        description="", definition={},
    )  # fmt: skip
    RuntimeConnection.objects.create(
        tenant=tenant, url="https://agents.globex-international.example.com/runtime/v1",
        token_prefix="rt_3f9a1",
    )  # fmt: skip
    RetentionRun.objects.create(
        as_of=now.date(), trigger="command", dry_run=True, tenant_slug=tenant.slug,
        counts={"sessions_abandoned": 12, "sessions_purged": 3, "messages_purged": 1250},
    )  # fmt: skip
    return tenant, admin


def sign_in_to_the_console(page: Page, server: Server, username: str, password: str) -> None:
    page.goto(f"{server.url}/admin/login/?next=/admin/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(f"{server.url}/admin/")


def test_every_changelist_fits_at_1280_px_for_a_superuser_and_a_tenant_admin(
    new_context: Callable[..., BrowserContext],
    shot: Callable[[Page, str], Path],
    daphne: Server,
    world: World,
    django_user_model: Any,
) -> None:
    a_busy_tenant(world)
    django_user_model.objects.create_superuser(
        "operations.lead@omniforge-platform.example.com", None, "pw-root-1"
    )
    connections.close_all()  # committed: the server reads it from its own process
    people = {
        "superuser": ("operations.lead@omniforge-platform.example.com", "pw-root-1"),
        "tenant-admin": (ADMIN_NAME, "pw-bart-1"),
    }
    for who, (username, password) in people.items():
        page = new_context().new_page()  # 1280 x 800
        sign_in_to_the_console(page, daphne, username, password)
        for path, people_columns in CHANGELISTS.items():
            if who == "tenant-admin" and path in SUPERUSERS_ONLY:
                continue
            page.goto(f"{daphne.url}/admin/{path}/")
            expect(page.locator("#result_list tbody tr").first).to_be_visible()
            page.evaluate("document.fonts.ready")
            shot(page, f"admin-{who}-{path.replace('/', '-')}")
            seen = page.evaluate(MEASURE)
            where = f"{who} {path}: {seen}"
            for column in people_columns:
                assert f"column-{column}" in " ".join(seen["columns"]), where
            assert not seen["cut"], where
            assert seen["table"] <= seen["room"] and seen["scrolls"] <= seen["room"], where
            assert seen["right"] <= seen["window"], where
