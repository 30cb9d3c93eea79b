"""Background work of the conversations app: committing chat turns that storage refused.

With a broker (``REDIS_URL``) the retry is a Celery task with exponential backoff and jitter;
in the embedded mode, where tasks would run eagerly inside the failing request, it is a
thread in this process with the same backoff. Both call ``turn_commit_pending``, which is
idempotent (every message and effect carries an id chosen up front), so a retry that runs
twice stores nothing twice.
"""

from __future__ import annotations

import logging
import random
import threading
import time
from collections.abc import Mapping
from typing import Any

from celery import shared_task
from django.conf import settings
from django.db import DatabaseError, close_old_connections, connections

from conversations.chat.commit import turn_commit_pending
from conversations.chat.pending import backlog_add, backlog_flush
from conversations.chat.seal import seal, unseal

# Celery discovers the tasks of this module only: the runs' tasks are registered through it.
from conversations.runs.tasks import runs_dispatch, runs_tick  # noqa: F401
from conversations.store.outage import TRANSIENT_STORAGE_ERRORS

logger = logging.getLogger("omniforge.chat")

RETRY_BASE_S = 0.5
RETRY_CAP_S = 60.0
MAX_ATTEMPTS = 12  # about five minutes of backoff in all


@shared_task(
    bind=True,
    # Only while storage is unavailable: a write refused for its data fails the same way again.
    autoretry_for=TRANSIENT_STORAGE_ERRORS,
    retry_backoff=True,
    retry_backoff_max=int(RETRY_CAP_S),
    retry_jitter=True,
    max_retries=MAX_ATTEMPTS,
    acks_late=True,
)
def turn_commit_retry(
    self: Any, tenant_id: int, user_id: int, conversation_id: str, payload: dict[str, Any]
) -> int:
    """Commit a chat turn storage refused (its effects, messages and state); new messages.

    The conversation's earlier unstored turns first, in the order they were answered.
    """
    return backlog_flush(conversation_id) + turn_commit_pending(
        tenant_id=tenant_id,
        user_id=user_id,
        conversation_id=conversation_id,
        payload=unseal(payload),
    )


def _retry_in_process(
    tenant_id: int, user_id: int, conversation_id: str, payload: Mapping[str, Any]
) -> None:
    try:
        for attempt in range(MAX_ATTEMPTS + 1):
            close_old_connections()
            try:
                stored = backlog_flush(conversation_id) + turn_commit_pending(
                    tenant_id=tenant_id,
                    user_id=user_id,
                    conversation_id=conversation_id,
                    payload=payload,
                )
            except TRANSIENT_STORAGE_ERRORS:
                delay = random.uniform(0, min(RETRY_CAP_S, RETRY_BASE_S * 2**attempt))
                logger.warning("chat: retrying a failed write in %.1f s", delay)
                time.sleep(delay)
                continue
            except DatabaseError:
                logger.exception("chat: storage refused a turn of %s for good", conversation_id)
                return
            logger.info("chat: stored %d message(s) after a failed write", stored)
            return
        logger.error("chat: gave up storing a turn of %s", conversation_id)
    finally:
        connections.close_all()


def turn_commit_schedule(
    *, tenant_id: int, user_id: int, conversation_id: str, payload: dict[str, Any]
) -> None:
    """Hand a turn that storage refused to the background retry, listed in order after the
    conversation's earlier unstored turns."""
    backlog_add(
        tenant_id=tenant_id, user_id=user_id, conversation_id=conversation_id, payload=payload
    )
    if settings.REDIS_URL:
        # Through the broker: the messages travel sealed (encrypted when keys are set).
        turn_commit_retry.apply_async(
            args=(tenant_id, user_id, conversation_id, seal(payload)), countdown=RETRY_BASE_S
        )
        return
    threading.Thread(
        target=_retry_in_process,
        args=(tenant_id, user_id, conversation_id, payload),
        name=f"chat-retry-{conversation_id}",
        daemon=True,
    ).start()
