"""The runs endpoints, and an agent's schedule as the API takes it."""

from __future__ import annotations

from typing import Any

import pytest

from conversations.agents.services import agent_create
from conversations.models import Agent, AgentRun
from conversations.runs.services import run_request
from tests.conftest import World

pytestmark = pytest.mark.django_db

WEEKLY = {"rrule": "FREQ=WEEKLY;BYDAY=MO;BYHOUR=9;BYMINUTE=0", "timezone": "Europe/Berlin"}


@pytest.fixture
def agent(world: World) -> Agent:
    return agent_create(tenant=world.tenant_a, name="lead-digest", created_by=world.owner)


def test_run_now_lists_newest_first_and_reads_one(world: World, agent: Agent) -> None:
    client = world.client(world.member)
    made = [client.post(f"/api/v1/agents/{agent.id}/runs/") for _ in range(3)]
    assert [m.status_code for m in made] == [201, 201, 201]
    ids = [m.json()["id"] for m in made]
    listed = client.get("/api/v1/runs/?limit=2").json()
    assert [r["id"] for r in listed["results"]] == ids[::-1][:2]
    assert listed["next"] and listed["previous"] is None
    rest = client.get(listed["next"]).json()
    assert [r["id"] for r in rest["results"]] == [ids[0]]
    per_agent = client.get(f"/api/v1/agents/{agent.id}/runs/").json()["results"]
    assert [r["id"] for r in per_agent] == ids[::-1]
    one = client.get(f"/api/v1/runs/{ids[0]}/").json()
    assert set(one) == {
        "id", "agent_id", "agent_name", "status", "trigger", "requested_at", "started_at",
        "finished_at", "summary", "link", "reason", "conversation_id",
    }  # fmt: skip
    assert one["trigger"] == "api" and one["agent_id"] == agent.id


def test_cancel_ends_a_run_and_an_ended_run_stays_as_it_was(world: World, agent: Agent) -> None:
    run = run_request(agent=agent, user=world.owner, trigger="api")
    client = world.client(world.owner)
    cancelled = client.post(f"/api/v1/runs/{run.id}/cancel/")
    assert cancelled.status_code == 200 and cancelled.json()["status"] == "cancelled"
    assert cancelled.json()["finished_at"]
    again = client.post(f"/api/v1/runs/{run.id}/cancel/")
    assert again.json()["finished_at"] == cancelled.json()["finished_at"]


def test_another_tenants_runs_are_404s(world: World, agent: Agent) -> None:
    run = run_request(agent=agent, user=world.owner, trigger="api")
    outsider = world.client(world.outsider)
    assert outsider.get(f"/api/v1/runs/{run.id}/").status_code == 404
    assert outsider.post(f"/api/v1/runs/{run.id}/cancel/").status_code == 404
    assert outsider.get(f"/api/v1/agents/{agent.id}/runs/").status_code == 404
    assert outsider.post(f"/api/v1/agents/{agent.id}/runs/").status_code == 404
    assert outsider.get("/api/v1/runs/").json()["results"] == []
    assert AgentRun.objects.for_tenant(world.tenant_a).count() == 1
    assert world.client(None).get("/api/v1/runs/").status_code == 401


def test_a_schedule_is_stored_as_data_and_next_run_at_follows_it(world: World) -> None:
    client = world.client(world.owner)
    made = client.post(
        "/api/v1/agents/", {"name": "Weekly Digest", "schedule": WEEKLY}, format="json"
    )
    assert made.status_code == 201, made.content
    body = made.json()
    assert body["schedule"] == WEEKLY
    assert body["next_run_at"] is not None
    agent_url = f"/api/v1/agents/{body['id']}/"
    paused = client.patch(agent_url, {"paused": True}, format="json").json()
    assert paused["next_run_at"] is None and paused["schedule"] == WEEKLY
    resumed = client.patch(agent_url, {"paused": False}, format="json").json()
    assert resumed["next_run_at"] is not None
    daily = {"rrule": "RRULE:freq=daily;byhour=7;byminute=30", "timezone": "America/Chicago"}
    changed = client.patch(agent_url, {"schedule": daily}, format="json").json()
    assert changed["schedule"] == {
        "rrule": "FREQ=DAILY;BYHOUR=7;BYMINUTE=30",
        "timezone": "America/Chicago",
    }
    assert changed["next_run_at"] != resumed["next_run_at"]
    cleared = client.patch(agent_url, {"schedule": None}, format="json").json()
    assert cleared["schedule"] is None and cleared["next_run_at"] is None
    # next_run_at is the server's: a client cannot write it.
    refused = client.patch(agent_url, {"next_run_at": "2030-01-01T00:00:00Z"}, format="json")
    assert refused.status_code == 400


@pytest.mark.parametrize(
    "schedule",
    [
        "every monday",
        {"rrule": "FREQ=WEEKLY"},
        {"rrule": "FREQ=WEEKLY", "timezone": "Mars/Olympus"},
        {"rrule": "FREQ=SECONDLY", "timezone": "UTC"},
        {"rrule": "FREQ=DAILY;COUNT=3", "timezone": "UTC"},
        {"rrule": "DTSTART:20260101T000000Z\nRRULE:FREQ=DAILY", "timezone": "UTC"},
        {"rrule": "BYHOUR=9", "timezone": "UTC"},
        {"rrule": "FREQ=DAILY;BYHOUR=25", "timezone": "UTC"},
        {"rrule": "FREQ=DAILY", "timezone": "UTC", "extra": 1},
        {"rrule": 5, "timezone": "UTC"},
    ],
)
def test_a_bad_schedule_is_a_400_and_stores_nothing(world: World, schedule: Any) -> None:
    client = world.client(world.owner)
    made = client.post("/api/v1/agents/", {"name": "x", "schedule": schedule}, format="json")
    assert made.status_code == 400, made.content
    assert "schedule" in made.json()
    assert not Agent.objects.for_tenant(world.tenant_a).exists()
