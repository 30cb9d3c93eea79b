"""Error shapes from a live Daphne started with DEBUG=true.

pytest-django forces DEBUG off, which hides Django's debug pages (the HTML 404 listing URL
patterns, the traceback page of a 400 or 500); a real server with DEBUG on shows what a
developer running ``make run`` would get.
"""

from __future__ import annotations

import http.client
import json
import time
from collections.abc import Iterator
from typing import Any

import pytest
from django.db import connections

from conversations.models import Conversation
from conversations.tenancy.services import token_issue
from tests.conftest import World
from tests.live import Server

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(scope="module")
def debug_server(django_db_setup: Any, django_db_blocker: Any) -> Iterator[Server]:
    with django_db_blocker.unblock():
        connections.close_all()
        server = Server(env={"DEBUG": "true", "LOG_LEVEL": "INFO"})
    yield server
    server.stop()


@pytest.fixture
def token(world: World) -> str:
    key = token_issue(user=world.owner)
    connections.close_all()
    return key


def send(
    server: Server,
    method: str,
    path: str,
    *,
    body: bytes | None = None,
    headers: dict[str, str] | None = None,
    chunked: bool = False,
) -> tuple[int, str, bytes]:
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    try:
        if chunked and body is not None:
            payload: Any = iter([body[i : i + 7] for i in range(0, len(body), 7)])
            connection.request(
                method, path, body=payload, headers=headers or {}, encode_chunked=True
            )
        else:
            connection.request(method, path, body=body, headers=headers or {})
        response = connection.getresponse()
        return response.status, response.getheader("Content-Type") or "", response.read()
    finally:
        connection.close()


def assert_json_error(content_type: str, raw: bytes) -> dict[str, Any]:
    assert content_type.startswith("application/json"), raw[:200]
    body = json.loads(raw)
    assert isinstance(body, dict) and body
    assert b"Traceback" not in raw and b"<html" not in raw.lower()
    return body


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Token {token}", "Content-Type": "application/json"}


@pytest.mark.parametrize(
    ("method", "path", "status"),
    [
        ("GET", "/api/v1/nope/", 404),
        ("GET", "/api/v1/../../admin/", 404),
        ("GET", "/api/v1/conversations/..%2F..%2Fadmin/", 404),
        ("GET", "/api/v1/conversations/not-an-id!/", 404),
        ("POST", "/api/v1/chat", 404),
        ("PUT", "/api/v1/conversations/", 405),
        ("GET", "/api/v1/conversations/?" + "&".join(f"p{i}=1" for i in range(2000)), 400),
        ("GET", "/api/v1/conversations/?cursor=%00", 400),
    ],
)
def test_error_answers_under_api_are_json_with_debug_on(
    debug_server: Server, token: str, method: str, path: str, status: int
) -> None:
    got, content_type, raw = send(debug_server, method, path, headers=auth(token), body=b"{}")
    assert got == status, raw[:300]
    assert_json_error(content_type, raw)


@pytest.mark.parametrize(
    ("path", "raw", "field"),
    [
        ("/api/v1/chat/", b'{"message": "hello\\ud800world"}', "message"),
        ("/api/v1/chat/", b'{"message": "hello\\u0000world"}', "message"),
        ("/api/v1/conversations/", b'{"metadata": {"a": "\\ud800"}}', "metadata"),
        ("/api/v1/agents/", b'{"name": "poison", "config": {"source": "\\ud800"}}', "config"),
        ("/api/v1/chat/", b'{"message": ' + b"[" * 2000 + b"]" * 2000 + b"}", "detail"),
        ("/api/v1/intents/classify/", b'{"message": ' + b"[" * 2000 + b"]" * 2000 + b"}", "detail"),
        ("/api/v1/conversations/", b"{nope", "detail"),
    ],
)
def test_bad_bodies_are_a_quick_json_400_with_debug_on(
    debug_server: Server, token: str, world: World, path: str, raw: bytes, field: str
) -> None:
    started = time.monotonic()
    status, content_type, answer = send(debug_server, "POST", path, body=raw, headers=auth(token))
    assert status == 400, answer[:300]
    assert field in assert_json_error(content_type, answer)
    assert time.monotonic() - started < 2  # no debug page rendered on the way
    assert not Conversation.objects.for_tenant(world.tenant_a).exists()
    assert debug_server.request("GET", "/api/v1/conversations/", token=token)[0] == 200


def test_a_body_over_the_limit_is_a_json_413_with_debug_on(
    debug_server: Server, token: str
) -> None:
    big = json.dumps({"message": "x" * 3_000_000}).encode()
    status, content_type, raw = send(
        debug_server, "POST", "/api/v1/chat/", body=big, headers=auth(token)
    )
    assert status == 413
    assert "larger than" in assert_json_error(content_type, raw)["detail"]


def test_a_chunked_body_is_read_and_a_chunked_body_over_the_limit_is_a_413(
    debug_server: Server, token: str, world: World
) -> None:
    body = json.dumps({"title": "sent in chunks"}).encode()
    status, _, raw = send(
        debug_server, "POST", "/api/v1/conversations/", body=body, headers=auth(token), chunked=True
    )
    assert status == 201, raw
    assert json.loads(raw)["title"] == "sent in chunks"

    big = json.dumps({"title": "x" * 3_000_000}).encode()
    status, content_type, raw = send(
        debug_server, "POST", "/api/v1/conversations/", body=big, headers=auth(token), chunked=True
    )
    assert status == 413
    assert_json_error(content_type, raw)
    assert Conversation.objects.for_tenant(world.tenant_a).count() == 1


def test_a_url_of_100_kb_is_answered_414_not_dropped(debug_server: Server) -> None:
    status, content_type, raw = send(
        debug_server, "GET", "/api/v1/conversations/?x=" + "a" * 100_000
    )
    assert status == 414
    assert "request line" in assert_json_error(content_type, raw)["detail"]


def test_nothing_above_left_a_traceback_in_the_server_log(debug_server: Server) -> None:
    # Runs last in this module: every refusal above was answered, none of them crashed.
    assert "Traceback" not in debug_server.log()
