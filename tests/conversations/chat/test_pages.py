"""The chat page's door: sign-in, the caller's conversations only, the admin's way back."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from conversations.models import Conversation
from conversations.store import services
from tests.conftest import World

pytestmark = pytest.mark.django_db


def signed_in(user: object) -> Client:
    client = Client()
    client.force_login(user)  # type: ignore[arg-type]
    return client


def test_the_chat_page_asks_an_anonymous_visitor_to_sign_in(world: World) -> None:
    response = Client().get("/")
    assert response.status_code == 302
    assert response["Location"] == "/accounts/login/?next=/"
    assert Client().get("/accounts/login/").status_code == 200


def test_a_signed_in_user_gets_a_blank_chat_and_nothing_is_created(world: World) -> None:
    response = signed_in(world.owner).get("/")
    assert response.status_code == 200
    assert b'data-conversation-id=""' in response.content
    assert not Conversation.objects.for_tenant(world.tenant_a).exists()


def test_a_conversation_page_opens_only_for_its_owner(world: World) -> None:
    conversation = services.conversation_create(tenant=world.tenant_a, user=world.owner)
    url = f"/c/{conversation.id}/"
    assert signed_in(world.owner).get(url).status_code == 200
    assert signed_in(world.member).get(url).status_code == 404
    assert signed_in(world.outsider).get(url).status_code == 404


def test_signing_in_with_the_form_leads_to_the_chat(world: World) -> None:
    response = Client().post(
        "/accounts/login/?next=/", {"username": "olivia", "password": "pw-olivia-1"}
    )
    assert response.status_code == 302 and response["Location"] == "/"


def test_the_admin_is_branded_and_view_site_opens_the_chat(world: World) -> None:
    admin = signed_in(world.admin_a)
    page = admin.get("/admin/").content.decode()
    assert "OmniForge console" in page
    assert 'href="/"' in page


@pytest.fixture
def root(django_user_model: Any) -> Any:
    return django_user_model.objects.create_superuser("root", "root@example.com", "pw-root-1")


@pytest.mark.parametrize("debug", [True, False])
def test_a_superuser_without_a_tenant_is_sent_to_the_console(
    world: World, root: Any, settings: Any, debug: bool
) -> None:
    settings.DEBUG = debug
    for url in ("/", "/c/01ARZ3NDEKTSV4RRFFQ69G5FAV/"):
        response = signed_in(root).get(url)
        assert response.status_code == 200
        assert response.templates[0].name == "chat/no_workspace.html"
        page = response.content.decode()
        assert "This account has no workspace" in page
        assert 'href="/admin/"' in page and "Open the console" in page
        assert "add_user" in page and "Sign out" in page
        _tells_nothing_of_the_tenants(page, world)


@pytest.mark.parametrize("debug", [True, False])
def test_a_user_without_a_tenant_is_told_to_ask_their_workspace_admin(
    world: World, django_user_model: Any, settings: Any, debug: bool
) -> None:
    settings.DEBUG = debug
    stray = django_user_model.objects.create_user("stray", password="pw-stray-1")
    stray.is_staff = True  # staff, but in no tenant: the console shows them nothing either
    stray.save()
    response = signed_in(stray).get("/")
    assert response.status_code == 403
    page = response.content.decode()
    assert "You are not in a workspace yet" in page
    assert "Ask your workspace admin to add you" in page
    assert "/admin/" not in page and "add_user" not in page
    assert 'href="/static/chat/css/app.css"' in page  # the product's page, not Django's
    _tells_nothing_of_the_tenants(page, world)


def _tells_nothing_of_the_tenants(page: str, world: World) -> None:
    for tenant in (world.tenant_a, world.tenant_b):
        assert tenant.slug not in page and tenant.name not in page
    for user in (world.owner, world.outsider, world.admin_a):
        assert user.get_username() not in page
    assert "Traceback" not in page and "DEBUG" not in page and "does not belong" not in page


def test_a_member_still_gets_the_chat_and_a_tenant_admin_too(world: World) -> None:
    for user in (world.owner, world.admin_a):
        response = signed_in(user).get("/")
        assert response.status_code == 200
        assert response.templates[0].name == "chat/index.html"
        assert b'id="composer"' in response.content
