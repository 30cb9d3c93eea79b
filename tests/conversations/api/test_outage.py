"""Storage that is unavailable for now is a 503 with ``Retry-After`` on every door, never a
500. The database is made to refuse every statement through Django's own instrumentation
hook (``connection.execute_wrapper``), as a server going away mid-request would; the drill in
tests/faults/test_storage_outage.py cuts a real connection to PostgreSQL."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from django.db import OperationalError, connection
from django.test import Client

from conversations.models import Conversation
from tests.conftest import World

pytestmark = pytest.mark.django_db


@contextmanager
def storage_down() -> Iterator[None]:
    def refuse(execute: Callable[..., Any], sql: str, params: Any, many: bool, context: Any) -> Any:
        raise OperationalError("server closed the connection unexpectedly")

    with connection.execute_wrapper(refuse):
        yield


@pytest.mark.parametrize(
    ("method", "path", "body"),
    [
        ("get", "/api/v1/conversations/", None),
        ("post", "/api/v1/conversations/", {}),
        ("post", "/api/v1/chat/", {"message": "hello"}),
        ("get", "/api/v1/agents/", None),
    ],
)
def test_an_api_request_while_storage_is_down_is_a_503_that_says_when_to_return(
    world: World, method: str, path: str, body: Any
) -> None:
    client = world.client(world.owner)
    with storage_down():
        response = getattr(client, method)(path, body, format="json")
    assert response.status_code == 503, response.content
    assert response["Retry-After"] == "5"
    assert response.json() == {"detail": "Storage is unavailable; try again shortly."}
    assert Conversation.objects.for_tenant(world.tenant_a).count() == 0  # nothing half-made


def test_the_chat_page_while_storage_is_down_is_a_503_too(world: World) -> None:
    client = Client()
    client.force_login(world.owner)
    with storage_down():
        response = client.get("/")
    assert response.status_code == 503
    assert response["Retry-After"] == "5"
    assert b"Traceback" not in response.content


def test_a_request_after_the_outage_is_answered_as_usual(world: World) -> None:
    client = world.client(world.owner)
    with storage_down():
        assert client.get("/api/v1/conversations/").status_code == 503
    assert client.get("/api/v1/conversations/").status_code == 200
