"""The runtime's reports: its token, its tenant, repeats and late reports change nothing."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from conversations.agents.services import agent_create
from conversations.models import AgentRun, AgentRunEvent
from conversations.runs.services import run_request
from tests.conftest import World
from tests.conversations.runs.conftest import mint_credentials

pytestmark = pytest.mark.django_db


def _runtime(token: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    return client


@pytest.fixture
def run(world: World) -> AgentRun:
    agent = agent_create(tenant=world.tenant_a, name="lead-digest", created_by=world.owner)
    return run_request(agent=agent, user=world.owner, trigger="api")


def _post(client: APIClient, run: AgentRun, **body: Any) -> Any:
    return client.post(f"/api/v1/runs/{run.id}/events/", body, format="json")


def test_reports_move_the_run_and_the_final_one_is_final(world: World, run: AgentRun) -> None:
    runtime = _runtime(mint_credentials("acme")["token"])
    assert _post(runtime, run, type="started", event_id="e1").status_code == 204
    assert _post(runtime, run, type="progress", summary="40 of 90 leads").status_code == 204
    run.refresh_from_db()
    assert run.status == "running" and run.progress == "40 of 90 leads" and run.started_at
    assert (
        _post(runtime, run, type="succeeded", summary="90 leads", event_id="e3").status_code == 204
    )
    assert _post(runtime, run, type="failed", reason="late", event_id="e4").status_code == 204
    run.refresh_from_db()
    assert run.status == "succeeded" and run.summary == "90 leads" and run.reason == ""
    events = AgentRunEvent.objects.for_tenant(world.tenant_a).filter(run=run)
    assert [(e.type, e.applied) for e in events] == [
        ("started", True), ("progress", True), ("succeeded", True), ("failed", False),
    ]  # fmt: skip


def test_a_repeated_event_id_changes_nothing(world: World, run: AgentRun) -> None:
    runtime = _runtime(mint_credentials("acme")["token"])
    for _ in range(3):
        assert _post(runtime, run, type="progress", summary="one", event_id="p1").status_code == 204
    _post(runtime, run, type="progress", summary="two", event_id="p1")
    run.refresh_from_db()
    assert run.progress == "one"
    assert AgentRunEvent.objects.for_tenant(world.tenant_a).filter(run=run).count() == 1


def test_a_wrong_or_missing_token_is_a_401_and_a_user_token_is_no_runtime_token(
    world: World, run: AgentRun
) -> None:
    mint_credentials("acme")
    assert _post(_runtime("ofrt_not-a-token"), run, type="started").status_code == 401
    assert _post(APIClient(), run, type="started").status_code == 401
    user = world.client(world.owner)  # a user's API token: not a runtime
    assert _post(user, run, type="started").status_code == 401
    run.refresh_from_db()
    assert run.status == "queued"


def test_another_tenants_run_is_a_404(world: World, run: AgentRun) -> None:
    theirs = _runtime(mint_credentials("globex")["token"])
    response = _post(theirs, run, type="succeeded", summary="spoofed")
    assert response.status_code == 404
    run.refresh_from_db()
    assert run.status == "queued" and run.summary == ""


def test_rotated_credentials_stop_the_old_token(world: World, run: AgentRun) -> None:
    old = mint_credentials("acme")["token"]
    new = mint_credentials("acme")["token"]
    assert _post(_runtime(old), run, type="started").status_code == 401
    assert _post(_runtime(new), run, type="started").status_code == 204


@pytest.mark.parametrize(
    "body",
    [
        {"type": "finished"},
        {"type": "succeeded", "summary": 12},
        {"type": "progress", "summary": "x" * 2001},
        {"type": "started", "extra": 1},
        {"type": "failed", "reason": "nul\x00"},
    ],
)
def test_a_bad_report_is_a_400_and_changes_nothing(
    world: World, run: AgentRun, body: dict[str, Any]
) -> None:
    runtime = _runtime(mint_credentials("acme")["token"])
    response = runtime.post(f"/api/v1/runs/{run.id}/events/", body, format="json")
    assert response.status_code == 400, response.content
    assert response["Content-Type"].startswith("application/json")
    run.refresh_from_db()
    assert run.status == "queued"
    assert not AgentRunEvent.objects.for_tenant(world.tenant_a).exists()


def test_summaries_and_reasons_are_encrypted_at_rest(
    world: World, run: AgentRun, settings: Any
) -> None:
    from cryptography.fernet import Fernet
    from django.db import connection

    settings.OMNIFORGE_ENCRYPTION_KEYS = [Fernet.generate_key().decode()]
    runtime = _runtime(mint_credentials("acme")["token"])
    _post(runtime, run, type="succeeded", summary="Q3 revenue: 1.2M", event_id="s")
    with connection.cursor() as cursor:
        cursor.execute("SELECT summary FROM conversations_agentrun WHERE id = %s", [run.id])
        stored = cursor.fetchone()[0]
        cursor.execute("SELECT secret FROM conversations_runtimeconnection")
        secret = cursor.fetchone()[0]
    assert stored.startswith("enc1:") and "revenue" not in stored
    assert secret.startswith("enc1:")
    run.refresh_from_db()
    assert run.summary == "Q3 revenue: 1.2M"


@pytest.mark.django_db(transaction=True)
def test_a_link_is_kept_as_given_and_told_only_when_it_is_a_web_address(world: World) -> None:
    from conversations.runs.services import RunEvent, run_event_apply
    from tests.conversations.chat.test_chat_api import Chat

    agent = agent_create(tenant=world.tenant_a, name="lead-digest", created_by=world.owner)
    chat = Chat(world, world.owner)
    chat.reply("hello")
    told = []
    for link in ("javascript:alert(1)", "https://crm.example.com/report/7"):
        run = run_request(
            agent=agent, user=world.owner, trigger="chat", conversation_id=str(chat.conversation_id)
        )
        run_event_apply(
            tenant_id=world.tenant_a.pk, run_id=run.id,
            event=RunEvent(type="succeeded", summary="done", link=link, event_id="s"),
        )  # fmt: skip
        run.refresh_from_db()
        assert run.link == link
        told.append(chat.client.get(f"/api/v1/conversations/{chat.conversation_id}/messages/"))
    contents = [m["content"] for m in told[-1].json()["results"] if m["role"] == "assistant"]
    assert contents[-2] == "lead-digest finished: done"
    assert (
        contents[-1] == "lead-digest finished: done\n\nThe result: https://crm.example.com/report/7"
    )
