"""Writes of agent runs: request one, cancel it, apply what the runtime reports, end it."""

from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.utils import timezone

from conversations.models import Agent, AgentRun, AgentRunEvent, new_id
from conversations.runs.telling import run_tell

logger = logging.getLogger("omniforge.runs")
SUMMARY_MAX = 2000
PROGRESS_MAX = 500
REASON_MAX = 2000


def hand_on_after_commit(runs: Iterable[tuple[int, str]]) -> None:
    """Dispatch these (tenant id, run id) once the transaction that recorded them commits."""
    pairs = list(runs)
    if not pairs:
        return
    from conversations.runs.tasks import hand_on  # the tasks module imports this one

    transaction.on_commit(lambda: hand_on(pairs))


def _queued_deadline(now: datetime) -> datetime:
    from conversations.runs.dispatch import HAND_ON_WITHIN

    return now + HAND_ON_WITHIN


@transaction.atomic
def run_request(
    *,
    agent: Agent,
    user: User | None,
    trigger: str,
    conversation_id: str = "",
    message_id: str = "",
    run_id: str | None = None,
) -> AgentRun:
    """Queue a run and hand it on after commit; with ``run_id`` (chosen up front) a second call
    returns the first's and hands nothing on twice."""
    now = timezone.now()
    run, created = AgentRun.objects.for_tenant(agent.tenant_id).get_or_create(
        id=run_id or new_id(),
        tenant_id=agent.tenant_id,
        defaults={
            "agent": agent,
            "requested_by": user,
            "trigger": trigger,
            "conversation_id": conversation_id,
            "message_id": message_id,
            "requested_at": now,
            "deadline_at": _queued_deadline(now),
        },
    )
    if created:
        hand_on_after_commit([(agent.tenant_id, run.id)])
    return run


@transaction.atomic
def run_cancel(*, run: AgentRun) -> AgentRun:
    """Cancel a run that has not ended (an ended one is returned as it is)."""
    locked = AgentRun.objects.for_tenant(run.tenant_id).select_for_update().get(id=run.id)
    if not locked.final:
        locked.status = AgentRun.Status.CANCELLED
        locked.finished_at = timezone.now()
        locked.save(update_fields=["status", "finished_at"])
    return locked


def run_fail(*, tenant_id: int, run_id: str, reason: str) -> None:
    """End a run the product could not hand over (the runtime refused it, or never answered)."""
    _finish(tenant_id=tenant_id, run_id=run_id, status=AgentRun.Status.FAILED, reason=reason)


@transaction.atomic
def _finish(*, tenant_id: int, run_id: str, status: str, **fields: Any) -> bool:
    run = (
        AgentRun.objects.for_tenant(tenant_id)
        .select_for_update()
        .select_related("agent", "tenant")
        .filter(id=run_id)
        .first()
    )
    if run is None or run.final:
        return False
    _end(run, status, **fields)
    return True


def _end(run: AgentRun, status: str, **fields: Any) -> None:
    """Make a locked run final, and tell its outcome (in the same transaction)."""
    run.status = status
    run.finished_at = timezone.now()
    for name, value in fields.items():
        setattr(run, name, value)
    run.told_at = run.finished_at if run_tell(run=run) is not None else None
    run.save()


@dataclass(frozen=True)
class RunEvent:
    type: str
    event_id: str = ""
    summary: str = ""
    link: str = ""
    reason: str = ""


def _record(run: AgentRun, event: RunEvent) -> bool:
    """Keep the event; False when its ``event_id`` was applied before (a repeat)."""
    try:
        with transaction.atomic():
            AgentRunEvent.objects.create(
                tenant_id=run.tenant_id,
                run=run,
                event_id=event.event_id,
                type=event.type,
                applied=not run.final,
            )
    except IntegrityError:
        return False
    return True


@transaction.atomic
def run_event_apply(*, tenant_id: int, run_id: str, event: RunEvent) -> AgentRun:
    """Apply one report of the runtime on a run of this tenant (``AgentRun.DoesNotExist``: a
    run of another tenant, or none). A repeat, or anything after a final state, changes
    nothing."""
    run = (
        AgentRun.objects.for_tenant(tenant_id)
        .select_for_update()
        .select_related("agent", "tenant")
        .get(id=run_id)
    )
    if not _record(run, event) or run.final:
        return run
    now = timezone.now()
    if event.type in ("started", "progress"):
        run.status = AgentRun.Status.RUNNING
        run.started_at = run.started_at or now
        if event.type == "progress":
            run.progress = event.summary[:PROGRESS_MAX]
        # A run that reports is alive: its deadline counts from its last word.
        run.deadline_at = now + timedelta(seconds=settings.OMNIFORGE_RUN_DEADLINE_S)
        run.save(update_fields=["status", "started_at", "progress", "deadline_at"])
    elif event.type == "succeeded":
        run.started_at = run.started_at or now
        _end(run, AgentRun.Status.SUCCEEDED, summary=event.summary[:SUMMARY_MAX], link=event.link)
    elif event.type == "failed":
        run.started_at = run.started_at or now
        _end(run, AgentRun.Status.FAILED, reason=event.reason[:REASON_MAX])
    return run


def runs_time_out(*, now: datetime, batch: int = 500) -> int:
    """End the runs handed over whose deadline passed, and the runs that waited for a runtime
    longer than a run may take; how many."""
    # cross-tenant: the beat's sweep; each run is then ended under its own tenant.
    overdue = list(
        AgentRun.objects.cross_tenant()
        .filter(
            status__in=(*AgentRun.OPEN, AgentRun.Status.WAITING_FOR_RUNTIME),
            deadline_at__lt=now,
        )
        .values_list("tenant_id", "id", "status")[:batch]
    )
    ended = 0
    for tenant_id, run_id, status in overdue:
        reason = ""
        if status == AgentRun.Status.WAITING_FOR_RUNTIME:
            reason = "No agent runtime was connected in time."
        ended += _finish(
            tenant_id=tenant_id, run_id=run_id, status=AgentRun.Status.TIMED_OUT, reason=reason
        )
    return ended


def runs_hand_on_stale(*, now: datetime, batch: int = 500) -> list[tuple[int, str]]:
    """Queued runs nobody handed on in time (a worker killed mid-dispatch, a lost task):
    hand them on again (the runtime applies each run once: the idempotency key)."""
    # cross-tenant: the beat's sweep; dispatch scopes each run to its tenant again.
    stale = list(
        AgentRun.objects.cross_tenant()
        .filter(status=AgentRun.Status.QUEUED, deadline_at__lt=now)
        .values_list("tenant_id", "id")[:batch]
    )
    for tenant_id, run_id in stale:
        AgentRun.objects.for_tenant(tenant_id).filter(id=run_id).update(
            deadline_at=_queued_deadline(now)
        )
    return stale


def runs_release_waiting(*, tenant_id: int) -> list[tuple[int, str]]:
    """A tenant's runtime is connected: its runs waiting for one are queued again."""
    now = timezone.now()
    waiting = AgentRun.objects.for_tenant(tenant_id).filter(
        status=AgentRun.Status.WAITING_FOR_RUNTIME
    )
    ids = list(waiting.values_list("id", flat=True)[:1000])
    waiting.filter(id__in=ids).update(
        status=AgentRun.Status.QUEUED, deadline_at=_queued_deadline(now)
    )
    pairs = [(tenant_id, run_id) for run_id in ids]
    hand_on_after_commit(pairs)
    return pairs
