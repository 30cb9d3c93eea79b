from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.contrib.staticfiles import finders
from django.test import Client
from django.utils import timezone

from conversations.models import Agent, Conversation, TranscriptView
from conversations.store import services
from conversations.tenancy.services import user_add
from tests.conftest import World

pytestmark = pytest.mark.django_db


@pytest.fixture
def superuser(django_user_model: Any) -> Any:
    return django_user_model.objects.create_superuser("root", "root@example.com", "pw-root-1")


@pytest.fixture
def conversations(world: World) -> dict[str, Conversation]:
    mine = services.conversation_create(tenant=world.tenant_a, user=world.owner, title="Acme plan")
    services.message_add(conversation=mine, role="user", content="<script>alert(1)</script>")
    services.message_add(
        conversation=mine,
        role="assistant",
        content="Here you go",
        metadata={"intent": {"action_type": "query_info", "method": "offline"}},
    )
    theirs = services.conversation_create(
        tenant=world.tenant_b, user=world.outsider, title="Globex secret"
    )
    services.message_add(conversation=theirs, role="user", content="globex only")
    return {"mine": mine, "theirs": theirs}


def login(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_a_superuser_sees_every_tenant(
    superuser: Any, conversations: dict[str, Conversation]
) -> None:
    page = login(superuser).get("/admin/conversations/conversation/").content.decode()
    assert "Acme plan" in page and "Globex secret" in page


def test_a_tenant_admin_sees_only_their_tenant_filters_included(
    world: World, conversations: dict[str, Conversation]
) -> None:
    client = login(world.admin_a)
    page = client.get("/admin/conversations/conversation/").content.decode()
    assert "Acme plan" in page and "Globex secret" not in page
    assert "globex" not in page.lower()  # not even in the tenant list filter
    messages = client.get("/admin/conversations/message/").content.decode()
    assert "globex only" not in messages
    foreign = client.get(f"/admin/conversations/conversation/{conversations['theirs'].id}/change/")
    assert foreign.status_code == 302  # "doesn't exist", back to the index
    tenants = client.get("/admin/conversations/tenant/").content.decode()
    assert "acme" in tenants and "globex" not in tenants


def test_a_member_who_is_not_an_admin_cannot_open_the_admin(world: World) -> None:
    response = login(world.member).get("/admin/conversations/conversation/")
    assert response.status_code == 302 and "/admin/login/" in response["Location"]


def test_the_transcript_is_read_only_escaped_and_its_viewing_recorded(
    world: World, conversations: dict[str, Conversation]
) -> None:
    conversation = conversations["mine"]
    client = login(world.admin_a)
    page = client.get(f"/admin/conversations/conversation/{conversation.id}/change/")
    html = page.content.decode()
    assert page.status_code == 200
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html and "<script>alert(1)" not in html
    assert "query_info" in html and "offline" in html
    assert 'name="_save"' not in html  # nothing to edit
    views = list(TranscriptView.objects.for_tenant(world.tenant_a))
    assert [(v.conversation_id, v.viewer_username) for v in views] == [(conversation.id, "ada")]
    post = client.post(
        f"/admin/conversations/conversation/{conversation.id}/change/", {"title": "x"}
    )
    assert post.status_code == 403


def test_the_changelists_cost_a_fixed_number_of_queries(
    world: World, superuser: Any, django_assert_max_num_queries: Any
) -> None:
    for i in range(30):
        conversation = services.conversation_create(tenant=world.tenant_a, user=world.owner)
        services.message_add(conversation=conversation, role="user", content=f"hello {i}")
        services.message_add(
            conversation=conversation,
            role="assistant",
            content="hi",
            metadata={"intent": {"action_type": "create_agent", "method": "llm"}},
        )
    for user in (superuser, world.admin_a):
        client = login(user)
        for url in (
            "/admin/conversations/conversation/",
            "/admin/conversations/message/",
            "/admin/conversations/agentrun/",
        ):
            client.get(url)
            with django_assert_max_num_queries(12):
                assert client.get(url).status_code == 200


def test_messages_filter_by_action_type_and_method(
    world: World, superuser: Any, conversations: dict[str, Conversation]
) -> None:
    client = login(superuser)
    by_action = client.get("/admin/conversations/message/?action_type=query_info").content.decode()
    assert "Here you go" in by_action and "globex only" not in by_action
    by_method = client.get("/admin/conversations/message/?method=llm").content.decode()
    assert "Here you go" not in by_method


def test_a_second_tenant_admin_sees_their_own_tenant(
    world: World, conversations: dict[str, Conversation]
) -> None:
    admin_b = user_add(tenant=world.tenant_b, username="bella", password="pw-bella-1", admin=True)
    page = login(admin_b.user).get("/admin/conversations/conversation/").content.decode()
    assert "Globex secret" in page and "Acme plan" not in page


def test_a_tenant_admin_pauses_and_resumes_their_agents_from_the_changelist(world: World) -> None:

    ours = Agent.objects.create(tenant=world.tenant_a, name="invoice-watch")
    theirs = Agent.objects.create(tenant=world.tenant_b, name="globex-watch")
    client = login(world.admin_a)
    url = "/admin/conversations/agent/"
    for agent_id in (ours.id, theirs.id):  # another tenant's id posted as well: ignored
        client.post(url, {"action": "pause_agents", "_selected_action": [agent_id]})
    ours.refresh_from_db()
    theirs.refresh_from_db()
    assert ours.paused and not theirs.paused
    page = client.get(f"{url}?paused_at__isnull=False").content.decode()
    assert "invoice-watch" in page

    client.post(url, {"action": "resume_agents", "_selected_action": [ours.id]})
    ours.refresh_from_db()
    assert not ours.paused


def test_a_member_cannot_pause_agents_from_the_admin(world: World) -> None:

    agent = Agent.objects.create(tenant=world.tenant_a, name="invoice-watch")
    response = login(world.member).post(
        "/admin/conversations/agent/", {"action": "pause_agents", "_selected_action": [agent.id]}
    )
    assert response.status_code == 302 and "/admin/login/" in response["Location"]
    agent.refresh_from_db()
    assert not agent.paused


def test_the_console_wears_the_product_name_logo_and_colours_signed_in_or_not(
    world: World, superuser: Any
) -> None:
    for page in (
        Client().get("/admin/login/").content.decode(),
        login(superuser).get("/admin/").content.decode(),
        login(world.admin_a).get("/admin/conversations/agent/").content.decode(),
    ):
        assert "<title>" in page and "| OmniForge console</title>" in page
        assert 'class="console-brand"' in page and "OmniForge console</span>" in page
        assert "/static/chat/img/logo.svg" in page
        assert "/static/chat/css/admin.css" in page
        assert "Django administration" not in page
    found = finders.find("chat/css/admin.css")
    assert isinstance(found, str)
    css = Path(found).read_text()
    assert "--header-bg:" in css and "--primary: #5b5bd6;" in css  # the chat's accent


def test_api_tokens_are_spelled_so_and_drf_s_unused_tokens_page_is_gone(
    world: World, superuser: Any
) -> None:
    index = login(superuser).get("/admin/").content.decode()
    assert ">API tokens</a>" in index and "Api tokens" not in index
    assert "/admin/authtoken/" not in index
    assert login(superuser).get("/admin/authtoken/tokenproxy/").status_code == 404
    tokens = login(world.admin_a).get("/admin/conversations/apitoken/").content.decode()
    assert "Select API token to change" in tokens


def test_changelist_columns_fit_names_wrap_and_tenant_admins_lose_the_tenant_column(
    world: World, superuser: Any
) -> None:
    long = user_add(tenant=world.tenant_a, username="ada.lovelace@example.com").user
    services.conversation_create(tenant=world.tenant_a, user=long, title="Long names")
    url = "/admin/conversations/conversation/"
    everyone = login(superuser).get(url).content.decode()
    own = login(world.admin_a).get(url).content.decode()
    for page in (everyone, own):
        # The username may break before the "@" and after a dot; nothing of it is dropped.
        assert "ada.<wbr>lovelace<wbr>@example.<wbr>com" in page
        assert 'class="sortable column-user' in page  # still sorted by username
        assert 'class="sortable column-message_total' in page and ">Messages<" in page
    assert 'column-tenant"' in everyone or "column-tenant " in everyone
    assert "column-tenant" not in own  # one tenant: its name on every row said nothing
    when = timezone.now().strftime("%Y-%m-%d")
    assert f'<td class="field-updated_at nowrap">{when} ' in own  # 2026-11-28 09:05


def test_a_username_is_escaped_where_it_may_wrap(world: World, superuser: Any) -> None:
    odd = user_add(tenant=world.tenant_a, username="<b>x</b>@example.com").user
    services.conversation_create(tenant=world.tenant_a, user=odd, title="Odd name")
    page = login(superuser).get("/admin/conversations/conversation/").content.decode()
    assert "&lt;b&gt;x&lt;/b&gt;<wbr>@example.<wbr>com" in page
    assert "<b>x</b>" not in page
