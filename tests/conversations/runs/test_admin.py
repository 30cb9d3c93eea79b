"""The admin's runs pages, the tenant's runtime link and the agents' schedules, as a tenant
admin (ada) drives them: what the pages show, what the actions do, what is stored."""

from __future__ import annotations

import json
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from django.utils.html import escape
from rest_framework.test import APIClient

from conversations.agents.schedules import schedule_clean
from conversations.agents.services import agent_create
from conversations.models import Agent, AgentRun, RuntimeConnection
from conversations.runs.services import RunEvent, run_event_apply, run_request
from tests.conftest import World
from tests.conversations.runs.conftest import mint_credentials

pytestmark = pytest.mark.django_db
RUNS = "/admin/conversations/agentrun/"
CONNECTIONS = "/admin/conversations/runtimeconnection/"
AGENTS = "/admin/conversations/agent/"


def login(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _agent(world: World, name: str, *, tenant: Any = None) -> Agent:
    return agent_create(tenant=tenant or world.tenant_a, name=name, created_by=world.owner)


def _run(agent: Agent, *, status: str, trigger: str = "api") -> AgentRun:
    # Not committed (this test's transaction never is): nothing is handed to a runtime.
    run = run_request(agent=agent, user=None, trigger=trigger)
    AgentRun.objects.for_tenant(agent.tenant_id).filter(id=run.id).update(status=status)
    run.refresh_from_db()
    return run


def _runs_of(agent: Agent) -> list[AgentRun]:
    return list(AgentRun.objects.for_tenant(agent.tenant_id).filter(agent=agent))


def test_a_tenant_admin_sees_the_tenants_runs_and_filters_them(world: World) -> None:
    _run(_agent(world, "lead-digest"), status="failed", trigger="api")
    _run(_agent(world, "invoice-watch"), status="succeeded", trigger="schedule")
    _run(_agent(world, "globex-watch", tenant=world.tenant_b), status="failed")
    client = login(world.admin_a)

    page = client.get(RUNS).content.decode()
    assert "lead-digest" in page and "invoice-watch" in page
    assert "globex-watch" not in page and "globex" not in page.lower()
    failed = client.get(f"{RUNS}?status__exact=failed").content.decode()
    assert "lead-digest" in failed and "invoice-watch" not in failed
    scheduled = client.get(f"{RUNS}?trigger__exact=schedule").content.decode()
    assert "invoice-watch" in scheduled and "lead-digest" not in scheduled


def test_a_member_cannot_open_the_runs(world: World) -> None:
    response = login(world.member).get(RUNS)
    assert response.status_code == 302 and "/admin/login/" in response["Location"]


def test_retrying_a_failed_run_requests_one_new_run_and_a_succeeded_one_none(
    world: World,
) -> None:
    failing = _agent(world, "lead-digest")
    failed = _run(failing, status="failed", trigger="chat")
    fine = _agent(world, "invoice-watch")
    succeeded = _run(fine, status="succeeded")
    client = login(world.admin_a)

    page = client.post(
        RUNS, {"action": "retry_runs", "_selected_action": [failed.id]}, follow=True
    ).content.decode()
    assert "Requested 1 new run(s)." in page
    runs = {run.id: run for run in _runs_of(failing)}
    assert len(runs) == 2 and runs[failed.id].status == AgentRun.Status.FAILED
    new = next(run for run_id, run in runs.items() if run_id != failed.id)
    assert new.status == AgentRun.Status.QUEUED and new.trigger == "chat"
    assert new.requested_by_id == world.admin_a.pk

    page = client.post(
        RUNS, {"action": "retry_runs", "_selected_action": [succeeded.id]}, follow=True
    ).content.decode()
    assert "Requested 0 new run(s)." in page
    assert [run.id for run in _runs_of(fine)] == [succeeded.id]


EVENTS = (
    RunEvent(type="started", event_id="evt-start-1"),
    RunEvent(type="progress", event_id="evt-half-2", summary="40 of 90"),
    RunEvent(type="succeeded", event_id="evt-done-3", summary="90 leads"),
)


def _run_with_events(world: World) -> AgentRun:
    run = _run(_agent(world, "lead-digest"), status="dispatched")
    for event in EVENTS:
        run_event_apply(tenant_id=world.tenant_a.pk, run_id=run.id, event=event)
    return run


def test_a_runs_page_shows_the_run(world: World) -> None:
    run = _run_with_events(world)
    response = login(world.admin_a).get(f"{RUNS}{run.id}/change/")
    assert response.status_code == 200
    assert "90 leads" in response.content.decode()  # the run's summary, read-only


def test_a_runs_page_shows_its_events_to_a_tenant_admin(world: World) -> None:
    run = _run_with_events(world)
    html = login(world.admin_a).get(f"{RUNS}{run.id}/change/").content.decode()
    assert "evt-start-1" in html and "evt-half-2" in html and "evt-done-3" in html
    assert "Started" in html and "Progress" in html and "Succeeded" in html


def test_a_runs_page_shows_its_events_to_a_superuser(world: World, django_user_model: Any) -> None:
    run = _run_with_events(world)
    root = django_user_model.objects.create_superuser("root", "root@example.com", "pw-root-1")
    response = login(root).get(f"{RUNS}{run.id}/change/")
    assert response.status_code == 200
    html = response.content.decode()
    assert "evt-start-1" in html and "evt-half-2" in html and "evt-done-3" in html


def _connection(tenant: Any) -> RuntimeConnection:
    return RuntimeConnection.objects.for_tenant(tenant).get()


def _set_url(client: Client, connection: RuntimeConnection, url: str) -> Any:
    return client.post(f"{CONNECTIONS}{connection.pk}/change/", {"url": url, "_save": "Save"})


@pytest.mark.parametrize(
    ("url", "error"),
    [
        ("http://runtime.example.com/", "The runtime URL must use https."),
        ("https://10.0.0.5/", "The runtime URL must name a public address."),
        ("https://localhost/", "The runtime URL must name a public address."),
    ],
)
def test_a_runtime_url_that_is_not_public_https_is_refused(
    world: World, url: str, error: str
) -> None:
    mint_credentials("acme")
    connection = _connection(world.tenant_a)
    client = login(world.admin_a)
    assert _set_url(client, connection, "https://runtime.example.com/hook").status_code == 302
    assert _connection(world.tenant_a).url == "https://runtime.example.com/hook"

    response = _set_url(client, connection, url)
    assert response.status_code == 200 and error in response.content.decode()
    assert _connection(world.tenant_a).url == "https://runtime.example.com/hook"


def test_an_allowed_host_may_be_named_over_http(world: World, settings: Any) -> None:
    settings.OMNIFORGE_RUNTIME_ALLOWED_HOSTS = ["127.0.0.1"]
    mint_credentials("acme")
    response = _set_url(login(world.admin_a), _connection(world.tenant_a), "http://127.0.0.1:9000/")
    assert response.status_code == 302
    assert _connection(world.tenant_a).url == "http://127.0.0.1:9000/"


def test_a_tenant_admin_cannot_see_another_tenants_connection(world: World) -> None:
    mint_credentials("acme")
    mint_credentials("globex")
    theirs = _connection(world.tenant_b)
    RuntimeConnection.objects.for_tenant(world.tenant_b).update(url="https://globex.example/rt")
    client = login(world.admin_a)
    assert "globex" not in client.get(CONNECTIONS).content.decode().lower()
    response = client.get(f"{CONNECTIONS}{theirs.pk}/change/")
    # Django's admin answers an object outside the queryset with "doesn't exist" and a
    # redirect to the index (302), not a 404 (as for conversations in tests/.../test_admin.py).
    assert response.status_code in (302, 404)
    assert "globex.example" not in client.get(response.get("Location", "/admin/")).content.decode()
    posted = _set_url(client, theirs, "https://evil.example/")
    assert posted.status_code in (302, 403, 404)
    assert _connection(world.tenant_b).url == "https://globex.example/rt"


def _from_message(page: str, label: str, end: str) -> str:
    return page.partition(f"{label} ")[2].partition(end)[0]


def test_rotating_shows_new_credentials_once_and_the_old_token_stops_working(
    world: World,
) -> None:
    old = mint_credentials("acme")
    before = _connection(world.tenant_a)
    run = run_request(agent=_agent(world, "lead-digest"), user=world.owner, trigger="api")
    client = login(world.admin_a)

    page = client.post(
        CONNECTIONS, {"action": "rotate", "_selected_action": [before.pk]}, follow=True
    ).content.decode()
    # "Acme: secret … token … (copy them now…)": the admin capitalizes a message's first letter.
    secret = _from_message(page, "cme: secret", " token ")
    token = _from_message(page, " token", " (copy them now")
    assert secret and token.startswith("ofrt_")
    assert secret != old["secret"] and token != old["token"]
    after = _connection(world.tenant_a)
    assert after.token_digest != before.token_digest and after.secret == secret

    def report(bearer: str) -> int:
        runtime = APIClient()
        runtime.credentials(HTTP_AUTHORIZATION=f"Bearer {bearer}")
        url = f"/api/v1/runs/{run.id}/events/"
        return int(runtime.post(url, {"type": "started"}, format="json").status_code)

    assert report(old["token"]) == 401
    assert report(token) == 204

    shown = client.get(f"{CONNECTIONS}{after.pk}/change/")
    assert shown.status_code == 200
    html = shown.content.decode()
    assert secret not in html and token not in html
    assert after.token_prefix in html


def _post_schedule(client: Client, agent: Agent, schedule: object) -> Any:
    return client.post(
        f"{AGENTS}{agent.id}/change/", {"schedule": json.dumps(schedule), "_save": "Save"}
    )


def test_a_tenant_admin_sets_an_agents_schedule_and_next_run_at_follows(world: World) -> None:
    agent = _agent(world, "invoice-watch")
    client = login(world.admin_a)
    daily = {"rrule": "FREQ=DAILY;BYHOUR=7;BYMINUTE=0", "timezone": "Europe/Berlin"}
    assert _post_schedule(client, agent, daily).status_code == 302
    agent.refresh_from_db()
    assert agent.schedule == daily and agent.next_run_at is not None
    local = agent.next_run_at.astimezone(ZoneInfo("Europe/Berlin"))
    assert (local.hour, local.minute) == (7, 0)
    first_next = agent.next_run_at

    secondly = {"rrule": "FREQ=SECONDLY", "timezone": "UTC"}
    response = _post_schedule(client, agent, secondly)
    with pytest.raises(ValidationError) as refused:
        schedule_clean(secondly)
    assert response.status_code == 200
    assert escape(refused.value.message_dict["schedule"][0]) in response.content.decode()
    agent.refresh_from_db()
    assert agent.schedule == daily and agent.next_run_at == first_next


def test_pausing_from_the_admin_clears_next_run_at_and_resuming_sets_it(world: World) -> None:
    agent = _agent(world, "invoice-watch")
    client = login(world.admin_a)
    daily = {"rrule": "FREQ=DAILY;BYHOUR=7;BYMINUTE=0", "timezone": "Europe/Berlin"}
    _post_schedule(client, agent, daily)

    client.post(AGENTS, {"action": "pause_agents", "_selected_action": [agent.id]})
    agent.refresh_from_db()
    assert agent.paused and agent.next_run_at is None and agent.schedule == daily

    client.post(AGENTS, {"action": "resume_agents", "_selected_action": [agent.id]})
    agent.refresh_from_db()
    assert not agent.paused and agent.next_run_at is not None
    local = agent.next_run_at.astimezone(ZoneInfo("Europe/Berlin"))
    assert (local.hour, local.minute) == (7, 0)
