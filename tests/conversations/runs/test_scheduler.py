"""Schedules fire each slot once: run_due_agents and the beat's tick share one service."""

from __future__ import annotations

from datetime import UTC, datetime
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from conversations.agents.services import agent_create
from conversations.models import Agent, AgentRun
from conversations.runs.tasks import runs_tick_once
from tests.conftest import World

pytestmark = pytest.mark.django_db

DAILY_9 = {"rrule": "FREQ=DAILY;BYHOUR=9;BYMINUTE=0", "timezone": "UTC"}


def _at(text: str) -> datetime:
    return datetime.fromisoformat(text).replace(tzinfo=UTC)


@pytest.fixture
def daily(world: World) -> Agent:
    agent = agent_create(
        tenant=world.tenant_a, name="morning-brief", created_by=world.owner, schedule=DAILY_9
    )
    Agent.objects.for_tenant(world.tenant_a).filter(id=agent.id).update(
        next_run_at=_at("2026-12-01T09:00")
    )
    agent.refresh_from_db()
    return agent


def _runs(agent: Agent) -> list[AgentRun]:
    return list(AgentRun.objects.for_tenant(agent.tenant_id).filter(agent=agent).order_by("slot"))


def _due(*args: str) -> str:
    out = StringIO()
    call_command("run_due_agents", *args, stdout=out)
    return out.getvalue()


def test_a_due_slot_fires_once_and_the_next_one_is_set(daily: Agent) -> None:
    assert "enqueued: 1" in _due("--as-of", "2026-12-01T09:00:30")
    [run] = _runs(daily)
    assert run.trigger == "schedule" and run.slot == _at("2026-12-01T09:00")
    assert run.status == "queued" and run.requested_by is None
    daily.refresh_from_db()
    assert daily.next_run_at == _at("2026-12-02T09:00")
    assert "enqueued: 0" in _due("--as-of", "2026-12-01T09:00:40")
    assert len(_runs(daily)) == 1


def test_a_second_scheduler_that_saw_the_same_slot_fires_nothing_twice(daily: Agent) -> None:
    runs_tick_once(now=_at("2026-12-01T09:00:30"))
    # A second beat read the agent before the first moved it on: it tries the same slot.
    Agent.objects.for_tenant(daily.tenant_id).filter(id=daily.id).update(
        next_run_at=_at("2026-12-01T09:00")
    )
    runs_tick_once(now=_at("2026-12-01T09:00:45"))
    assert [run.slot for run in _runs(daily)] == [_at("2026-12-01T09:00")]


def test_a_paused_agent_does_not_fire(daily: Agent) -> None:
    Agent.objects.for_tenant(daily.tenant_id).filter(id=daily.id).update(
        paused_at=_at("2026-11-30T00:00")
    )
    assert "due: 0" in _due("--as-of", "2026-12-01T09:00:30")
    assert _runs(daily) == []


def test_after_an_outage_the_latest_slot_fires_and_older_ones_are_skipped(daily: Agent) -> None:
    counts = runs_tick_once(now=_at("2026-12-05T09:05"))  # within the 900 s grace of 09:00
    assert counts["enqueued"] == 1
    skipped, fired = _runs(daily)
    assert fired.slot == _at("2026-12-05T09:00") and fired.status == "queued"
    assert skipped.status == "cancelled" and skipped.slot == _at("2026-12-01T09:00")
    assert skipped.reason.startswith("Skipped 4 scheduled time(s)")
    daily.refresh_from_db()
    assert daily.next_run_at == _at("2026-12-06T09:00")


def test_a_slot_older_than_the_grace_is_skipped_not_fired(daily: Agent) -> None:
    counts = runs_tick_once(now=_at("2026-12-05T10:00"))
    assert counts["enqueued"] == 0
    [skipped] = _runs(daily)
    assert skipped.status == "cancelled" and skipped.reason.startswith("Skipped 5 ")


def test_a_dry_run_counts_and_changes_nothing(daily: Agent) -> None:
    out = _due("--dry-run", "--as-of", "2026-12-01T09:01")
    assert "due: 1" in out and "would enqueue: 1" in out
    assert _runs(daily) == []
    daily.refresh_from_db()
    assert daily.next_run_at == _at("2026-12-01T09:00")


def test_many_due_agents_fire_in_batches_until_none_is_left(world: World) -> None:
    from conversations.runs import scheduler

    for n in range(7):
        agent_create(tenant=world.tenant_a, name=f"a{n}", schedule=DAILY_9)
    Agent.objects.for_tenant(world.tenant_a).update(next_run_at=_at("2026-12-01T09:00"))
    batch, scheduler.BATCH = scheduler.BATCH, 3
    try:
        counts = runs_tick_once(now=_at("2026-12-01T09:00:10"))
    finally:
        scheduler.BATCH = batch
    assert counts["due"] == 7 and counts["enqueued"] == 7
    assert AgentRun.objects.for_tenant(world.tenant_a).count() == 7


def test_a_bad_as_of_is_refused_with_a_reason() -> None:
    with pytest.raises(CommandError, match="ISO date-time"):
        _due("--as-of", "next tuesday")
