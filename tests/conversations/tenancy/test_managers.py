from __future__ import annotations

import pytest
from django.db.models import Count

from conversations.models import Agent, Conversation, Message
from conversations.store import selectors, services
from conversations.tenancy.managers import TenantScopeError
from tests.conftest import World

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    "query",
    [
        lambda: list(Conversation.objects.all()),
        lambda: Conversation.objects.count(),
        lambda: Conversation.objects.exists(),
        lambda: Conversation.objects.filter(title="x").first(),
        lambda: Message.objects.get(id="nope"),
        lambda: Message.objects.filter(role="user").update(content="x"),
        lambda: Message.objects.all().delete(),
        lambda: list(Agent.objects.values_list("name", flat=True)),
        lambda: list(Message.objects.iterator()),
        lambda: Conversation.objects.filter(title="").aggregate(n=Count("id")),
    ],
)
def test_unscoped_queries_on_tenant_data_fail_closed(world: World, query: object) -> None:
    with pytest.raises(TenantScopeError):
        query()  # type: ignore[operator]


def test_an_or_with_a_tenant_filter_is_not_a_scope(world: World) -> None:
    from django.db.models import Q

    with pytest.raises(TenantScopeError):
        list(Conversation.objects.filter(Q(tenant=world.tenant_a) | Q(title="x")))


def test_scoped_queries_see_only_their_tenant(world: World) -> None:
    services.conversation_create(tenant=world.tenant_a, user=world.owner, title="a")
    services.conversation_create(tenant=world.tenant_b, user=world.outsider, title="b")
    assert [c.title for c in Conversation.objects.for_tenant(world.tenant_a)] == ["a"]
    assert [c.title for c in Conversation.objects.filter(tenant=world.tenant_b)] == ["b"]
    # cross-tenant: the test checks that the explicit escape hatch sees both.
    assert Conversation.objects.cross_tenant().count() == 2


def test_related_managers_are_scoped_by_their_parent(world: World) -> None:
    conversation = services.conversation_create(tenant=world.tenant_a, user=world.owner)
    services.message_add(conversation=conversation, role="user", content="hi")
    assert [m.content for m in conversation.messages.all()] == ["hi"]


def test_conversation_get_never_returns_another_users_conversation(world: World) -> None:
    conversation = services.conversation_create(tenant=world.tenant_a, user=world.owner)
    for tenant, user in [
        (world.tenant_a, world.member),
        (world.tenant_b, world.outsider),
        (world.tenant_b, world.owner),
    ]:
        with pytest.raises(Conversation.DoesNotExist):
            selectors.conversation_get(tenant=tenant, user=user, conversation_id=conversation.id)
