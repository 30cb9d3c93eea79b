"""The API door: text that cannot be stored, hostile shapes and sizes, and the OpenAPI truth.

Each reproduction of a poison input is refused with a 400 naming the field, stores nothing, and
leaves every list readable afterwards, on SQLite and on PostgreSQL (CI runs both).
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client

from conversations.models import Agent, Conversation, Message
from tests.conftest import World

pytestmark = pytest.mark.django_db

API = "/api/v1/"
LONE_SURROGATE = "\ud800"
NUL = "\x00"


def post_raw(client: Any, path: str, raw: str) -> Any:
    """POST a JSON text as written: json.dumps escapes a lone surrogate as \\ud800, as a client
    would send it."""
    return client.generic("POST", path, raw.encode(), content_type="application/json")


def assert_lists_still_work(world: World) -> None:
    for user in (world.owner, world.member):
        client = world.client(user)
        assert client.get(f"{API}conversations/").status_code == 200
        assert client.get(f"{API}agents/").status_code == 200


def nothing_stored(world: World) -> bool:
    return (
        not Conversation.objects.for_tenant(world.tenant_a).exists()
        and not Message.objects.for_tenant(world.tenant_a).exists()
        and not Agent.objects.for_tenant(world.tenant_a).exists()
    )


@pytest.mark.parametrize("bad", [LONE_SURROGATE, NUL, f"ok{NUL}", f"x{LONE_SURROGATE}y"])
@pytest.mark.parametrize(
    ("path", "body", "field"),
    [
        ("conversations/", lambda bad: {"metadata": {"a": bad}}, "metadata"),
        ("conversations/", lambda bad: {"metadata": {"deep": [{"er": bad}]}}, "metadata"),
        ("conversations/", lambda bad: {"metadata": {bad: "key"}}, "metadata"),
        ("conversations/", lambda bad: {"title": bad + "title"}, "title"),
        ("agents/", lambda bad: {"name": "poison", "config": {"source": bad}}, "config"),
        ("agents/", lambda bad: {"name": "poison", "description": bad}, "description"),
        ("chat/", lambda bad: {"message": f"hello{bad}world"}, "message"),
        ("chat/", lambda bad: {"message": "hi", "client_message_id": bad}, "client_message_id"),
        ("intents/classify/", lambda bad: {"message": f"run it{bad}"}, "message"),
    ],
)
def test_text_that_cannot_be_stored_is_a_400_naming_the_field_and_stores_nothing(
    world: World, path: str, body: Any, field: str, bad: str
) -> None:
    response = post_raw(world.client(world.owner), API + path, json.dumps(body(bad)))

    assert response.status_code == 400
    assert response.json() == {field: ["Must be valid Unicode text without NUL characters."]}
    assert nothing_stored(world)
    assert_lists_still_work(world)


@pytest.mark.parametrize("bad", [LONE_SURROGATE, NUL])
def test_patching_metadata_or_config_with_poison_changes_nothing(world: World, bad: str) -> None:
    client = world.client(world.owner)
    conversation = client.post(f"{API}conversations/", {"title": "keep"}, format="json").json()
    agent = client.post(f"{API}agents/", {"name": "reporter"}, format="json").json()

    patched = client.generic(
        "PATCH",
        f"{API}conversations/{conversation['id']}/",
        json.dumps({"metadata": {"a": bad}}).encode(),
        content_type="application/json",
    )
    patched_agent = client.generic(
        "PATCH",
        f"{API}agents/{agent['id']}/",
        json.dumps({"config": {"source": bad}}).encode(),
        content_type="application/json",
    )

    assert patched.status_code == patched_agent.status_code == 400
    stored = Conversation.objects.for_tenant(world.tenant_a).get(id=conversation["id"])
    assert stored.metadata == {} and stored.title == "keep"
    assert Agent.objects.for_tenant(world.tenant_a).get(id=agent["id"]).config == {}
    assert client.get(f"{API}conversations/{conversation['id']}/").status_code == 200
    assert client.get(f"{API}conversations/{conversation['id']}/export/").status_code == 200
    assert_lists_still_work(world)


@pytest.mark.parametrize("path", ["chat/", "intents/classify/", "conversations/"])
def test_json_nested_2000_levels_deep_is_a_400(world: World, path: str) -> None:
    raw = '{"message": ' + "[" * 2000 + "]" * 2000 + "}"
    response = post_raw(world.client(world.owner), API + path, raw)
    assert response.status_code == 400
    assert "nested" in response.json()["detail"]
    assert nothing_stored(world)


def test_json_nested_within_the_bound_is_accepted(world: World) -> None:
    nested: Any = "leaf"
    for _ in range(20):
        nested = {"n": nested}
    response = world.client(world.owner).post(
        f"{API}conversations/", {"metadata": nested}, format="json"
    )
    assert response.status_code == 201


def test_two_thousand_query_parameters_are_a_400(world: World) -> None:
    query = "&".join(f"p{i}=1" for i in range(2000))
    response = world.client(world.owner).get(f"{API}conversations/?{query}")
    assert response.status_code == 400
    assert response.json() == {"detail": "Use at most 50 query parameters."}


@pytest.mark.parametrize("query", ["cursor=%00", "cursor=n1.a%00", "limit=1%00"])
def test_a_nul_in_a_query_parameter_is_a_400_naming_it(world: World, query: str) -> None:
    response = world.client(world.owner).get(f"{API}conversations/?{query}")
    assert response.status_code == 400
    assert query.split("=")[0] in response.json()


def test_a_nul_in_a_parameter_no_endpoint_reads_is_ignored(world: World) -> None:
    response = world.client(world.owner).get(f"{API}conversations/?colour=%00")
    assert response.status_code == 200


def test_a_body_over_the_upload_limit_is_a_json_413(world: World, settings: Any) -> None:
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000
    response = world.client(world.owner).post(f"{API}chat/", {"message": "x" * 2000}, format="json")
    assert response.status_code == 413
    assert response["Content-Type"] == "application/json"
    assert "larger than 1000 bytes" in response.json()["detail"]
    assert nothing_stored(world)


@pytest.mark.parametrize(
    "path",
    [
        "/api/v1/nope/",
        "/api/v1/conversations/not-an-id!/",
        "/api/v1/conversations/a%00b/",
        "/api/v1/../../admin/",
        "/api/",
        "/api/v2/conversations/",
    ],
)
def test_unknown_paths_under_api_are_json_404s(world: World, path: str) -> None:
    response = world.client(world.owner).get(path)
    assert response.status_code == 404
    assert response.json() == {"detail": "Not found."}


def test_a_post_without_the_trailing_slash_is_a_json_404_not_a_redirect(world: World) -> None:
    response = world.client(world.owner).post(f"{API}chat", {"message": "hi"}, format="json")
    assert response.status_code == 404
    assert response.json() == {"detail": "Not found."}
    assert nothing_stored(world)


def test_an_unsupported_media_type_and_a_wrong_method_are_json(world: World) -> None:
    client = world.client(world.owner)
    text = client.generic("POST", f"{API}conversations/", b"hi", content_type="text/plain")
    put = client.put(f"{API}conversations/", {}, format="json")
    assert text.status_code == 415 and "detail" in text.json()
    assert put.status_code == 405 and put["Allow"]
    assert "detail" in put.json()


def test_an_unhandled_error_under_api_is_a_json_500_without_a_trace(
    world: World, monkeypatch: pytest.MonkeyPatch, settings: Any
) -> None:
    from conversations.store import views

    def broken(**kwargs: Any) -> Any:
        raise RuntimeError("secret internals")

    settings.DEBUG = True
    monkeypatch.setattr(views.selectors, "conversation_list", broken)
    client = Client(raise_request_exception=False)
    client.force_login(world.owner)
    response = client.get(f"{API}conversations/")
    assert response.status_code == 500
    assert response.json() == {"detail": "A server error occurred."}
    assert b"secret internals" not in response.content


# --- What the schema says is what the API enforces -------------------------------------------


@pytest.mark.parametrize(
    ("path", "field"),
    [
        ("conversations/?cursor=", "cursor"),
        ("conversations/?cursor=0", "cursor"),
        ("conversations/?limit=0", "limit"),
        ("conversations/?limit=101", "limit"),
        ("agents/?cursor=", "cursor"),
        ("agents/?cursor=0", "cursor"),
        ("agents/?limit=0", "limit"),
    ],
)
def test_list_query_parameters_the_schema_forbids_are_refused(
    world: World, path: str, field: str
) -> None:
    response = world.client(world.owner).get(API + path)
    assert response.status_code == 400
    assert field in response.json()


@pytest.mark.parametrize("query", ["before=", "after=", "before=x!", "limit=0", "limit=101"])
def test_message_page_parameters_the_schema_forbids_are_refused(world: World, query: str) -> None:
    client = world.client(world.owner)
    conversation = client.post(f"{API}conversations/", {}, format="json").json()
    response = client.get(f"{API}conversations/{conversation['id']}/messages/?{query}")
    assert response.status_code == 400
    assert query.split("=")[0] in response.json()


@pytest.mark.parametrize(
    ("path", "body", "field"),
    [
        ("intents/classify/", {"message": 5}, "message"),
        ("chat/", {"message": 5}, "message"),
        ("chat/", {"message": True}, "message"),
        ("chat/", {"message": "hi", "client_message_id": 7}, "client_message_id"),
        ("chat/", {"message": "hi", "client_message_id": "x" * 65}, "client_message_id"),
        ("chat/", {"message": "hi", "client_message_id": ""}, "client_message_id"),
        ("chat/", {"message": "hi", "conversation_id": "not/an/id"}, "conversation_id"),
        ("conversations/", {"title": ""}, "title"),
        ("conversations/", {"title": "   "}, "title"),
        ("conversations/", {"title": 12}, "title"),
        ("conversations/", {"metadata": ["not", "an", "object"]}, "metadata"),
        ("conversations/", {"metadata": "text"}, "metadata"),
        ("conversations/", {"surprise": 1}, "surprise"),
        ("agents/", {"name": "!!!"}, "name"),
        ("agents/", {"name": "x" * 81}, "name"),
        ("agents/", {"name": "ok", "config": "text"}, "config"),
        ("agents/", {"name": "ok", "config": {"source": 3}}, "config"),
        ("agents/", {"name": "ok", "owner": "me"}, "owner"),
    ],
)
def test_bodies_the_schema_forbids_are_refused(
    world: World, path: str, body: dict[str, Any], field: str
) -> None:
    response = world.client(world.owner).post(API + path, body, format="json")
    assert response.status_code == 400
    assert field in response.json()
    assert nothing_stored(world)


def test_an_agent_without_config_is_created_as_the_contract_says(world: World) -> None:
    response = world.client(world.owner).post(
        f"{API}agents/", {"name": "Plain Agent"}, format="json"
    )
    assert response.status_code == 201
    assert response.json()["name"] == "plain-agent"
    assert response.json()["config"] == {}


def test_the_schema_documents_the_errors_and_the_constraints(world: World) -> None:
    schema = world.client(None).get("/api/schema/", HTTP_ACCEPT="application/json").json()
    paths, components = schema["paths"], schema["components"]["schemas"]
    create = paths["/api/v1/conversations/"]["post"]["responses"]
    assert {"201", "400", "401", "403", "413", "415", "429"} <= set(create)
    assert "404" in paths["/api/v1/conversations/{conversation_id}/"]["get"]["responses"]
    assert "409" in paths["/api/v1/chat/"]["post"]["responses"]
    chat = components["ChatMessageRequest"]
    assert chat["additionalProperties"] is False
    assert chat["properties"]["client_message_id"]["maxLength"] == 64
    assert chat["properties"]["message"]["maxLength"] == 16000
    assert components["ConversationWriteRequest"]["properties"]["metadata"]["type"] == "object"
    agent = components["AgentWriteRequest"]
    assert "config" not in agent["required"]
    assert agent["properties"]["name"]["pattern"]
    limit = next(
        p for p in paths["/api/v1/conversations/"]["get"]["parameters"] if p["name"] == "limit"
    )
    assert (limit["schema"]["minimum"], limit["schema"]["maximum"]) == (1, 100)
