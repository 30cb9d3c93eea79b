"""The skill and skill-session changelists: a fixed number of queries, however many rows."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from conversations.tenancy.services import user_add
from skill_sessions.models import Skill, SkillCreationSession
from tests.conftest import World

pytestmark = pytest.mark.django_db


def _rows(world: World, start: int, stop: int) -> None:
    """Sessions and skills of users u<start> … u<stop - 1>, each with a user of their own."""
    for n in range(start, stop):
        user = user_add(tenant=world.tenant_a, username=f"u{n}", password="pw-user-1").user
        SkillCreationSession.objects.create(
            tenant=world.tenant_a, user=user, session_id=f"sk_{n}",
            context='{"v":1,"state":"naming"}',
        )  # fmt: skip
        Skill.objects.create(tenant=world.tenant_a, created_by=user, name=f"skill-{n}")


@pytest.mark.parametrize(
    "url", ["/admin/skill_sessions/skillcreationsession/", "/admin/skill_sessions/skill/"]
)
def test_a_changelist_costs_the_same_queries_for_3_rows_as_for_30(
    world: World, url: str, django_assert_max_num_queries: Any
) -> None:
    client = Client()
    client.force_login(world.admin_a)
    _rows(world, 0, 3)
    client.get(url)
    with django_assert_max_num_queries(12) as few:
        assert client.get(url).status_code == 200
    _rows(world, 3, 30)
    with django_assert_max_num_queries(len(few.captured_queries)):
        assert client.get(url).status_code == 200
