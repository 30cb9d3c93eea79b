"""Operations endpoints: ``GET /healthz`` (dependencies) and ``GET /metrics`` (Prometheus)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any

from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import connection
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

logger = logging.getLogger(__name__)
CHECK_TIMEOUT_S = 2.0


def _check_database() -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()


async def _check_channel_layer() -> None:
    layer = get_channel_layer()
    if layer is None:
        raise RuntimeError("no channel layer configured")
    channel = await layer.new_channel("healthz.")
    await layer.send(channel, {"type": "healthz.ping"})
    message = await layer.receive(channel)
    if message.get("type") != "healthz.ping":
        raise RuntimeError("channel layer returned another message")


def _check_broker() -> None:
    from config.celery import app

    with app.connection_for_write() as conn:
        conn.ensure_connection(max_retries=1, timeout=CHECK_TIMEOUT_S)


async def _run(name: str, check: Callable[[], Any]) -> tuple[str, str]:
    try:
        if asyncio.iscoroutinefunction(check):
            await asyncio.wait_for(check(), CHECK_TIMEOUT_S)
        else:
            await asyncio.wait_for(sync_to_async(check)(), CHECK_TIMEOUT_S)
    except Exception as exc:
        # The reason goes to the log only: a health endpoint is public and must not leak hosts.
        logger.warning("healthz: %s is down: %s", name, type(exc).__name__)
        return name, "down"
    return name, "ok"


@never_cache
@require_GET
async def healthz(request: HttpRequest) -> JsonResponse:
    checks: dict[str, Callable[[], Any]] = {
        "database": _check_database,
        "channel_layer": _check_channel_layer,
    }
    if settings.REDIS_URL:
        checks["broker"] = _check_broker
    results = dict([await _run(name, check) for name, check in checks.items()])
    healthy = all(state == "ok" for state in results.values())
    return JsonResponse(
        {"status": "ok" if healthy else "unavailable", "checks": results},
        status=200 if healthy else 503,
    )


@never_cache
@require_GET
def metrics(request: HttpRequest) -> HttpResponse:
    """This process's Prometheus metrics (each Daphne process is its own scrape target)."""
    from prometheus_client import CONTENT_TYPE_LATEST, generate_latest

    return HttpResponse(generate_latest(), content_type=CONTENT_TYPE_LATEST)
