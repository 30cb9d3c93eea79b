"""Background work of agent runs: handing runs to the runtime, and the beat's tick.

With a broker (``REDIS_URL``) a dispatch is a Celery task; retries are new tasks with a
countdown, so a worker never sleeps on a slow runtime. In the embedded mode, where Celery runs
tasks eagerly inside the caller, the same attempts run on a background thread of this process
instead: never inside a chat turn or a request, whatever the runtime does.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime
from typing import Any

from celery import shared_task
from django.conf import settings
from django.db import close_old_connections, connections
from django.utils import timezone

from conversations.runs import services
from conversations.runs.dispatch import (
    Attempt,
    Result,
    attempts_made,
    dispatch_attempt,
    hold_for_retry,
    retry_delay,
)
from conversations.runs.scheduler import runs_enqueue_due

logger = logging.getLogger("omniforge.runs")
BATCH = 50  # runs per dispatch task
PARALLEL = 8  # requests in flight per task (the runtime is another service: I/O bound)

Pair = tuple[int, str]


def _settle(tenant_id: int, run_id: str, result: Result) -> float | None:
    """Record a failed attempt; the delay before the next one, or None when there is none."""
    if result.attempt is Attempt.FAILED:
        services.run_fail(tenant_id=tenant_id, run_id=run_id, reason=result.reason)
    elif result.attempt is Attempt.RETRY:
        attempts = attempts_made(tenant_id=tenant_id, run_id=run_id)
        if attempts < settings.OMNIFORGE_RUNTIME_MAX_ATTEMPTS:
            delay = retry_delay(attempts)
            hold_for_retry(tenant_id=tenant_id, run_id=run_id, delay_s=delay)
            return delay
        services.run_fail(tenant_id=tenant_id, run_id=run_id, reason=result.reason)
    return None


def _attempt(pair: Pair) -> tuple[Pair, float | None]:
    tenant_id, run_id = pair
    try:
        result = dispatch_attempt(tenant_id=tenant_id, run_id=run_id)
        return pair, _settle(tenant_id, run_id, result)
    finally:
        connections.close_all()  # a pool thread's own connection


def _attempt_all(pairs: Sequence[Pair]) -> list[tuple[Pair, float]]:
    """One attempt for each run, several in flight; the runs to try again and when."""
    with ThreadPoolExecutor(max_workers=min(PARALLEL, len(pairs))) as pool:
        settled = list(pool.map(_attempt, pairs))
    return [(pair, delay) for pair, delay in settled if delay is not None]


@shared_task(name="conversations.runs_dispatch", acks_late=True, ignore_result=True)
def runs_dispatch(pairs: list[list[Any]]) -> int:
    """Hand these queued runs to their tenants' runtimes; retries are scheduled as new tasks."""
    retries = _attempt_all([(int(t), str(r)) for t, r in pairs])
    for (tenant_id, run_id), delay in retries:
        runs_dispatch.apply_async(args=([[tenant_id, run_id]],), countdown=delay)
    return len(pairs)


def _in_process(pairs: list[Pair]) -> None:
    """The embedded mode's dispatcher: attempts and backoff on this background thread."""
    try:
        waiting: list[tuple[float, Pair]] = [(0.0, pair) for pair in pairs]
        while waiting:
            due_at = min(at for at, _ in waiting)
            time.sleep(max(0.0, due_at - time.monotonic()))
            now = time.monotonic()
            due = [pair for at, pair in waiting if at <= now]
            waiting = [(at, pair) for at, pair in waiting if at > now]
            close_old_connections()
            waiting += [(time.monotonic() + d, pair) for pair, d in _attempt_all(due)]
    except Exception:
        logger.exception("runs: the in-process dispatcher stopped")
    finally:
        connections.close_all()


def hand_on(pairs: Sequence[Pair]) -> None:
    """Dispatch these runs in the background: Celery tasks, or a thread in the embedded mode
    (where Celery would run the task eagerly, inside the caller)."""
    if not settings.CELERY_TASK_ALWAYS_EAGER:
        for start in range(0, len(pairs), BATCH):
            chunk = [[t, r] for t, r in pairs[start : start + BATCH]]
            runs_dispatch.apply_async(args=(chunk,))
        return
    threading.Thread(
        target=_in_process, args=(list(pairs),), name="runs-dispatch", daemon=True
    ).start()


def runs_tick_once(*, now: datetime | None = None) -> dict[str, int]:
    """What the beat does every minute: fire due slots, end overdue runs, hand on lost ones."""
    now = now or timezone.now()
    fired = runs_enqueue_due(now=now)
    timed_out = services.runs_time_out(now=now)
    stale = services.runs_hand_on_stale(now=now)
    if stale:
        hand_on(stale)
    return {
        "due": fired.due,
        "enqueued": fired.enqueued,
        "timed_out": timed_out,
        "stale": len(stale),
    }


@shared_task(name="conversations.runs_tick", ignore_result=True)
def runs_tick() -> dict[str, int]:
    return runs_tick_once()
