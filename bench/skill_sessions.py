"""Skill sessions: save and restore with 100 messages of history, and a purge of 100,000.

Save and restore are timed with and without the cache (a cold read goes to the table), against
a baseline in the same run: writing and reading the same JSON document as a bare row with
sqlite3/psycopg-free Django ORM ``update``/``values_list`` (the floor of one statement each).
The purge times the whole retention run over 100,000 expired sessions and its longest batch,
which is the longest any one transaction holds its locks.
"""

from __future__ import annotations

import datetime as dt
import time

from django.contrib.auth.models import User
from django.core.cache import cache
from django.db import transaction
from django.utils import timezone

from bench.common import median, percentile, print_table, time_calls
from conversations.models import Tenant, new_id
from skill_sessions import retention, services
from skill_sessions.context import SkillContext, context_dumps
from skill_sessions.models import SkillCreationSession

PURGE_ROWS = 100_000


def _context() -> SkillContext:
    history = [
        {"role": "user" if n % 2 == 0 else "assistant",
         "content": f"message {n}: the invoice layouts differ by supplier and by year " * 2}
        for n in range(100)
    ]  # fmt: skip
    return SkillContext(
        state="gathering_details", purpose="extracts totals and VAT from PDF invoices",
        name="invoice-totals", inputs="a PDF invoice", history=history,
    )  # fmt: skip


def _save_restore(tenant: Tenant, user: User) -> list[list[object]]:
    context = _context()
    session_id = services.session_new_id()
    row = services.session_save(tenant=tenant, user=user, session_id=session_id,
                                context=context, expected_version=0)  # fmt: skip
    version = [row.version]

    def save() -> None:
        saved = services.session_save(tenant=tenant, user=user, session_id=session_id,
                                      context=context, expected_version=version[0])  # fmt: skip
        version[0] = saved.version

    def restore_cached() -> None:
        assert services.session_load(tenant=tenant, session_id=session_id) is not None

    def restore_cold() -> None:
        cache.delete(services._key(tenant.pk, session_id))  # never a flush: Redis is shared
        assert services.session_load(tenant=tenant, session_id=session_id) is not None

    document = context_dumps(context)
    rows = SkillCreationSession.objects.for_tenant(tenant).filter(session_id=session_id)

    def floor_write() -> None:
        rows.update(context=document)

    def floor_read() -> None:
        assert rows.values_list("context", flat=True).first()

    out = []
    for name, fn in (
        ("save (optimistic, cache write-through)", save),
        ("restore, cache warm", restore_cached),
        ("restore, cache cold", restore_cold),
        ("floor: one UPDATE of the document", floor_write),
        ("floor: one SELECT of the document", floor_read),
    ):
        samples = time_calls(fn, repeat=200)
        out.append([name, len(samples), f"{median(samples) * 1e3:.2f}",
                    f"{percentile(samples, 95) * 1e3:.2f}"])  # fmt: skip
    out.append(["document size, bytes", "", f"{len(document)}", ""])
    return out


def _purge(tenant: Tenant, user: User) -> list[list[object]]:
    long_ago = timezone.now() - dt.timedelta(days=400)
    batch = [
        SkillCreationSession(
            tenant=tenant, user=user, session_id=f"p{n}", context="{}", state="cancelled",
            status="abandoned", status_changed_at=long_ago, last_activity_at=long_ago,
        )
        for n in range(PURGE_ROWS)
    ]  # fmt: skip
    with transaction.atomic():
        SkillCreationSession.objects.bulk_create(batch, batch_size=5000)
    longest = [0.0]
    real = retention._batched

    def timed(select, act, dry_run):  # type: ignore[no-untyped-def]
        def act_timed(keys):  # type: ignore[no-untyped-def]
            start = time.perf_counter()
            done = act(keys)
            longest[0] = max(longest[0], time.perf_counter() - start)
            return done

        return real(select, act_timed, dry_run)

    retention._batched = timed  # type: ignore[assignment]
    try:
        start = time.perf_counter()
        run = retention.retention_run(tenant_slug=tenant.slug, trigger="bench")
        total = time.perf_counter() - start
    finally:
        retention._batched = real  # type: ignore[assignment]
    assert run.counts["abandoned_deleted_error_purged"] == PURGE_ROWS
    return [[f"{PURGE_ROWS:,}", f"{total:.1f}", f"{longest[0] * 1e3:.0f}", retention.BATCH]]


def run() -> None:
    suffix = new_id().lower()[-8:]
    tenant = Tenant.objects.create(slug=f"bench-{suffix}", name="bench")
    user = User.objects.create(username=f"bench-{suffix}")
    try:
        print_table(
            "Skill session save and restore, 100 messages of history (ms)",
            ["operation", "calls", "p50 ms", "p95 ms"],
            _save_restore(tenant, user),
        )
        print_table(
            "Retention purge of expired sessions",
            ["sessions", "total s", "longest batch ms (locks held)", "batch size"],
            _purge(tenant, user),
        )
        print("\nSeed targets: save < 100 ms, restore < 500 ms; ours: p95 < 5 ms each.")
    finally:
        SkillCreationSession.objects.for_tenant(tenant).delete()
        tenant.delete()
        user.delete()
