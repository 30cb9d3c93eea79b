"""The daily retention task (scheduled in ``CELERY_BEAT_SCHEDULE``)."""

from __future__ import annotations

from typing import Any

from celery import shared_task

from skill_sessions.retention import retention_run


@shared_task(name="skill_sessions.retention_daily", acks_late=True)
def retention_daily(dry_run: bool = False) -> dict[str, Any]:
    """Apply the retention policy to every tenant; the counts, as the run records them."""
    run = retention_run(dry_run=dry_run, trigger="beat")
    return {"run": run.pk, **run.counts}
