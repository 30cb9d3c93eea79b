from __future__ import annotations

import json
from typing import Any

import pytest

from conversations.models import Conversation, Message
from conversations.store import services
from tests.conftest import World

pytestmark = pytest.mark.django_db

BASE = "/api/v1/conversations/"


def make_conversation(
    world: World, user: Any = None, messages: int = 0, title: str = ""
) -> Conversation:
    user = user or world.owner
    tenant = world.tenant_b if user == world.outsider else world.tenant_a
    conversation = services.conversation_create(tenant=tenant, user=user, title=title)
    for i in range(messages):
        role = "user" if i % 2 == 0 else "assistant"
        services.message_add(conversation=conversation, role=role, content=f"message {i + 1}")
    return conversation


# --- Create, read, update, delete ------------------------------------------------------------


def test_it_creates_a_conversation_with_an_opaque_time_sortable_id(world: World) -> None:
    first = world.client(world.owner).post(BASE, {"title": "Q3 planning"}, format="json")
    second = world.client(world.owner).post(BASE, {}, format="json")
    assert first.status_code == 201
    body = first.json()
    assert set(body) == {"id", "title", "created_at", "updated_at", "message_count", "metadata"}
    assert body["title"] == "Q3 planning"
    assert body["message_count"] == 0
    assert len(body["id"]) == 26 and body["id"] < second.json()["id"]
    stored = Conversation.objects.for_tenant(world.tenant_a).get(id=body["id"])
    assert stored.user == world.owner


def test_it_lists_the_callers_conversations_newest_activity_first(world: World) -> None:
    old = make_conversation(world, title="old")
    new = make_conversation(world, title="new")
    make_conversation(world, user=world.member, title="someone else's")
    make_conversation(world, user=world.outsider, title="other tenant")
    services.message_add(conversation=old, role="user", content="bump")

    response = world.client(world.owner).get(BASE)

    assert response.status_code == 200
    body = response.json()
    assert [c["id"] for c in body["results"]] == [old.id, new.id]
    assert body["next"] is None and body["previous"] is None


def test_it_pages_conversations_with_keyset_cursors_both_ways(world: World) -> None:
    ids = [make_conversation(world, title=f"c{i}").id for i in range(7)]
    newest_first = list(reversed(ids))
    client = world.client(world.owner)

    page1 = client.get(BASE, {"limit": 3}).json()
    page2 = client.get(page1["next"]).json()
    page3 = client.get(page2["next"]).json()
    back = client.get(page3["previous"]).json()

    assert [c["id"] for c in page1["results"]] == newest_first[:3]
    assert [c["id"] for c in page2["results"]] == newest_first[3:6]
    assert [c["id"] for c in page3["results"]] == newest_first[6:]
    assert page3["next"] is None
    assert page1["previous"] is None
    assert [c["id"] for c in back["results"]] == newest_first[3:6]


def test_the_conversation_list_costs_a_fixed_number_of_queries(
    world: World, django_assert_num_queries: Any
) -> None:
    for _ in range(15):
        make_conversation(world, messages=2)
    client = world.client(world.owner)
    client.get(BASE)  # warm the token and membership lookups' code paths
    # token + user, membership + tenant, the page
    with django_assert_num_queries(3):
        response = client.get(BASE, {"limit": 10})
    assert len(response.json()["results"]) == 10


def test_it_renames_a_conversation(world: World) -> None:
    conversation = make_conversation(world)
    response = world.client(world.owner).patch(
        f"{BASE}{conversation.id}/", {"title": "  Renamed  "}, format="json"
    )
    assert response.status_code == 200
    assert response.json()["title"] == "Renamed"
    conversation.refresh_from_db()
    assert conversation.title == "Renamed"


def test_it_updates_metadata_only_with_a_json_object(world: World) -> None:
    conversation = make_conversation(world)
    url = f"{BASE}{conversation.id}/"
    client = world.client(world.owner)
    assert client.patch(url, {"metadata": {"pinned": True}}, format="json").status_code == 200
    bad = client.patch(url, {"metadata": ["not", "an", "object"]}, format="json")
    assert bad.status_code == 400
    assert "metadata" in bad.json()
    conversation.refresh_from_db()
    assert conversation.metadata == {"pinned": True}


def test_it_deletes_a_conversation_and_its_messages(world: World) -> None:
    conversation = make_conversation(world, messages=4)
    response = world.client(world.owner).delete(f"{BASE}{conversation.id}/")
    assert response.status_code == 204
    assert not Conversation.objects.for_tenant(world.tenant_a).filter(id=conversation.id).exists()
    assert (
        not Message.objects.for_tenant(world.tenant_a)
        .filter(conversation_id=conversation.id)
        .exists()
    )


# --- Messages and export ---------------------------------------------------------------------


def test_it_pages_messages_backwards_oldest_first_within_a_page(world: World) -> None:
    conversation = make_conversation(world, messages=7)
    client = world.client(world.owner)
    url = f"{BASE}{conversation.id}/messages/"

    latest = client.get(url, {"limit": 3}).json()
    older = client.get(latest["next"]).json()
    oldest = client.get(older["next"]).json()
    newer_again = client.get(oldest["previous"]).json()

    contents = lambda page: [m["content"] for m in page["results"]]  # noqa: E731
    assert contents(latest) == ["message 5", "message 6", "message 7"]
    assert contents(older) == ["message 2", "message 3", "message 4"]
    assert contents(oldest) == ["message 1"]
    assert oldest["next"] is None
    assert latest["previous"] is None
    assert contents(newer_again) == ["message 2", "message 3", "message 4"]
    first = latest["results"][0]
    assert set(first) == {"id", "conversation_id", "role", "content", "created_at", "metadata"}
    assert first["conversation_id"] == conversation.id


def test_the_message_list_costs_a_fixed_number_of_queries(
    world: World, django_assert_num_queries: Any
) -> None:
    conversation = make_conversation(world, messages=30)
    client = world.client(world.owner)
    url = f"{BASE}{conversation.id}/messages/"
    last_id = client.get(url).json()["results"][-1]["id"]
    # token + user, membership + tenant, conversation, cursor's seq, the page
    with django_assert_num_queries(5):
        response = client.get(url, {"limit": 20, "before": last_id})
    assert len(response.json()["results"]) == 20


def test_a_cursor_naming_a_message_of_another_conversation_is_a_404(world: World) -> None:
    mine = make_conversation(world, messages=2)
    other = make_conversation(world, messages=2)
    foreign_id = Message.objects.for_tenant(world.tenant_a).filter(conversation=other).first().id
    response = world.client(world.owner).get(f"{BASE}{mine.id}/messages/", {"before": foreign_id})
    assert response.status_code == 404


def test_before_and_after_together_give_the_messages_between_them(world: World) -> None:
    conversation = make_conversation(world, messages=6)
    ids = list(conversation.messages.order_by("seq").values_list("id", flat=True))
    response = world.client(world.owner).get(
        f"{BASE}{conversation.id}/messages/", {"after": ids[0], "before": ids[4]}
    )
    assert [m["id"] for m in response.json()["results"]] == ids[1:4]


@pytest.mark.parametrize(
    "params",
    [{"limit": "abc"}, {"limit": "0"}, {"limit": "-5"}, {"before": "x!"}, {"after": ""}],
)
def test_bad_message_query_parameters_are_a_400(world: World, params: dict[str, str]) -> None:
    conversation = make_conversation(world, messages=1)
    response = world.client(world.owner).get(f"{BASE}{conversation.id}/messages/", params)
    assert response.status_code == 400


def test_a_limit_over_100_is_refused_as_the_schema_says(world: World) -> None:
    make_conversation(world)
    client = world.client(world.owner)
    assert client.get(BASE, {"limit": 100}).status_code == 200
    response = client.get(BASE, {"limit": 5000})
    assert response.status_code == 400
    assert "limit" in response.json()


def test_it_exports_markdown_and_json_files(world: World) -> None:
    conversation = make_conversation(world, messages=3, title="Export me")
    client = world.client(world.owner)
    md = client.get(f"{BASE}{conversation.id}/export/", {"format": "markdown"})
    js = client.get(f"{BASE}{conversation.id}/export/", {"format": "json"})

    assert md.status_code == 200
    assert md["Content-Type"].startswith("text/markdown")
    assert f'filename="conversation-{conversation.id}.md"' in md["Content-Disposition"]
    text = md.content.decode()
    assert text.startswith("# Export me")
    assert text.index("message 1") < text.index("message 2") < text.index("message 3")

    assert js.status_code == 200
    payload = json.loads(js.content)
    assert payload["conversation"]["id"] == conversation.id
    assert [m["content"] for m in payload["messages"]] == ["message 1", "message 2", "message 3"]


def test_an_unknown_export_format_is_a_400(world: World) -> None:
    conversation = make_conversation(world)
    response = world.client(world.owner).get(f"{BASE}{conversation.id}/export/", {"format": "pdf"})
    assert response.status_code == 400
    assert "format" in response.json()


BROWSER_ACCEPT = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"


@pytest.mark.parametrize(
    ("fmt", "accept"),
    [
        ("markdown", "application/xml"),
        ("json", "application/xml"),
        ("markdown", "application/json"),
        (None, "application/json"),  # the default format is Markdown
        ("json", "text/markdown"),
        ("json", "text/*"),
    ],
)
def test_an_export_asking_for_a_type_other_than_its_formats_is_a_406(
    world: World, fmt: str | None, accept: str
) -> None:
    conversation = make_conversation(world, messages=2)
    query = {"format": fmt} if fmt else {}
    response = world.client(world.owner).get(
        f"{BASE}{conversation.id}/export/", query, HTTP_ACCEPT=accept
    )
    assert response.status_code == 406
    assert response["Content-Type"] == "application/json"
    assert response.json() == {"detail": "Could not satisfy the request Accept header."}


@pytest.mark.parametrize(
    ("fmt", "accept", "answer"),
    [
        (None, None, "text/markdown"),
        (None, "*/*", "text/markdown"),
        ("markdown", "text/markdown", "text/markdown"),
        ("markdown", "text/*", "text/markdown"),
        ("markdown", BROWSER_ACCEPT, "text/markdown"),
        ("json", None, "application/json"),
        ("json", "application/json", "application/json"),
        ("json", "application/*", "application/json"),
        ("json", BROWSER_ACCEPT, "application/json"),
    ],
)
def test_an_export_answers_an_accept_of_its_formats_type_or_any_type(
    world: World, fmt: str | None, accept: str | None, answer: str
) -> None:
    conversation = make_conversation(world, messages=2)
    query = {"format": fmt} if fmt else {}
    headers = {"HTTP_ACCEPT": accept} if accept else {}
    response = world.client(world.owner).get(f"{BASE}{conversation.id}/export/", query, **headers)
    assert response.status_code == 200
    assert response["Content-Type"].partition(";")[0] == answer
    assert "message 2" in response.content.decode()


@pytest.mark.parametrize(
    "body",
    [
        {"title": "x" * 201},
        {"title": {"nested": 1}},
        {"metadata": "nope"},
    ],
)
def test_bad_conversation_bodies_are_a_400_and_store_nothing(world: World, body: Any) -> None:
    response = world.client(world.owner).post(BASE, body, format="json")
    assert response.status_code == 400
    assert not Conversation.objects.for_tenant(world.tenant_a).exists()


def test_a_body_that_is_not_json_is_a_400(world: World) -> None:
    response = world.client(world.owner).generic(
        "POST", BASE, "{not json", content_type="application/json"
    )
    assert response.status_code == 400
    assert "detail" in response.json()


def test_a_bad_list_cursor_is_a_400(world: World) -> None:
    response = world.client(world.owner).get(BASE, {"cursor": "garbage!!"})
    assert response.status_code == 400


# --- Isolation: every endpoint ---------------------------------------------------------------

ENDPOINTS = [
    ("get", "{base}{id}/"),
    ("patch", "{base}{id}/"),
    ("delete", "{base}{id}/"),
    ("get", "{base}{id}/messages/"),
    ("get", "{base}{id}/export/"),
]


@pytest.mark.parametrize(("method", "template"), ENDPOINTS)
@pytest.mark.parametrize("intruder", ["member", "outsider"])
def test_another_users_conversation_is_a_404(
    world: World, method: str, template: str, intruder: str
) -> None:
    conversation = make_conversation(world, messages=2, title="private")
    client = world.client(getattr(world, intruder))
    url = template.format(base=BASE, id=conversation.id)
    response = (
        getattr(client, method)(url, {"title": "hijack"}, format="json")
        if method == "patch"
        else getattr(client, method)(url)
    )
    assert response.status_code == 404
    assert response.json() == {"detail": "Not found."}
    conversation.refresh_from_db()
    assert conversation.title == "private" and conversation.message_count == 2


@pytest.mark.parametrize(
    ("method", "template"), [*ENDPOINTS, ("get", "{base}"), ("post", "{base}")]
)
def test_anonymous_callers_get_a_401(world: World, method: str, template: str) -> None:
    conversation = make_conversation(world)
    response = getattr(world.client(None), method)(template.format(base=BASE, id=conversation.id))
    assert response.status_code == 401
    assert response["WWW-Authenticate"] == "Token"


def test_a_user_without_a_tenant_gets_a_403(world: World, django_user_model: Any) -> None:
    loner = django_user_model.objects.create_user("loner", password="pw-loner-1")
    response = world.client(loner).get(BASE)
    assert response.status_code == 403


def test_the_browser_session_authenticates_too(world: World, client: Any) -> None:
    make_conversation(world, title="via session")
    client.force_login(world.owner)
    response = client.get(BASE)
    assert response.status_code == 200
    assert response.json()["results"][0]["title"] == "via session"


def test_the_openapi_document_describes_the_api(world: World) -> None:
    response = world.client(None).get("/api/schema/", HTTP_ACCEPT="application/json")
    assert response.status_code == 200
    paths = response.json()["paths"]
    for path in (
        "/api/v1/conversations/",
        "/api/v1/conversations/{conversation_id}/",
        "/api/v1/conversations/{conversation_id}/messages/",
        "/api/v1/conversations/{conversation_id}/export/",
    ):
        assert path in paths
        refused = paths[path]["get"]["responses"]["406"]["content"]["application/json"]
        assert refused["schema"] == {"$ref": "#/components/schemas/Error"}
    docs = world.client(None).get("/api/docs/")
    assert docs.status_code == 200
    # Swagger UI comes from our own static files: the page works without internet access.
    assert "/static/drf_spectacular_sidecar/swagger-ui-dist/" in docs.content.decode()


def test_the_openapi_document_is_valid_and_generates_without_warnings(tmp_path: Any) -> None:
    from django.core.management import call_command

    target = tmp_path / "schema.yaml"
    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(target))
    assert "/api/v1/chat/:" in target.read_text()
