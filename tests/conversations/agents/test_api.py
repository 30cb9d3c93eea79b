from __future__ import annotations

from typing import Any

import pytest

from conversations.agents import services as agent_services
from conversations.agents.selectors import agent_find
from conversations.models import Agent, Tenant
from tests.conftest import World

pytestmark = pytest.mark.django_db

BASE = "/api/v1/agents/"


def make_agent(tenant: Tenant, name: str, created_by: Any = None, **config: str) -> Agent:
    return agent_services.agent_create(
        tenant=tenant, name=name, config=config, created_by=created_by
    )


def stored_names(tenant: Tenant) -> list[str]:
    return list(Agent.objects.for_tenant(tenant).order_by("name").values_list("name", flat=True))


# --- Create ----------------------------------------------------------------------------------


def test_it_creates_an_agent_with_a_slug_name_and_its_config(world: World) -> None:
    response = world.client(world.owner).post(
        BASE,
        {
            "name": "Jira Monitor",
            "description": "Watches the board",
            "config": {"source": "jira", "schedule": "hourly"},
        },
        format="json",
    )

    assert response.status_code == 201
    body = response.json()
    assert set(body) == {
        "id", "name", "description", "config", "paused", "paused_at", "schedule", "next_run_at",
        "created_at", "updated_at",
    }  # fmt: skip
    assert (body["paused"], body["paused_at"]) == (False, None)
    assert body["name"] == "jira-monitor"
    assert body["description"] == "Watches the board"
    assert body["config"] == {"source": "jira", "schedule": "hourly"}
    stored = Agent.objects.for_tenant(world.tenant_a).get(id=body["id"])
    assert stored.name == "jira-monitor"
    assert stored.config == {"source": "jira", "schedule": "hourly"}
    assert stored.created_by == world.owner


def test_it_refuses_an_unknown_config_key_and_stores_nothing(world: World) -> None:
    response = world.client(world.owner).post(
        BASE, {"name": "reporter", "config": {"source": "notion", "colour": "red"}}, format="json"
    )
    assert response.status_code == 400
    assert response.json()["config"] == {"colour": ["Unknown field."]}
    assert stored_names(world.tenant_a) == []


@pytest.mark.parametrize("value", [["notion"], {"nested": "x"}, True, None])
def test_it_refuses_a_config_value_that_is_not_a_string(world: World, value: Any) -> None:
    response = world.client(world.owner).post(
        BASE, {"name": "reporter", "config": {"source": value}}, format="json"
    )
    assert response.status_code == 400
    assert "config" in response.json()
    assert stored_names(world.tenant_a) == []


def test_a_duplicate_name_in_the_same_tenant_is_a_409_on_name(world: World) -> None:
    make_agent(world.tenant_a, "notion-reporter", source="notion")
    # Different spelling, same slug: the names collide after normalization.
    response = world.client(world.owner).post(BASE, {"name": "Notion Reporter"}, format="json")
    assert response.status_code == 409
    assert response.json() == {"name": ["An agent named 'notion-reporter' already exists."]}
    assert stored_names(world.tenant_a) == ["notion-reporter"]
    assert Agent.objects.for_tenant(world.tenant_a).get().config == {"source": "notion"}


def test_the_same_name_in_another_tenant_is_fine(world: World) -> None:
    make_agent(world.tenant_b, "notion-reporter")
    response = world.client(world.owner).post(BASE, {"name": "notion-reporter"}, format="json")
    assert response.status_code == 201
    assert stored_names(world.tenant_a) == ["notion-reporter"]
    assert stored_names(world.tenant_b) == ["notion-reporter"]


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({}, "name"),
        ({"description": "no name"}, "name"),
        ({"name": "!!!"}, "name"),
        ({"name": ""}, "name"),
        ({"name": "ok", "config": "source=notion"}, "config"),
        ({"name": "ok", "config": ["source", "notion"]}, "config"),
    ],
)
def test_bad_agent_bodies_are_a_400_and_store_nothing(
    world: World, body: dict[str, Any], field: str
) -> None:
    response = world.client(world.owner).post(BASE, body, format="json")
    assert response.status_code == 400
    assert field in response.json()
    assert stored_names(world.tenant_a) == []


def test_a_body_that_is_not_json_is_a_400_and_stores_nothing(world: World) -> None:
    response = world.client(world.owner).generic(
        "POST", BASE, "{not json", content_type="application/json"
    )
    assert response.status_code == 400
    assert "detail" in response.json()
    assert stored_names(world.tenant_a) == []


# --- List ------------------------------------------------------------------------------------


def test_it_lists_only_the_callers_tenants_agents_ordered_by_name(world: World) -> None:
    for name in ("zendesk-triage", "alpha-digest", "notion-reporter"):
        make_agent(world.tenant_a, name)
    make_agent(world.tenant_b, "globex-secret")

    response = world.client(world.owner).get(BASE)

    assert response.status_code == 200
    body = response.json()
    assert [a["name"] for a in body["results"]] == [
        "alpha-digest",
        "notion-reporter",
        "zendesk-triage",
    ]
    assert body["next"] is None and body["previous"] is None


def test_it_pages_agents_with_cursor_links_both_ways(world: World) -> None:
    names = [f"agent-{i:02d}" for i in range(7)]
    for name in reversed(names):
        make_agent(world.tenant_a, name)
    client = world.client(world.owner)

    page1 = client.get(BASE, {"limit": 3}).json()
    page2 = client.get(page1["next"]).json()
    page3 = client.get(page2["next"]).json()
    back = client.get(page3["previous"]).json()

    assert [a["name"] for a in page1["results"]] == names[:3]
    assert [a["name"] for a in page2["results"]] == names[3:6]
    assert [a["name"] for a in page3["results"]] == names[6:]
    assert page1["previous"] is None
    assert page3["next"] is None
    assert [a["name"] for a in back["results"]] == names[3:6]


def test_a_limit_of_100_is_the_most_a_page_holds(world: World) -> None:
    Agent.objects.bulk_create(
        [Agent(tenant=world.tenant_a, name=f"agent-{i:03d}") for i in range(105)]
    )
    client = world.client(world.owner)
    body = client.get(BASE, {"limit": 100}).json()
    assert len(body["results"]) == 100
    assert body["next"] is not None
    refused = client.get(BASE, {"limit": 101})
    assert refused.status_code == 400
    assert "limit" in refused.json()


@pytest.mark.parametrize("agents", [3, 40])
def test_the_agent_list_costs_a_fixed_number_of_queries(
    world: World, django_assert_num_queries: Any, agents: int
) -> None:
    Agent.objects.bulk_create(
        [Agent(tenant=world.tenant_a, name=f"agent-{i:03d}") for i in range(agents)]
    )
    client = world.client(world.owner)
    client.get(BASE)  # warm the token and membership lookups' code paths
    # token + user, membership + tenant, the page
    with django_assert_num_queries(3):
        response = client.get(BASE, {"limit": 20})
    assert len(response.json()["results"]) == min(agents, 20)


def test_the_member_of_the_same_tenant_sees_the_tenants_agents(world: World) -> None:
    created = world.client(world.owner).post(
        BASE, {"name": "Notion Reporter", "config": {"source": "notion"}}, format="json"
    )
    agent_id = created.json()["id"]
    client = world.client(world.member)

    listed = client.get(BASE)
    detail = client.get(f"{BASE}{agent_id}/")

    assert [a["id"] for a in listed.json()["results"]] == [agent_id]
    assert detail.status_code == 200
    assert detail.json()["name"] == "notion-reporter"
    assert detail.json()["config"] == {"source": "notion"}


# --- Detail ----------------------------------------------------------------------------------


def test_it_shows_one_agent(world: World) -> None:
    agent = make_agent(world.tenant_a, "notion-reporter", source="notion")
    response = world.client(world.owner).get(f"{BASE}{agent.id}/")
    assert response.status_code == 200
    assert response.json()["id"] == agent.id
    assert response.json()["name"] == "notion-reporter"
    assert response.json()["config"] == {"source": "notion"}


def test_it_renames_an_agent_to_a_slug(world: World) -> None:
    agent = make_agent(world.tenant_a, "notion-reporter", source="notion")
    response = world.client(world.owner).patch(
        f"{BASE}{agent.id}/", {"name": "Weekly Notion Digest"}, format="json"
    )
    assert response.status_code == 200
    assert response.json()["name"] == "weekly-notion-digest"
    agent.refresh_from_db()
    assert agent.name == "weekly-notion-digest"
    assert agent.config == {"source": "notion"}


def test_patching_config_merges_it_into_the_stored_config(world: World) -> None:
    agent = make_agent(world.tenant_a, "notion-reporter", source="notion", schedule="daily")
    response = world.client(world.owner).patch(
        f"{BASE}{agent.id}/",
        {"config": {"schedule": "weekly", "destination": "#sales"}},
        format="json",
    )
    assert response.status_code == 200
    expected = {"source": "notion", "schedule": "weekly", "destination": "#sales"}
    assert response.json()["config"] == expected
    agent.refresh_from_db()
    assert agent.config == expected
    assert agent.name == "notion-reporter"


def test_renaming_onto_an_existing_name_is_a_409_and_changes_nothing(world: World) -> None:
    make_agent(world.tenant_a, "jira-monitor")
    agent = make_agent(world.tenant_a, "notion-reporter")
    response = world.client(world.owner).patch(
        f"{BASE}{agent.id}/", {"name": "Jira Monitor"}, format="json"
    )
    assert response.status_code == 409
    assert "name" in response.json()
    assert stored_names(world.tenant_a) == ["jira-monitor", "notion-reporter"]


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"name": "!!!"}, "name"),
        ({"config": "weekly"}, "config"),
        ({"config": {"colour": "red"}}, "config"),
        ({"config": {"schedule": ["weekly"]}}, "config"),
        ({"paused": "yes"}, "paused"),
        ({"paused": 1}, "paused"),
        ({"paused": None}, "paused"),
    ],
)
def test_a_bad_patch_is_a_400_and_changes_nothing(
    world: World, body: dict[str, Any], field: str
) -> None:
    agent = make_agent(world.tenant_a, "notion-reporter", schedule="daily")
    response = world.client(world.owner).patch(f"{BASE}{agent.id}/", body, format="json")
    assert response.status_code == 400
    assert field in response.json()
    agent.refresh_from_db()
    assert agent.name == "notion-reporter"
    assert agent.config == {"schedule": "daily"}
    assert agent.paused_at is None


def test_an_agent_is_paused_and_resumed_over_patch(world: World) -> None:
    agent = make_agent(world.tenant_a, "notion-reporter", schedule="daily")
    client = world.client(world.owner)

    paused = client.patch(f"{BASE}{agent.id}/", {"paused": True}, format="json")
    assert paused.status_code == 200
    assert paused.json()["paused"] is True and paused.json()["paused_at"]
    agent.refresh_from_db()
    assert agent.paused_at is not None
    assert agent.config == {"schedule": "daily"}  # nothing else changed
    since = agent.paused_at

    again = client.patch(f"{BASE}{agent.id}/", {"paused": True}, format="json")
    agent.refresh_from_db()
    assert again.json()["paused"] is True and agent.paused_at == since  # still paused since then

    resumed = client.patch(f"{BASE}{agent.id}/", {"paused": False}, format="json")
    assert (resumed.json()["paused"], resumed.json()["paused_at"]) == (False, None)
    agent.refresh_from_db()
    assert agent.paused_at is None


def test_an_agent_may_be_created_paused(world: World) -> None:
    response = world.client(world.owner).post(
        BASE, {"name": "draft-digest", "paused": True}, format="json"
    )
    assert response.status_code == 201 and response.json()["paused"] is True
    assert Agent.objects.for_tenant(world.tenant_a).get(name="draft-digest").paused


def test_its_creator_deletes_an_agent(world: World) -> None:
    agent = make_agent(world.tenant_a, "notion-reporter", created_by=world.owner)
    keep = make_agent(world.tenant_a, "jira-monitor", created_by=world.owner)
    client = world.client(world.owner)

    response = client.delete(f"{BASE}{agent.id}/")

    assert response.status_code == 204
    assert client.get(f"{BASE}{agent.id}/").status_code == 404
    assert stored_names(world.tenant_a) == [keep.name]


def test_another_member_may_not_delete_an_agent_but_a_tenant_admin_may(world: World) -> None:
    agent = make_agent(world.tenant_a, "notion-reporter", created_by=world.owner)

    refused = world.client(world.member).delete(f"{BASE}{agent.id}/")
    assert refused.status_code == 403
    assert stored_names(world.tenant_a) == ["notion-reporter"]

    assert world.client(world.admin_a).delete(f"{BASE}{agent.id}/").status_code == 204
    assert stored_names(world.tenant_a) == []


def test_an_unknown_agent_id_is_a_404(world: World) -> None:
    response = world.client(world.owner).get(f"{BASE}01ARZ3NDEKTSV4RRFFQ69G5FAV/")
    assert response.status_code == 404
    assert response.json() == {"detail": "Not found."}


# --- Isolation -------------------------------------------------------------------------------


@pytest.mark.parametrize("method", ["get", "patch", "delete"])
@pytest.mark.parametrize("intruder", ["owner", "member", "admin_a"])
def test_another_tenants_agent_is_a_404(world: World, method: str, intruder: str) -> None:
    agent = make_agent(world.tenant_b, "globex-secret", source="vault")
    client = world.client(getattr(world, intruder))
    url = f"{BASE}{agent.id}/"
    response = (
        client.patch(url, {"name": "hijacked", "config": {"source": "x"}}, format="json")
        if method == "patch"
        else getattr(client, method)(url)
    )
    assert response.status_code == 404
    assert response.json() == {"detail": "Not found."}
    agent.refresh_from_db()
    assert agent.name == "globex-secret"
    assert agent.config == {"source": "vault"}


@pytest.mark.parametrize("method", ["get", "patch", "delete"])
def test_tenant_a_agents_are_a_404_for_the_outsider(world: World, method: str) -> None:
    agent = make_agent(world.tenant_a, "notion-reporter")
    client = world.client(world.outsider)
    url = f"{BASE}{agent.id}/"
    response = (
        client.patch(url, {"name": "hijacked"}, format="json")
        if method == "patch"
        else getattr(client, method)(url)
    )
    assert response.status_code == 404
    assert stored_names(world.tenant_a) == ["notion-reporter"]


def test_another_tenants_agents_are_never_listed(world: World) -> None:
    for i in range(3):
        make_agent(world.tenant_b, f"globex-{i}")
    for user in (world.owner, world.member, world.admin_a):
        body = world.client(user).get(BASE, {"limit": 100}).json()
        assert body["results"] == []
    outsider = world.client(world.outsider).get(BASE).json()
    assert [a["name"] for a in outsider["results"]] == ["globex-0", "globex-1", "globex-2"]


@pytest.mark.parametrize(
    ("method", "template"),
    [
        ("get", "{base}"),
        ("post", "{base}"),
        ("get", "{base}{id}/"),
        ("patch", "{base}{id}/"),
        ("delete", "{base}{id}/"),
    ],
)
def test_anonymous_callers_get_a_401(world: World, method: str, template: str) -> None:
    agent = make_agent(world.tenant_a, "notion-reporter")
    url = template.format(base=BASE, id=agent.id)
    response = getattr(world.client(None), method)(url, {"name": "anon"}, format="json")
    assert response.status_code == 401
    assert response["WWW-Authenticate"] == "Token"
    assert stored_names(world.tenant_a) == ["notion-reporter"]


def test_the_openapi_document_describes_the_agents_api(world: World) -> None:
    response = world.client(None).get("/api/schema/", HTTP_ACCEPT="application/json")
    assert response.status_code == 200
    paths = response.json()["paths"]
    assert {"get", "post"} <= set(paths["/api/v1/agents/"])
    assert {"get", "patch", "delete"} <= set(paths["/api/v1/agents/{agent_id}/"])


# --- Pausing from the chat ----------------------------------------------------------------------


def chat(world: World, message: str, conversation_id: str | None = None) -> dict[str, Any]:
    body = {"message": message, **({"conversation_id": conversation_id} if conversation_id else {})}
    response = world.client(world.owner).post("/api/v1/chat/", body, format="json")
    assert response.status_code == 200
    return dict(response.json())


def test_the_chat_pauses_lists_runs_and_resumes_an_agent(world: World) -> None:
    make_agent(world.tenant_a, "invoice-watch", source="stripe", schedule="Every day at 08:00")
    make_agent(world.tenant_a, "lead-router", source="hubspot")

    paused = chat(world, "pause invoice-watch")
    said = paused["assistant_message"]["content"]
    assert "Paused invoice-watch" in said and "every day at 08:00" in said
    assert Agent.objects.for_tenant(world.tenant_a).get(name="invoice-watch").paused
    assert not Agent.objects.for_tenant(world.tenant_a).get(name="lead-router").paused
    conversation = paused["conversation_id"]

    listed = chat(world, "list my agents", conversation)["assistant_message"]["content"]
    assert "invoice-watch (paused)" in listed and "lead-router (paused)" not in listed

    ran = chat(world, "run invoice-watch now", conversation)["assistant_message"]["content"]
    assert "invoice-watch can't run yet" in ran and "stays paused" in ran

    resumed = chat(world, "ok, resume it", conversation)["assistant_message"]["content"]
    assert "Resumed invoice-watch" in resumed
    assert not Agent.objects.for_tenant(world.tenant_a).get(name="invoice-watch").paused

    again = chat(world, "resume invoice-watch", conversation)["assistant_message"]["content"]
    assert "isn't paused" in again


@pytest.mark.parametrize(
    "message",
    ["Pausiere invoice-watch bitte erstmal", "pausa invoice-watch", "mets invoice-watch en pause"],
)
def test_a_pause_is_understood_in_other_languages(world: World, message: str) -> None:
    make_agent(world.tenant_a, "invoice-watch", source="stripe")
    chat(world, message)
    assert Agent.objects.for_tenant(world.tenant_a).get(name="invoice-watch").paused


def test_the_chat_says_which_agents_are_paused_and_who_gets_results(world: World) -> None:
    make_agent(world.tenant_a, "invoice-watch", destination="Slack #billing")
    make_agent(world.tenant_a, "lead-router", destination="sales@example.com")
    first = chat(world, "which of my agents are paused right now?")
    assert "None of your agents is paused" in first["assistant_message"]["content"]
    conversation = first["conversation_id"]
    chat(world, "pause lead-router", conversation)
    listed = chat(world, "which of my agents are paused?", conversation)
    said = listed["assistant_message"]["content"]
    assert "lead-router, paused since" in said and "invoice-watch" not in said
    who = chat(world, "who gets the results of invoice-watch?", conversation)
    assert (
        "invoice-watch sends what it finds to Slack #billing" in who["assistant_message"]["content"]
    )


def test_an_agent_the_admin_named_with_capitals_is_found_however_it_is_written(
    world: World,
) -> None:
    # The admin's slug field accepts capitals; the assistant and the @name fast path look
    # names up by their lowercase slug.
    stored = Agent.objects.create(tenant=world.tenant_a, name="Lieferanten-Check")
    assert agent_find(tenant=world.tenant_a, reference="lieferanten check") == stored
    assert agent_find(tenant=world.tenant_a, reference="@Lieferanten-Check") == stored
    assert agent_find(tenant=world.tenant_b, reference="lieferanten-check") is None


def test_an_agent_is_found_by_name_in_one_query(
    world: World, django_assert_num_queries: Any
) -> None:
    make_agent(world.tenant_a, "jira-watch")
    with django_assert_num_queries(1):
        assert agent_find(tenant=world.tenant_a, reference="nothing-like-it") is None
    with django_assert_num_queries(1):
        assert agent_find(tenant=world.tenant_a, reference="Jira Watch") is not None
