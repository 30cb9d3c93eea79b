"""Firing the schedule slots that came due: each slot once, whoever fires it.

Every agent with a schedule carries ``next_run_at``, its next slot. Each tick takes the due
agents batch after bounded batch, earliest first, until none is left; for each, the latest
slot that came due fires if it is at most ``OMNIFORGE_SCHEDULE_GRACE_S`` old, older slots
missed while nothing ran are recorded as one skipped run, not fired in a burst, and
``next_run_at`` moves past now. A run is unique per (agent, slot), so a second beat, an
overlapping tick or a restarted scheduler inserts nothing twice: the insert that loses is
ignored, and the run it would have made is never handed on (it does not exist).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import cast

from django.conf import settings
from django.db import transaction

from conversations.agents.schedules import ScheduleSpec, schedule_due, schedule_next
from conversations.models import Agent, AgentRun, new_id

BATCH = 500
_JUST_BEFORE = timedelta(microseconds=1)


@dataclass(frozen=True)
class Fired:
    due: int  # agents that had a slot due
    enqueued: int  # runs fired
    skipped: int  # slots recorded as skipped (missed longer ago than the grace)


@dataclass(frozen=True)
class _Plan:
    fire: AgentRun | None
    skip: AgentRun | None
    next_run_at: datetime | None


# (rule, zone, first due slot, now) → (latest slot, slots due, next slot): agents that share a
# schedule and a due slot (the many agents of one minute) are worked out once a tick.
_Slots = tuple[datetime | None, int, datetime | None]


def _slots(
    spec: ScheduleSpec, first: datetime, now: datetime, seen: dict[tuple[object, ...], _Slots]
) -> _Slots:
    key = (spec["rrule"], spec["timezone"], first, now)
    if key not in seen:
        latest, count = schedule_due(spec, after=first - _JUST_BEFORE, until=now)
        seen[key] = (latest, count, schedule_next(spec, after=now))
    return seen[key]


def _plan(agent: Agent, now: datetime, seen: dict[tuple[object, ...], _Slots]) -> _Plan:
    if not agent.schedule:  # a slot left from a schedule removed meanwhile
        return _Plan(fire=None, skip=None, next_run_at=None)
    spec = cast(ScheduleSpec, agent.schedule)
    first = cast(datetime, agent.next_run_at)
    latest, count, next_run_at = _slots(spec, first, now, seen)
    grace = timedelta(seconds=settings.OMNIFORGE_SCHEDULE_GRACE_S)
    fires = latest is not None and now - latest <= grace
    fire = skip = None
    if fires:
        fire = AgentRun(
            id=new_id(), tenant_id=agent.tenant_id, agent=agent, slot=latest, requested_at=now,
            trigger=AgentRun.Trigger.SCHEDULE, deadline_at=now + timedelta(minutes=2),
        )  # fmt: skip
    missed = count - (1 if fires else 0)
    if missed > 0:
        skip = AgentRun(
            id=new_id(), tenant_id=agent.tenant_id, agent=agent, slot=first, requested_at=first,
            trigger=AgentRun.Trigger.SCHEDULE, status=AgentRun.Status.CANCELLED, finished_at=now,
            reason=(
                f"Skipped {missed} scheduled time(s) from {first:%Y-%m-%d %H:%M} UTC on: they "
                "passed while the scheduler was not running."
            ),
        )  # fmt: skip
    return _Plan(fire=fire, skip=skip, next_run_at=next_run_at)


def _due(now: datetime, after: tuple[datetime, str] | None) -> list[Agent]:
    # cross-tenant: the scheduler serves every tenant; each run is made under its agent's.
    agents = Agent.objects.cross_tenant().filter(
        next_run_at__lte=now, next_run_at__isnull=False, paused_at__isnull=True
    )
    if after is not None:  # a dry run pages on, since it moves nothing
        at, agent_id = after
        agents = agents.filter(next_run_at__gte=at).exclude(next_run_at=at, id__lte=agent_id)
    fields = ("id", "tenant_id", "schedule", "next_run_at", "created_by_id", "name")
    return list(agents.order_by("next_run_at", "id").only(*fields)[:BATCH])


def _fire(
    agents: list[Agent], now: datetime, seen: dict[tuple[object, ...], _Slots]
) -> tuple[int, int]:
    from conversations.runs.services import hand_on_after_commit

    plans = [(agent, _plan(agent, now, seen)) for agent in agents]
    runs = [run for _, plan in plans for run in (plan.fire, plan.skip) if run is not None]
    with transaction.atomic():
        # ignore_conflicts: a slot another tick fired already is left as that tick made it.
        AgentRun.objects.cross_tenant().bulk_create(runs, ignore_conflicts=True)
        # One UPDATE per next slot (agents due together mostly share it), not a CASE per row.
        moving: dict[datetime | None, list[str]] = {}
        for agent, plan in plans:
            moving.setdefault(plan.next_run_at, []).append(agent.id)
        for next_run_at, ids in moving.items():
            Agent.objects.cross_tenant().filter(id__in=ids).update(next_run_at=next_run_at)
        # Only the runs this tick inserted: a slot another tick fired is that tick's to hand on.
        made = AgentRun.objects.cross_tenant().filter(id__in=[run.id for run in runs])
        kept = set(made.values_list("id", flat=True))
        fired = [(a.tenant_id, p.fire.id) for a, p in plans if p.fire and p.fire.id in kept]
        hand_on_after_commit(fired)
    return len(fired), sum(1 for _, p in plans if p.skip and p.skip.id in kept)


def runs_enqueue_due(*, now: datetime, dry_run: bool = False) -> Fired:
    """Fire every slot due at ``now`` (with ``dry_run``: only count what would fire)."""
    due = enqueued = skipped = 0
    after: tuple[datetime, str] | None = None
    seen: dict[tuple[object, ...], _Slots] = {}
    while agents := _due(now, after):
        due += len(agents)
        if dry_run:
            plans = [_plan(agent, now, seen) for agent in agents]
            enqueued += sum(1 for plan in plans if plan.fire is not None)
            skipped += sum(1 for plan in plans if plan.skip is not None)
            last = agents[-1]
            after = (cast(datetime, last.next_run_at), last.id)
            continue
        fired, missed = _fire(agents, now, seen)
        enqueued += fired
        skipped += missed
    return Fired(due=due, enqueued=enqueued, skipped=skipped)
