"""The admin site as a whole, as config/urls.py mounts it: what a tenant admin sees on it."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.contrib import admin
from django.test import Client
from django.urls import reverse

from conversations.admin import TenantScopedAdmin
from conversations.models import Agent, AgentRun, Tenant
from conversations.runs.runtime import runtime_url_set
from conversations.store import services
from conversations.tenancy.services import token_issue, transcript_view_record
from skill_sessions.models import RetentionRun, Skill, SkillCreationSession
from tests.conftest import World

# Words that occur in no page by chance, so "nowhere in the page" cannot pass or fail by accident.
OTHER_SLUG = "zeta-outsider-corp"
OTHER_NAME = "Zeta Outsider Corporation"


def tenant_rows(tenant: Tenant, user: Any, word: str) -> None:
    """One row of every tenant-owned model the admin lists, in ``tenant``."""
    conversation = services.conversation_create(tenant=tenant, user=user, title=f"{word} plan")
    services.message_add(conversation=conversation, role="user", content=f"{word} message")
    agent = Agent.objects.create(tenant=tenant, name=f"{word}-agent")
    AgentRun.objects.create(tenant=tenant, agent=agent, requested_by=user)
    runtime_url_set(tenant=tenant, url=f"https://{word}-runtime.example.com/")
    transcript_view_record(conversation=conversation, viewer=user)
    token_issue(user=user)
    SkillCreationSession.objects.create(
        tenant=tenant, user=user, session_id=f"sk_{word}", context='{"v":1,"state":"naming"}',
        state="naming", skill_name=f"{word}-skill",
    )  # fmt: skip
    Skill.objects.create(tenant=tenant, created_by=user, name=f"{word}-skill")


@pytest.mark.django_db
def test_a_tenant_admin_sees_no_other_tenants_name_on_any_changelist(world: World) -> None:
    Tenant.objects.filter(pk=world.tenant_b.pk).update(slug=OTHER_SLUG, name=OTHER_NAME)
    tenant_rows(world.tenant_a, world.owner, "acme")
    tenant_rows(world.tenant_b, world.outsider, "zeta-outsider")
    RetentionRun.objects.create(
        as_of=dt.date(2026, 6, 30), trigger="beat", tenant_slug=OTHER_SLUG,
        per_tenant={"acme": {}, OTHER_SLUG: {}},
    )  # fmt: skip
    client = Client()
    client.force_login(world.admin_a)

    opened = []
    for model, model_admin in admin.site._registry.items():
        label = model._meta.label_lower
        # A changelist is either scoped to the viewer's tenant or closed to tenant admins (users,
        # groups, sign-in attempts, retention runs): no page lists every tenant's rows to them.
        scoped = isinstance(model_admin, TenantScopedAdmin)
        if scoped:
            # Each tenant has a row here, or the page could not show the other one's.
            for tenant in (world.tenant_a, world.tenant_b):
                # cross-tenant: the test checks that both tenants have rows.
                rows = model._base_manager.filter(**{model_admin.tenant_field: tenant.pk})
                assert rows.exists(), f"no {label} row of {tenant.slug}"
        url = reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_changelist")
        response = client.get(url)  # an exception (a 500) is raised here
        page = response.content.decode()
        assert response.status_code == (200 if scoped else 403), label
        assert OTHER_SLUG not in page and OTHER_NAME not in page, label
        assert "zeta-outsider" not in page.lower() and "zeta outsider" not in page.lower(), label
        if scoped:
            assert response.context["cl"].result_count >= 1, f"{label}: no rows listed"
            opened.append(label)
    assert {"skill_sessions.skill", "skill_sessions.skillcreationsession"} <= set(opened)
