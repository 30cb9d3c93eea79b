"""The Celery worker killed (SIGKILL) in the middle of a retention run.

A real worker on the ``maintenance`` queue starts the daily retention task over tens of thousands
of sessions; the drill kills it once some batches are committed and others are not. The run is
left recorded as unfinished, and the next run (as the next day's beat would send it) finishes the
job: every session that was due is abandoned or purged exactly once, and nothing that was not
due yet is touched (a session abandoned by the killed run is not purged by the next one either:
its 30 days start when it was abandoned).
"""

from __future__ import annotations

import datetime as dt
import json
import time

import pytest
from django.db import connections, transaction
from django.utils import timezone
from kombu import Connection

from config.celery import app
from skill_sessions.models import RetentionRun, SkillCreationSession
from tests.conftest import World, subprocess_database_url
from tests.faults.services import CeleryWorker, own_redis_db

PURGE_DUE = 40_000  # abandoned 40 days ago: purged
IDLE = 20_000  # active, last exchange 40 days ago: abandoned (not purged)
NOT_DUE = 10_000  # abandoned 10 days ago, or completed 60 days ago: kept as they are
Status = SkillCreationSession.Status


def _seed(world: World) -> None:
    now = timezone.now()
    forty, ten, sixty = (now - dt.timedelta(days=d) for d in (40, 10, 60))
    rows = []
    for n in range(PURGE_DUE):
        rows.append((f"purge-{n}", Status.ABANDONED, forty, forty))
    for n in range(IDLE):
        rows.append((f"idle-{n}", Status.ACTIVE, forty, forty))
    for n in range(NOT_DUE):
        status, changed = (Status.ABANDONED, ten) if n % 2 else (Status.COMPLETED, sixty)
        rows.append((f"keep-{n}", status, changed, changed))
    sessions = [
        SkillCreationSession(
            tenant=world.tenant_a, user=world.owner, session_id=sid, context="{}",
            state="cancelled", status=status, status_changed_at=changed, last_activity_at=last,
        )
        for sid, status, changed, last in rows
    ]  # fmt: skip
    with transaction.atomic():
        SkillCreationSession.objects.bulk_create(sessions, batch_size=5000)


def _send(redis_url: str) -> None:
    """What beat sends each day: the retention task, on the maintenance queue."""
    with Connection(redis_url) as connection:
        app.send_task("skill_sessions.retention_daily", queue="maintenance", connection=connection)


def _counts(world: World) -> dict[str, int]:
    rows = SkillCreationSession.objects.for_tenant(world.tenant_a)
    return {
        "purge": rows.filter(session_id__startswith="purge-").count(),
        "idle_active": rows.filter(session_id__startswith="idle-", status=Status.ACTIVE).count(),
        "idle_abandoned": rows.filter(
            session_id__startswith="idle-", status=Status.ABANDONED
        ).count(),
        "keep": rows.filter(session_id__startswith="keep-").count(),
    }


@pytest.mark.timeout(300)
@pytest.mark.django_db(transaction=True)
def test_a_worker_killed_mid_run_leaves_the_next_run_to_finish_exactly_once(
    world: World,
) -> None:
    _seed(world)
    keep_before = dict(
        SkillCreationSession.objects.for_tenant(world.tenant_a)
        .filter(session_id__startswith="keep-")
        .values_list("session_id", "status_changed_at")
    )
    redis_url = own_redis_db(11)
    env = {"REDIS_URL": redis_url, "DATABASE_URL": subprocess_database_url()}
    connections.close_all()

    first = CeleryWorker(env=env, queues="maintenance").start()
    _send(redis_url)
    total = PURGE_DUE + IDLE + NOT_DUE
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        # Killed once batches have been committed, long before the run could end.
        if SkillCreationSession.objects.for_tenant(world.tenant_a).count() <= total - 5000:
            break
        time.sleep(0.01)
    first.kill()
    killed_at = _counts(world)
    assert 0 < killed_at["purge"] < PURGE_DUE, killed_at  # mid-run, for real
    interrupted = RetentionRun.objects.get()
    assert interrupted.finished_at is None and interrupted.counts == {}

    with CeleryWorker(env=env, queues="maintenance"):
        _send(redis_url)
        deadline = time.monotonic() + 120
        while not RetentionRun.objects.filter(finished_at__isnull=False).exists():
            assert time.monotonic() < deadline, "the next run did not finish"
            time.sleep(0.2)
    finished = RetentionRun.objects.get(finished_at__isnull=False)
    after = _counts(world)
    print(json.dumps({"at_kill": killed_at, "after": after, "next_run": finished.counts}))

    # Finished: everything due is done, exactly once; nothing else is touched.
    assert after == {"purge": 0, "idle_active": 0, "idle_abandoned": IDLE, "keep": NOT_DUE}
    assert finished.counts["abandoned_deleted_error_purged"] == killed_at["purge"]
    assert finished.counts["sessions_abandoned"] == killed_at["idle_active"]
    assert finished.counts["completed_purged"] == 0
    kept = dict(
        SkillCreationSession.objects.for_tenant(world.tenant_a)
        .filter(session_id__startswith="keep-")
        .values_list("session_id", "status_changed_at")
    )
    assert kept == keep_before
