"""Handing a run to the agent runtime: one signed HTTP POST per attempt.

The body is the versioned document of the contract; every attempt is signed afresh over
``"<timestamp>.<body>"`` (HMAC-SHA256 keyed with the tenant's secret), so a receiver may refuse
timestamps older than five minutes, and carries the run id as ``Idempotency-Key``: delivery is
at least once (a retry after a lost answer, a worker killed mid-dispatch), and the key lets a
receiver apply each run once. No database transaction is open while the request is out.
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import json
import logging
import time
from dataclasses import dataclass
from datetime import timedelta
from enum import Enum
from typing import Any

import requests
import requests.adapters
from django.conf import settings
from django.db.models import F
from django.utils import timezone

from conversations.models import AgentRun
from conversations.runs.runtime import RuntimeTarget, runtime_target, runtime_url_refusal

logger = logging.getLogger("omniforge.runs")
BODY_VERSION = 1
USER_AGENT = "OmniForge-Dispatch/1"
# A queued run not handed on by then is picked up again by the beat's sweep.
HAND_ON_WITHIN = timedelta(minutes=2)


class Attempt(Enum):
    DELIVERED = "delivered"  # the runtime took it (2xx)
    RETRY = "retry"  # a timeout, a refused connection, 408/429 or 5xx: try again later
    FAILED = "failed"  # refused for good (the run is failed with the reason)
    WAITING = "waiting"  # no runtime to go to (the run waits for one)
    SKIPPED = "skipped"  # nothing to do: the run is gone or past queued


@dataclass(frozen=True)
class Result:
    attempt: Attempt
    reason: str = ""


def sign(secret: str, timestamp: int, body: bytes) -> str:
    """The ``X-OmniForge-Signature`` header value of a body sent at ``timestamp``."""
    digest = hmac.new(secret.encode(), f"{timestamp}.".encode() + body, hashlib.sha256)
    return f"sha256={digest.hexdigest()}"


def callback_url(run_id: str) -> str:
    return f"{settings.OMNIFORGE_PUBLIC_URL}/api/v1/runs/{run_id}/events/"


def dispatch_body(run: AgentRun) -> bytes:
    agent = run.agent
    document: dict[str, Any] = {
        "version": BODY_VERSION,
        "run": {
            "id": run.id,
            "trigger": run.trigger,
            "requested_by": run.requested_by.get_username() if run.requested_by else None,
            "callback_url": callback_url(run.id),
            "agent": {"id": agent.id, "name": agent.name, "config": dict(agent.config or {})},
        },
    }
    return json.dumps(document, ensure_ascii=False, separators=(",", ":")).encode()


@functools.cache
def _session() -> requests.Session:
    """One connection pool for every dispatch of this process: a runtime is one service, and a
    kept-alive connection saves a TCP (and TLS) handshake per run. urllib3's pool is safe to
    share between the threads that dispatch."""
    session = requests.Session()
    adapter = requests.adapters.HTTPAdapter(pool_connections=4, pool_maxsize=32)
    session.mount("http://", adapter)
    session.mount("https://", adapter)
    return session


def _post(target: RuntimeTarget, run_id: str, body: bytes) -> requests.Response:
    timestamp = int(time.time())
    headers = {
        "Content-Type": "application/json",
        "User-Agent": USER_AGENT,
        "Idempotency-Key": run_id,
        "X-OmniForge-Timestamp": str(timestamp),
        "X-OmniForge-Signature": sign(target.secret, timestamp, body),
    }
    return _session().post(
        target.url,
        data=body,
        headers=headers,
        timeout=settings.OMNIFORGE_RUNTIME_TIMEOUT_S,
        allow_redirects=False,  # a redirect could lead anywhere: never followed
    )


def _classify(response: requests.Response) -> Result:
    code = response.status_code
    if 200 <= code < 300:
        return Result(Attempt.DELIVERED)
    if code in (408, 429) or code >= 500:
        return Result(Attempt.RETRY, f"The agent runtime answered HTTP {code}.")
    if 300 <= code < 400:
        return Result(Attempt.FAILED, f"The agent runtime answered a redirect (HTTP {code}).")
    return Result(Attempt.FAILED, f"The agent runtime refused the run (HTTP {code}).")


def dispatch_attempt(*, tenant_id: int, run_id: str) -> Result:
    """One attempt at handing a queued run over; records the outcome on the run."""
    runs = AgentRun.objects.for_tenant(tenant_id)
    run = runs.select_related("agent", "requested_by").filter(id=run_id).first()
    if run is None or run.status != AgentRun.Status.QUEUED:
        return Result(Attempt.SKIPPED)
    target = runtime_target(tenant_id=tenant_id)
    if target is None:
        runs.filter(id=run_id, status=AgentRun.Status.QUEUED).update(
            status=AgentRun.Status.WAITING_FOR_RUNTIME,
            # Not forever: one that finds no runtime within a run's deadline times out.
            deadline_at=timezone.now() + timedelta(seconds=settings.OMNIFORGE_RUN_DEADLINE_S),
        )
        return Result(Attempt.WAITING)
    refusal = runtime_url_refusal(target)
    if refusal:
        return Result(Attempt.FAILED, refusal)
    runs.filter(id=run_id).update(attempts=F("attempts") + 1)
    try:
        result = _classify(_post(target, run_id, dispatch_body(run)))
    except requests.Timeout:
        result = Result(Attempt.RETRY, "The agent runtime did not answer in time.")
    except requests.RequestException as exc:
        logger.info("runs: dispatch of %s could not connect: %s", run_id, type(exc).__name__)
        result = Result(Attempt.RETRY, "The agent runtime could not be reached.")
    if result.attempt is Attempt.DELIVERED:
        now = timezone.now()
        # Only from queued: a runtime that called back "started" before this answer arrived
        # has moved the run on already.
        runs.filter(id=run_id, status=AgentRun.Status.QUEUED).update(
            status=AgentRun.Status.DISPATCHED,
            dispatched_at=now,
            deadline_at=now + timedelta(seconds=settings.OMNIFORGE_RUN_DEADLINE_S),
        )
    return result


def retry_delay(attempts: int) -> float:
    """Seconds before the next attempt: doubling from the base, at most five minutes, and
    never under one, so no two attempts share a timestamp (nor a signature: a receiver that
    refuses a signature it has seen refuses only replays)."""
    backoff = settings.OMNIFORGE_RUNTIME_BACKOFF_S * 2 ** max(0, attempts - 1)
    return float(min(300.0, max(1.0, backoff)))


def attempts_made(*, tenant_id: int, run_id: str) -> int:
    attempts = (
        AgentRun.objects.for_tenant(tenant_id)
        .filter(id=run_id)
        .values_list("attempts", flat=True)
        .first()
    )
    return attempts or 0


def hold_for_retry(*, tenant_id: int, run_id: str, delay_s: float) -> None:
    """Keep the sweep off a run that waits for its next attempt."""
    AgentRun.objects.for_tenant(tenant_id).filter(id=run_id, status=AgentRun.Status.QUEUED).update(
        deadline_at=timezone.now()
        + timedelta(seconds=delay_s + settings.OMNIFORGE_RUNTIME_TIMEOUT_S)
        + HAND_ON_WITHIN
    )
