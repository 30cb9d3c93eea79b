"""The retention policy, applied in bounded batches by the daily beat task and its command.

- An active session with no exchange for 30 days becomes abandoned (its last activity kept).
- Abandoned, deleted and error sessions are purged 30 days after that status was set; completed
  ones 90 days after completion.
- A tenant's conversations older than its ``conversation_retention_days`` setting (empty: keep;
  never below 30) are purged, by last activity.

Each step selects at most ``BATCH`` primary keys and deletes or updates exactly those, so no
statement holds locks for long and two overlapping runs only ever do each row once (the second
finds nothing left). Every run is recorded in ``RetentionRun`` with its counts.
"""

from __future__ import annotations

import datetime as dt
import logging
from collections import Counter
from collections.abc import Callable

from django.db import transaction
from django.utils import timezone

from conversations.models import Conversation, Tenant
from skill_sessions.models import RetentionRun, SkillCreationSession

logger = logging.getLogger("omniforge.retention")

BATCH = 1000
IDLE_DAYS = 30
PURGE_AFTER_DAYS = 30
COMPLETED_PURGE_DAYS = 90
MIN_CONVERSATION_DAYS = 30
Status = SkillCreationSession.Status
COUNT_KEYS = (
    "sessions_abandoned",
    "completed_purged",
    "abandoned_deleted_error_purged",
    "conversations_purged",
)


def conversation_retention_days(tenant: Tenant) -> int | None:
    """The tenant's setting: None keeps everything; anything set is at least 30 days."""
    value = (tenant.settings or {}).get("conversation_retention_days")
    if value in (None, ""):
        return None
    try:
        days = int(str(value))
    except (TypeError, ValueError):
        logger.warning("retention: tenant %s has an unreadable setting %r", tenant.slug, value)
        return None
    return max(days, MIN_CONVERSATION_DAYS)


def _end_of(day: dt.date) -> dt.datetime:
    return dt.datetime.combine(day, dt.time.max, tzinfo=dt.UTC)


def _batched(
    select: Callable[[], list[object]], act: Callable[[list[object]], int], dry_run: bool
) -> int:
    """Apply ``act`` to ``select``'s keys batch by batch until none are left; the count."""
    if dry_run:
        return len(select())
    done = 0
    while True:
        with transaction.atomic():
            keys = select()
            if not keys:
                return done
            done += act(keys)
        if len(keys) < BATCH:
            return done


def _tenant_counts(tenant: Tenant, today: dt.date, dry_run: bool) -> Counter[str]:
    now = timezone.now()
    if today != now.date():
        # As if today were ``today``: a status set now is set on that day.
        now = dt.datetime.combine(today, now.time(), tzinfo=dt.UTC)
    counts: Counter[str] = Counter()
    rows = SkillCreationSession.objects.for_tenant(tenant)
    limit = None if dry_run else BATCH

    idle = rows.filter(
        status=Status.ACTIVE, last_activity_at__lte=_end_of(today - dt.timedelta(IDLE_DAYS))
    )
    counts["sessions_abandoned"] = _batched(
        lambda: list(idle.values_list("pk", flat=True)[:limit]),
        # Abandoned now: the status time moves, the last activity does not.
        lambda keys: rows.filter(pk__in=keys, status=Status.ACTIVE).update(
            status=Status.ABANDONED, status_changed_at=now, updated_at=now
        ),
        dry_run,
    )
    done_before = _end_of(today - dt.timedelta(COMPLETED_PURGE_DAYS))
    completed = rows.filter(status=Status.COMPLETED, status_changed_at__lte=done_before)
    counts["completed_purged"] = _batched(
        lambda: list(completed.values_list("pk", flat=True)[:limit]),
        lambda keys: rows.filter(pk__in=keys).delete()[0],
        dry_run,
    )
    ended_before = _end_of(today - dt.timedelta(PURGE_AFTER_DAYS))
    ended = rows.filter(
        status__in=(Status.ABANDONED, Status.DELETED, Status.ERROR),
        status_changed_at__lte=ended_before,
    )
    counts["abandoned_deleted_error_purged"] = _batched(
        lambda: list(ended.values_list("pk", flat=True)[:limit]),
        lambda keys: rows.filter(pk__in=keys).delete()[0],
        dry_run,
    )
    days = conversation_retention_days(tenant)
    if days is not None:
        old = Conversation.objects.for_tenant(tenant).filter(
            updated_at__lte=_end_of(today - dt.timedelta(days))
        )
        conversations = Conversation.objects.for_tenant(tenant)
        counts["conversations_purged"] = _batched(
            lambda: list(old.values_list("pk", flat=True)[:limit]),
            # Messages go with their conversation (cascade); the count is conversations.
            lambda keys: (
                conversations.filter(pk__in=keys).delete()[1].get(Conversation._meta.label, 0)
            ),
            dry_run,
        )
    return counts


def retention_run(
    *,
    as_of: dt.date | None = None,
    tenant_slug: str | None = None,
    dry_run: bool = False,
    trigger: str = "command",
    progress: Callable[[str], None] | None = None,
) -> RetentionRun:
    """Apply the policy as if today were ``as_of``; the recorded run with its counts."""
    today = as_of or timezone.now().date()
    run = RetentionRun.objects.create(
        as_of=today, trigger=trigger, dry_run=dry_run, tenant_slug=tenant_slug or ""
    )
    tenants = Tenant.objects.order_by("slug")
    if tenant_slug:
        tenants = tenants.filter(slug=tenant_slug)
    totals: Counter[str] = Counter(dict.fromkeys(COUNT_KEYS, 0))
    per_tenant: dict[str, dict[str, int]] = {}
    for tenant in tenants:
        if progress:
            progress(f"retention: {tenant.slug}")
        counts = _tenant_counts(tenant, today, dry_run)
        if any(counts.values()):
            per_tenant[tenant.slug] = {k: counts.get(k, 0) for k in COUNT_KEYS}
        totals.update(counts)
    run.counts = {k: totals[k] for k in COUNT_KEYS}
    run.per_tenant = per_tenant
    run.finished_at = timezone.now()
    run.save(update_fields=["counts", "per_tenant", "finished_at"])
    logger.info("retention: %s", {"dry_run": dry_run, "as_of": str(today), **run.counts})
    return run
