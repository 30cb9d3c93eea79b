"""The chat page's door: sign-in, the caller's conversations only, the admin's way back."""

from __future__ import annotations

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
